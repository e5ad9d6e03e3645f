import Geometry
import Testing
import TestSupport
@testable import Raster

@Suite("Snapshot draws: scaled, translated, clipped, with opacity")
struct SnapshotDrawTests {
    @Test("An unscaled aligned opaque draw is an exact copy")
    func alignedCopy() {
        var rng = SeededRandom(seed: 7)
        let image = rng.bitmap(width: 30, height: 20, opaque: true)
        var canvas = Bitmap(width: 40, height: 40, fill: Color.white.premultiplied)
        canvas.withView {
            $0.draw(
                Texture(image), from: Rect(x: 5, y: 2, width: 10, height: 8), to: Rect(x: 3, y: 4, width: 10, height: 8)
            )
        }
        for y in 0..<8 {
            for x in 0..<10 {
                #expect(canvas[3 + x, 4 + y] == image[5 + x, 2 + y])
            }
        }
        #expect(canvas[2, 4] == Color.white.premultiplied)
        #expect(canvas[13, 4] == Color.white.premultiplied)
    }

    @Test("A half-pixel shift of a black/white edge gives mid grey")
    func bilinearHalfPixel() {
        var image = Bitmap(width: 4, height: 1, fill: Color.black.premultiplied)
        image[2, 0] = Color.white.premultiplied
        image[3, 0] = Color.white.premultiplied
        var canvas = Bitmap(width: 8, height: 1)
        canvas.withView {
            $0.draw(
                Texture(image), from: Rect(x: 0.5, y: 0, width: 3, height: 1), to: Rect(x: 0, y: 0, width: 3, height: 1)
            )
        }
        // Centre of pixel 1 samples source x = 1.5 + 0.5 - 0.5 = 1.5, between black and white.
        #expect(canvas[1, 0] == PremultipliedColor(r: 128, g: 128, b: 128, a: 255))
        #expect(canvas[0, 0] == Color.black.premultiplied)
        #expect(canvas[2, 0] == Color.white.premultiplied)
    }

    @Test("A 4x downscale of a one-pixel checkerboard is uniform grey (the mip level prefilters)")
    func downscaleDoesNotAlias() {
        var image = Bitmap(width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 {
                image[x, y] = (x + y) % 2 == 0 ? Color.black.premultiplied : Color.white.premultiplied
            }
        }
        var canvas = Bitmap(width: 16, height: 16)
        canvas.withView {
            $0.draw(
                Texture(image), from: Rect(x: 0, y: 0, width: 64, height: 64),
                to: Rect(x: 0, y: 0, width: 16, height: 16))
        }
        for y in 0..<16 {
            for x in 0..<16 {
                #expect(abs(Int(canvas[x, y].r) - 128) <= 1)
            }
        }
    }

    @Test("Mip levels halve down to 1x1 with rounded box averages")
    func mipChain() {
        var image = Bitmap(width: 5, height: 3, fill: Color.white.premultiplied)
        image[0, 0] = Color.black.premultiplied
        let t = Texture(image)
        #expect(t.levels.map(\.width) == [5, 3, 2, 1])
        #expect(t.levels.map(\.height) == [3, 2, 1, 1])
        #expect(t.levels[1][0, 0].r == 191)  // (0 + 3·255 + 2) / 4 = 191.75 → 191
    }

