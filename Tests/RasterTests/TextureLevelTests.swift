import Testing
import TestSupport

@testable import Raster

/// A texture's mip levels and opacity, against their plain definitions.
@Suite("Texture levels: each a 2x2 box average of the one before; opacity, every alpha 255")
struct TextureLevelTests {
    /// The 2x2 box average as defined: each channel's four samples (the last row and column
    /// repeated for odd sizes) summed, plus 2, over 4.
    static func halved(_ b: Bitmap) -> [UInt8] {
        let w = (b.width + 1) / 2, h = (b.height + 1) / 2
        var out: [UInt8] = []
        for y in 0..<h {
            for x in 0..<w {
                let xs = [min(2 * x, b.width - 1), min(2 * x + 1, b.width - 1)]
                let ys = [min(2 * y, b.height - 1), min(2 * y + 1, b.height - 1)]
                for ch in 0..<4 {
                    var sum = 0
                    for sy in ys { for sx in xs { sum += Int(b.pixels[sy * b.rowBytes + sx * 4 + ch]) } }
                    out.append(UInt8((sum + 2) / 4))
                }
            }
        }
        return out
    }

    @Test("Random bitmaps, odd and even sizes, padded rows: every byte of the halving as defined")
    func halving() {
        var rng = SeededRandom(seed: 83)
        for round in 0..<300 {
            let (w, h) = (1 + rng.below(round % 5 == 0 ? 4 : 40), 1 + rng.below(round % 7 == 0 ? 3 : 30))
            let rowBytes = w * 4 + 4 * rng.below(3)
            // Any bytes: the sums must not carry between channels even at 255 each.
            let pixels = (0..<(rowBytes * h)).map { _ in round % 3 == 0 ? 255 : rng.byte() }
            let bitmap = Bitmap(width: w, height: h, rowBytes: rowBytes, premultipliedPixels: pixels)
            let half = Texture.halved(bitmap)
            #expect((half.width, half.height) == ((w + 1) / 2, (h + 1) / 2))
            #expect(half.pixels == Self.halved(bitmap), "\(w)x\(h), rows \(rowBytes) bytes apart")
        }
    }

    @Test("Random bitmaps with one pixel's alpha under 255, anywhere, or none: opaque exactly when none")
    func opacity() {
        var rng = SeededRandom(seed: 89)
        for round in 0..<300 {
            let (w, h) = (1 + rng.below(30), 1 + rng.below(20))
            let rowBytes = w * 4 + 4 * rng.below(3)
            // Past each row's last pixel, bytes that are no pixel's: never read as alpha.
            var pixels = (0..<(rowBytes * h)).map { _ in rng.byte() }
            for y in 0..<h { for x in 0..<w { pixels[y * rowBytes + x * 4 + 3] = 255 } }
            let translucent = round % 2 == 0
            if translucent {
                let (x, y) = (rng.below(w), rng.below(h))
                pixels[y * rowBytes + x * 4 + 3] = UInt8(rng.below(255))
            }
            let bitmap = Bitmap(width: w, height: h, rowBytes: rowBytes, premultipliedPixels: pixels)
            #expect(bitmap.isOpaque == !translucent, "\(w)x\(h), round \(round)")
        }
    }
}
