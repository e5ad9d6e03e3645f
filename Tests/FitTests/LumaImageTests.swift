import Flipbook
import Foundation
import TestSupport
import Testing

@testable import Fit

/// What fitting compares: the box filter, and its path for a picture at the working size.
@Suite("LumaImage: the box filter over white, and its one-pixel path, to the same float")
struct LumaImageTests {
    /// The box filter as the type states it, pixel by pixel: each output pixel the mean of R, G
    /// and B over the source pixels its box covers, premultiplied over white (c + 255 − a), and
    /// 255 where the box holds none.
    static func reference(_ b: Bitmap, crop c: Crop, width: Int, height: Int) -> [Float] {
        let sx = Double(c.width) / Double(width), sy = Double(c.height) / Double(height)
        return (0..<(width * height)).map { k in
            let (x, y) = (k % width, k / width)
            let x0 = c.x + Int((Double(x) * sx).rounded(.down)), y0 = c.y + Int((Double(y) * sy).rounded(.down))
            let x1 = max(x0 + 1, c.x + Int((Double(x + 1) * sx).rounded(.down)))
            let y1 = max(y0 + 1, c.y + Int((Double(y + 1) * sy).rounded(.down)))
            var sum = 0, n = 0
            for yy in 0..<b.height where yy >= y0 && yy < y1 {
                for xx in 0..<b.width where xx >= x0 && xx < x1 {
                    let i = yy * b.rowBytes + xx * 4
                    sum +=
                        Int(b.pixels[i]) + Int(b.pixels[i + 1]) + Int(b.pixels[i + 2]) + 3
                        * (255 - Int(b.pixels[i + 3]))
                    n += 3
                }
            }
            return n > 0 ? Float(sum) / Float(n) : 255
        }
    }

    @Test("Random pictures, crops and sizes: every pixel equal to the reference, at the crop's own size and scaled")
    func matchesReference() {
        var rng = SeededRandom(seed: 47)
        for round in 0..<400 {
            let w = 1 + rng.below(40), h = 1 + rng.below(40), rowBytes = w * 4 + 4 * rng.below(3)
            // Random bytes: premultiplied or not (a decoded file need not be), rows padded or not.
            let bitmap = Bitmap(
                width: w, height: h, rowBytes: rowBytes,
                premultipliedPixels: (0..<(rowBytes * h)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            // Some crops reach past an edge: their boxes are clipped, or empty.
            let crop = Crop(
                x: rng.below(w) - (round % 7 == 0 ? 3 : 0), y: rng.below(h) - (round % 11 == 0 ? 3 : 0),
                width: 1 + rng.below(w + (round % 5 == 0 ? 6 : 0)), height: 1 + rng.below(h))
            // Half the rounds at the crop's own size: one source pixel each, a render at the working size.
            let (ow, oh) = round % 2 == 0 ? (crop.width, crop.height) : (1 + rng.below(30), 1 + rng.below(30))
            let ours = LumaImage(bitmap, crop: crop, width: ow, height: oh).pixels
            #expect(
                ours == Self.reference(bitmap, crop: crop, width: ow, height: oh),
                "round \(round): \(w)x\(h), \(crop) to \(ow)x\(oh)")
        }
    }

    @Test("A box of more rows than a 16-bit lane holds (257 of 255 and up): the same as the reference")
    func tallBoxes() {
        var rng = SeededRandom(seed: 53)
        for (h, oh) in [(700, 1), (513, 2), (300, 1)] {
            let bitmap = Bitmap(
                width: 5, height: h, rowBytes: 24,
                premultipliedPixels: (0..<(24 * h)).map { _ in 255 - UInt8(truncatingIfNeeded: rng.next() % 4) })
            let crop = Crop(x: 0, y: 0, width: 5, height: h)
            #expect(
                LumaImage(bitmap, crop: crop, width: 2, height: oh).pixels
                    == Self.reference(bitmap, crop: crop, width: 2, height: oh), "\(h) rows to \(oh)")
        }
    }

