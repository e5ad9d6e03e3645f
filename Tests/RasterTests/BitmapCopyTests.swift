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
}