    @Test(
        "A texture built for draws that shrink it at most so much draws them byte for byte as its whole mip chain does")
    func levelsForAShrink() {
        var random = SeededRandom(seed: 0x7E47)
        for i in 0..<60 {
            let (w, h) = (Int.random(in: 1...90, using: &random), Int.random(in: 1...90, using: &random))
            let image = random.bitmap(width: w, height: h, opaque: Bool.random(using: &random))
            // Every tenth draw shrinks it by exactly 2 or 4, at a level's edge.
            let exact = i % 10 == 0 ? [2.0, 4][i / 10 % 2] : nil
            let dw = exact.map { Double(w) / $0 } ?? random.double(0.3...Double(w) * 1.5)
            let dh = exact.map { Double(h) / $0 } ?? random.double(0.3...Double(h) * 1.5)
            let factor = min(Double(w) / dw, Double(h) / dh)
            let (whole, some) = (Texture(image), Texture(image, shrunkAtMost: factor))
            #expect(some.levels.count <= whole.levels.count)
            func drawn(_ texture: Texture) -> Bitmap {
                var canvas = Bitmap(width: Int(dw.rounded(.up)), height: Int(dh.rounded(.up)))
                canvas.withView { $0.draw(texture, from: texture.bounds, to: Rect(x: 0, y: 0, width: dw, height: dh)) }
                return canvas
            }
            #expect(drawn(some) == drawn(whole), "\(w)x\(h) to \(dw)x\(dh)")
        }
        // A 750-pixel screen drawn 320 wide samples its level of 375: two levels, not eleven.
        #expect(Texture(Bitmap(width: 750, height: 10), shrunkAtMost: 750.0 / 320).levels.count == 2)
    }

    @Test("Samples clamp to the source rect: a slice does not bleed its neighbours")
    func sliceDoesNotBleed() {
        var image = Bitmap(width: 10, height: 10, fill: Color(rgb: 0x00FF00).premultiplied)
        for y in 0..<10 {
            for x in 0..<3 { image[x, y] = Color(rgb: 0xFF0000).premultiplied }
        }
        var canvas = Bitmap(width: 20, height: 20)
        canvas.withView {
            $0.draw(
                Texture(image), from: Rect(x: 3, y: 0, width: 7, height: 10),
                to: Rect(x: 0, y: 0, width: 17.5, height: 20))
        }
        #expect(canvas.pixels.enumerated().allSatisfy { $0.offset % 4 != 0 || $0.element == 0 })
    }

    @Test("Opacity and a rounded clip: corner outside is untouched, centre at half alpha")
    func opacityAndClip() {
        let image = Bitmap(width: 10, height: 10, fill: Color(rgb: 0x0000FF).premultiplied)
        var canvas = Bitmap(width: 40, height: 40)
        canvas.withView {
            $0.draw(
                Texture(image), from: Rect(x: 0, y: 0, width: 10, height: 10),
                to: Rect(x: 0, y: 0, width: 40, height: 40),
                opacity: 128, clip: .roundedRect(Rect(x: 0, y: 0, width: 40, height: 40), radius: 12))
        }
        #expect(canvas[0, 0].a == 0)
        #expect(canvas[20, 20] == PremultipliedColor(r: 0, g: 0, b: 128, a: 128))
    }

