import Geometry
import Testing
import TestSupport
@testable import Raster

@Suite("Occlusion: pixels later draws paint opaquely are skipped, and nothing else")
struct OcclusionTests {
    @Test("Visible bands subtract hidden rects row band by row band")
    func bands() {
        let hidden = Occlusion(rects: [
            PixelRect(x: 2, y: 2, width: 3, height: 4), PixelRect(x: 4, y: 4, width: 4, height: 4),
        ])
        let bands = hidden.bands(in: PixelRect(x: 0, y: 0, width: 10, height: 10))
        #expect(
            bands == [
                VisibleBand(rows: 0..<2, runs: [0..<10]),
                VisibleBand(rows: 2..<4, runs: [0..<2, 5..<10]),
                VisibleBand(rows: 4..<6, runs: [0..<2, 8..<10]),
                VisibleBand(rows: 6..<8, runs: [0..<4, 8..<10]),
                VisibleBand(rows: 8..<10, runs: [0..<10]),
            ])
        #expect(hidden.bands(in: PixelRect(x: 2, y: 2, width: 2, height: 2)).isEmpty)
        #expect(!hidden.bands(in: PixelRect(x: 2, y: 2, width: 4, height: 2)).isEmpty)
        #expect(
            Occlusion(rects: [PixelRect(x: -5, y: -5, width: 30, height: 30)]).bands(
                in: PixelRect(x: 0, y: 0, width: 10, height: 10)
            ).isEmpty)
    }

    @Test("A rect inside one already held is dropped; one holding others replaces them")
    func insertKeepsFew() {
        var hidden = Occlusion(rects: [
            PixelRect(x: 0, y: 0, width: 4, height: 4), PixelRect(x: 10, y: 0, width: 2, height: 2),
        ])
        hidden.insert(PixelRect(x: 1, y: 1, width: 2, height: 2))
        #expect(hidden.rects.count == 2)
        hidden.insert(PixelRect(x: -1, y: -1, width: 20, height: 20))
        #expect(hidden.rects == [PixelRect(x: -1, y: -1, width: 20, height: 20)])
    }

    @Test("Solid rects hold only fully covered pixels, and a circle's inscribed square", arguments: 0..<60)
    func solidRectsAreFullyCovered(seed: Int) {
        var rng = SeededRandom(seed: UInt64(7000 + seed))
        let (w, h) = (Int.random(in: 8...90, using: &rng), Int.random(in: 8...90, using: &rng))
        let rect = rng.rect(in: Double(w), Double(h))
        let shape: Shape
        switch seed % 4 {
        case 0: shape = .rect(rect)
        case 1: shape = .roundedRect(rect, radius: rng.double(0...40))
        case 2: shape = .ellipse(rect)
        default:  // a circle inside the canvas, so that all of its solid pixels are counted
            let d = max(1, min(rect.width, Double(w - 1), Double(h - 1)))
            shape = .ellipse(
                Rect(x: rng.double(0...(Double(w) - d)), y: rng.double(0...(Double(h) - d)), width: d, height: d))
        }
        let red = Color(rgb: 0xFF0000).premultiplied
        var canvas = Bitmap(width: w, height: h)
        canvas.withView { $0.fill(shape, color: red) }
        var solid = 0
        for r in shape.solidPixelRects {
            let inside = r.intersection(canvas.bounds)
            for y in inside.y..<inside.maxY {
                for x in inside.x..<inside.maxX {
                    #expect(canvas[x, y] == red, "\(shape) at (\(x), \(y))")
                    solid += 1
                }
            }
        }
        if seed % 4 == 3, case .ellipse(let circle) = shape, circle.width > 20 {
            // The inset rect is the inscribed square, side d/√2, less at most a pixel each side.
            let side = circle.width / 2.squareRoot() - 2
            #expect(Double(solid) >= side * side, "\(solid) solid pixels of \(shape)")
        }
    }

    @Test(
        "Fills and draws around hidden rects equal the reference outside them and leave them as they were",
        arguments: 0..<60)
    func drawsAroundHidden(seed: Int) {
        var rng = SeededRandom(seed: UInt64(9000 + seed))
        let (w, h) = (Int.random(in: 4...64, using: &rng), Int.random(in: 4...48, using: &rng))
        let background = rng.bitmap(width: w, height: h, opaque: seed % 2 == 0)
        var fast = background, reference = background
        let hidden = Occlusion(
            rects: (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                PixelRect(
                    x: Int.random(in: -4...w, using: &rng), y: Int.random(in: -4...h, using: &rng),
                    width: Int.random(in: 0...w / 2 + 2, using: &rng),
                    height: Int.random(in: 0...h / 2 + 2, using: &rng))
            })
        let opacity: UInt8 = Bool.random(using: &rng) ? 255 : rng.byte()
        let clip = rng.clip(in: Double(w), Double(h))
        let rect = rng.rect(in: Double(w), Double(h))
        if seed % 2 == 0 {
            let shape: Shape = Bool.random(using: &rng) ? .rect(rect) : .roundedRect(rect, radius: rng.double(0...20))
            let color = rng.premultipliedColor()
            fast.withView { $0.fill(shape, color: color, opacity: opacity, clip: clip, hidden: hidden) }
            reference.withView { ReferenceRaster.fill($0, shape, color: color, opacity: opacity, clip: clip) }
        } else {
            let image = rng.bitmap(
                width: Int.random(in: 2...70, using: &rng), height: Int.random(in: 2...70, using: &rng),
                opaque: seed % 4 == 1)
            let source = Rect(
                x: rng.double(0...Double(image.width) / 2), y: rng.double(0...Double(image.height) / 2),
                width: rng.double(0.5...Double(image.width) / 2), height: rng.double(0.5...Double(image.height) / 2))
            // Half the cases unscaled, so the copy and row-lerp paths meet hidden runs too.
            let destination =
                seed % 3 == 0
                ? Rect(
                    x: Double(Int.random(in: -3...w, using: &rng)), y: rng.coordinate(-3...Double(h)),
                    width: source.width.rounded(.up), height: source.height) : rect
            let src =
                seed % 3 == 0
                ? Rect(
                    x: source.minX.rounded(), y: source.minY, width: source.width.rounded(.up), height: source.height)
                : source
            fast.withView {
                $0.draw(Texture(image), from: src, to: destination, opacity: opacity, clip: clip, hidden: hidden)
            }
            reference.withView {
                ReferenceRaster.draw($0, Texture(image), from: src, to: destination, opacity: opacity, clip: clip)
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                let isHidden = hidden.rects.contains { $0.contains(PixelRect(x: x, y: y, width: 1, height: 1)) }
                #expect(
                    fast[x, y] == (isHidden ? background[x, y] : reference[x, y]), "(\(x), \(y)) hidden: \(isHidden)")
            }
        }
    }

    @Test("A clear around hidden rects leaves them as they were")
    func clearAroundHidden() {
        let blue = Color(rgb: 0x0000FF).premultiplied
        var b = Bitmap(width: 8, height: 6)
        b.withView { $0.clear(to: blue, hidden: Occlusion(rects: [PixelRect(x: 2, y: 1, width: 3, height: 2)])) }
        #expect(b[1, 1] == blue && b[5, 2] == blue && b[2, 3] == blue)
        #expect(b[2, 1].a == 0 && b[4, 2].a == 0)
    }
}

