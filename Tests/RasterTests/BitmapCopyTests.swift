import Geometry
import Raster
import Testing
import TestSupport

@Suite("Bitmap views: copying a rect from another bitmap")
struct BitmapCopyTests {
    @Test(
        "A copy sets exactly the rect's pixels, clamped to the view, whole rows or not",
        arguments: [
            PixelRect(x: 0, y: 3, width: 17, height: 5),  // whole rows: one block
            PixelRect(x: 4, y: 2, width: 6, height: 7),  // part rows
            PixelRect(x: -3, y: 9, width: 40, height: 30),  // clamped to the view
            PixelRect(x: 5, y: 5, width: 0, height: 4),  // empty
        ])
    func copiesTheRect(rect: PixelRect) {
        var rng = SeededRandom(seed: 77)
        let source = rng.bitmap(width: 17, height: 13, opaque: false)
        let before = rng.bitmap(width: 17, height: 13, opaque: true)
        var target = before
        target.withView { $0.copy(rect, from: source) }
        let inside = rect.intersection(target.bounds)
        for y in 0..<13 {
            for x in 0..<17 {
                let expected = inside.contains(PixelRect(x: x, y: y, width: 1, height: 1)) ? source[x, y] : before[x, y]
                #expect(target[x, y] == expected, "(\(x), \(y)) for \(rect)")
            }
        }
    }

    @Test("Bitmaps are equal when their pixels are, whatever lies past each row's last pixel")
    func equalityIsThePixels() {
        var rng = SeededRandom(seed: 5)
        let a = rng.bitmap(width: 5, height: 3, opaque: false)
        var padded: [UInt8] = []
        for y in 0..<3 { padded += a.pixels[(y * 20)..<(y * 20 + 20)] + [UInt8](repeating: UInt8(y + 1), count: 12) }
        let b = Bitmap(width: 5, height: 3, rowBytes: 32, premultipliedPixels: padded)
        var c = b
        c[4, 2] = PremultipliedColor(r: 1, g: 2, b: 3, a: 4)
        #expect(a == b && b == a)
        #expect(a != c && c != b)
        #expect(a != Bitmap(width: 3, height: 5, premultipliedPixels: a.pixels))
    }
}