    @Test("Fast draws equal the reference path byte for byte", arguments: 0..<100)
    func fastEqualsReference(seed: Int) {
        var rng = SeededRandom(seed: UInt64(1000 + seed))
        let (w, h) = (Int.random(in: 4...64, using: &rng), Int.random(in: 4...48, using: &rng))
        let image = rng.bitmap(
            width: Int.random(in: 2...90, using: &rng), height: Int.random(in: 2...90, using: &rng),
            opaque: seed % 2 == 0)
        let texture = Texture(image)
        var fast = rng.bitmap(width: w, height: h, opaque: true)
        var reference = fast
        for _ in 0..<3 {
            let source: Rect
            let destination: Rect
            switch seed % 5 {
            case 0, 2:  // unscaled, pixel aligned (copy / direct blend) or aligned across only (row lerp)
                let sw = Double(Int.random(in: 1...image.width, using: &rng))
                let sh = Double(Int.random(in: 1...image.height, using: &rng))
                source = Rect(
                    x: Double(Int.random(in: 0...(image.width - Int(sw)), using: &rng)),
                    y: Double(Int.random(in: 0...(image.height - Int(sh)), using: &rng)), width: sw, height: sh)
                let dy = seed % 5 == 2 ? rng.double(0...1) : 0
                destination = Rect(
                    x: Double(Int.random(in: -5...w, using: &rng)), y: Double(Int.random(in: -5...h, using: &rng)) + dy,
                    width: sw, height: sh)
            case 1:  // strong downscale: mip levels
                source = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
                destination = Rect(
                    x: rng.coordinate(-4...Double(w)), y: rng.coordinate(-4...Double(h)),
                    width: Double(image.width) / rng.double(2.1...9), height: Double(image.height) / rng.double(2.1...9)
                )
            default:  // anything: fractional source and destination
                source = Rect(
                    x: rng.double(0...Double(image.width) / 2), y: rng.double(0...Double(image.height) / 2),
                    width: rng.double(0.5...Double(image.width) / 2), height: rng.double(0.5...Double(image.height) / 2)
                )
                destination = rng.rect(in: Double(w), Double(h))
            }
            let opacity: UInt8 = Bool.random(using: &rng) ? 255 : rng.byte()
            let clip = rng.clip(in: Double(w), Double(h))
            fast.withView { $0.draw(texture, from: source, to: destination, opacity: opacity, clip: clip) }
            reference.withView {
                ReferenceRaster.draw($0, texture, from: source, to: destination, opacity: opacity, clip: clip)
            }
        }
        #expect(differingBytes(fast, reference) == 0)
    }
    @Test("An overlay is a fill of the pixels the draw reports, after the draw", arguments: 0..<60)
    func overlayEqualsFillAfter(seed: Int) {
        var rng = SeededRandom(seed: UInt64(5000 + seed))
        let (w, h) = (Int.random(in: 4...64, using: &rng), Int.random(in: 4...48, using: &rng))
        let image = rng.bitmap(
            width: Int.random(in: 2...90, using: &rng), height: Int.random(in: 2...90, using: &rng),
            opaque: seed % 3 != 0)
        let texture = Texture(image)
        var fast = rng.bitmap(width: w, height: h, opaque: true)
        var reference = fast
        // Unscaled and pixel-aligned (the copy path) or anything (the sampled paths).
        let source =
            seed % 2 == 0
            ? Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
            : Rect(
                x: rng.double(0...Double(image.width) / 2), y: rng.double(0...Double(image.height) / 2),
                width: rng.double(0.5...Double(image.width) / 2), height: rng.double(0.5...Double(image.height) / 2))
        let destination =
            seed % 2 == 0
            ? Rect(
                x: Double(Int.random(in: -5...w, using: &rng)), y: Double(Int.random(in: -5...h, using: &rng)),
                width: source.width, height: source.height)
            : rng.rect(in: Double(w), Double(h))
        let opacity: UInt8 = seed % 4 < 2 ? 255 : rng.byte()
        let clip = seed % 5 == 0 ? Clip.none : rng.clip(in: Double(w), Double(h))
        let tint = Color(r: rng.byte(), g: rng.byte(), b: rng.byte(), a: UInt8.random(in: 1...254, using: &rng))
            .premultiplied
        let area = PixelRect(
            x: Int.random(in: -4...w, using: &rng), y: Int.random(in: -4...h, using: &rng),
            width: Int.random(in: 0...w + 4, using: &rng), height: Int.random(in: 0...h + 4, using: &rng))
        let covered = Rect(x: Double(area.x), y: Double(area.y), width: Double(area.width), height: Double(area.height))

        var overlaid = PixelRect.zero
        fast.withView { view in
            overlaid = view.draw(
                texture, from: source, to: destination, opacity: opacity, clip: clip,
                overlay: Overlay(color: tint, rect: area))
            view.fill(.rect(covered), color: tint, hidden: Occlusion(rects: [overlaid]))
        }
        reference.withView { view in
            ReferenceRaster.draw(view, texture, from: source, to: destination, opacity: opacity, clip: clip)
            ReferenceRaster.fill(view, .rect(covered), color: tint)
        }
        #expect(area.isEmpty || area.contains(overlaid) || overlaid.isEmpty)
        #expect(differingBytes(fast, reference) == 0)
    }
}