    @Test(
        "The mean difference from a render at the working size is the one from its picture, to the bit; both within float rounding of the exact mean"
    )
    func meanDifference() {
        var rng = SeededRandom(seed: 59)
        for round in 0..<300 {
            // Widths around the eight lanes, and rows padded or not.
            let w = [1, 3, 7, 8, 9, 15, 16, 17, 80][round % 9], h = 1 + rng.below(20),
                rowBytes = w * 4 + 4 * rng.below(3)
            let render = Bitmap(
                width: w, height: h, rowBytes: rowBytes,
                premultipliedPixels: (0..<(rowBytes * h)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            let other = Bitmap(
                width: w, height: h,
                premultipliedPixels: (0..<(w * 4 * h)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            let picture = LumaImage(other, width: w, height: h)
            let rendered = LumaImage(render, width: w, height: h)
            let fromBitmap = picture.meanDifference(render)
            #expect(fromBitmap == picture.meanDifference(rendered), "round \(round): \(w)x\(h)")
            let exact =
                zip(picture.pixels, rendered.pixels).map { Double(abs($0 - $1)) }.reduce(0, +) / Double(w * h)
            #expect(abs(fromBitmap - exact) <= 1e-4 * max(1, exact), "round \(round): \(fromBitmap) against \(exact)")
        }
    }

    @Test(
        "A card's box is the rows and columns many of whose pixels change: a few stray pixels (a codec's noise at text) elsewhere leave it as it is, where the plain box takes them in"
    )
    func cardBox() throws {
        var rng = SeededRandom(seed: 61)
        for round in 0..<200 {
            let (w, h) = (40 + rng.below(100), 60 + rng.below(140))
            let still = LumaImage(width: w, height: h, pixels: (0..<(w * h)).map { _ in Float(rng.below(256)) })
            var moved = still.pixels
            // A card: a rectangle every pixel of which changes by more than the level.
            let (x0, y0) = (rng.below(w / 2), rng.below(h / 2))
            let (x1, y1) = (x0 + w / 8 + rng.below(w / 2 - w / 8), y0 + h / 8 + rng.below(h / 2 - h / 8))
            for y in y0...y1 { for x in x0...x1 { moved[y * w + x] = still.pixels[y * w + x] < 128 ? 255 : 0 } }
            // Noise: a few pixels anywhere, one to a row and a column, fewer than the share asks.
            var (rows, columns): (Set<Int>, Set<Int>) = ([], [])
            for _ in 0..<(1 + rng.below(3)) {
                let (x, y) = (rng.below(w), rng.below(h))
                guard !rows.contains(y), !columns.contains(x) else { continue }
                (rows, columns) = (rows.union([y]), columns.union([x]))
                moved[y * w + x] = still.pixels[y * w + x] < 128 ? 255 : 0
            }
            let box = try #require(
                LumaImage(width: w, height: h, pixels: moved).changedBox(from: still, by: 20, share: 0.05))
            #expect(box.x == x0...x1 && box.y == y0...y1, "round \(round): \(box) for \(x0)...\(x1), \(y0)...\(y1)")
        }
        // Nothing changed: no box.
        let flat = LumaImage(width: 4, height: 4, pixels: [Float](repeating: 7, count: 16))
        #expect(flat.changedBox(from: flat, by: 20, share: 0.05) == nil)
    }

    @Test("Random pictures: with no share given, the changed box is the box around every pixel that changed")
    func changedPixelsBox() {
        var rng = SeededRandom(seed: 71)
        for _ in 0..<200 {
            let (w, h) = (1 + rng.below(30), 1 + rng.below(30))
            let still = LumaImage(width: w, height: h, pixels: (0..<(w * h)).map { _ in Float(rng.below(256)) })
            var moved = still.pixels
            for _ in 0..<rng.below(4) { moved[rng.below(w * h)] += Float(21 + rng.below(30)) }
            var (minX, minY, maxX, maxY) = (w, h, -1, -1)
            for y in 0..<h {
                for x in 0..<w where abs(moved[y * w + x] - still.pixels[y * w + x]) > 20 {
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                }
            }
            let box = LumaImage(width: w, height: h, pixels: moved).changedBox(from: still, by: 20)
            #expect(
                box.map { [$0.x.lowerBound, $0.y.lowerBound, $0.x.upperBound, $0.y.upperBound] }
                    == (maxX >= minX ? [minX, minY, maxX, maxY] : nil), "\(w)x\(h)")
        }
    }

    @Test("Random pictures and radii: the box blur equal to one row's and one column's running sums, made alone")
    func boxBlur() {
        var rng = SeededRandom(seed: 67)
        for round in 0..<200 {
            let w = 1 + rng.below(round % 4 == 0 ? 6 : 90), h = 1 + rng.below(round % 3 == 0 ? 7 : 150)
            // Fractions, as a box filter's greys are: sums that round.
            let picture = LumaImage(
                width: w, height: h, pixels: (0..<(w * h)).map { _ in Float(rng.below(766)) / 3 })
            let r = rng.below(6)
            let blurred = picture.boxBlurred(radius: r)
            #expect(blurred.pixels == Self.boxBlurred(picture, radius: r), "\(w)x\(h), radius \(r)")
        }
    }

    /// The box blur as its definition makes it: each row's running sum alone, then each
    /// column's, edges repeated.
    static func boxBlurred(_ p: LumaImage, radius r: Int) -> [Float] {
        guard r > 0 else { return p.pixels }
        let (w, h, n) = (p.width, p.height, Float(2 * r + 1))
        var rows = p.pixels, out = p.pixels
        for y in 0..<h {
            func at(_ x: Int) -> Float { p.pixels[y * w + min(max(x, 0), w - 1)] }
            var sum: Float = 0
            for x in -r...r { sum += at(x) }
            for x in 0..<w {
                rows[y * w + x] = sum / n
                sum += at(x + r + 1) - at(x - r)
            }
        }
        for x in 0..<w {
            func at(_ y: Int) -> Float { rows[min(max(y, 0), h - 1) * w + x] }
            var sum: Float = 0
            for y in -r...r { sum += at(y) }
            for y in 0..<h {
                out[y * w + x] = sum / n
                sum += at(y + r + 1) - at(y - r)
            }
        }
        return out
    }
}