@Suite("Shape coverage: the interior span of a row is fully covered")
struct InteriorSpanTests {
    @Test(
        "Every pixel of every row's interior span has coverage 255, and a circle's rows reach past its centre",
        arguments: 0..<40)
    func interiorIsFull(seed: Int) {
        var rng = SeededRandom(seed: UInt64(11000 + seed))
        let rect = Rect(
            x: rng.coordinate(-20...60), y: rng.coordinate(-20...60), width: rng.coordinate(1...140),
            height: rng.coordinate(1...140))
        let cover: ShapeCoverage
        switch seed % 3 {
        case 0: cover = ShapeCoverage(.ellipse(Rect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.width)))
        case 1: cover = ShapeCoverage(.roundedRect(rect, radius: rng.double(0...70)))
        default: cover = ShapeCoverage(.ellipse(rect))
        }
        var interiorPixels = 0
        let b = cover.pixelBounds
        for y in b.y..<b.maxY {
            let (lo, hi) = cover.interior(row: y)
            for x in lo..<max(lo, hi) {
                #expect(cover.coverage(x, y) == 255, "(\(x), \(y)) of \(rect)")
                interiorPixels += 1
            }
        }
        if seed % 3 == 0 && rect.width > 30 {
            // A circle's interior spans cover most of it (π/4 of the box, less a rim).
            #expect(
                Double(interiorPixels) > 0.6 * rect.width * rect.width, "\(interiorPixels) interior pixels of \(rect)")
        }
    }
}
