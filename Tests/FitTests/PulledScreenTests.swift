import Testing

@testable import Fit

@Suite("PulledScreen: a screen pulled down under a bar, and that bar's own height")
struct PulledScreenTests {
    /// `screen`'s content moved down `gap` rows, under a bar of `bar` rows drawn from the gap's
    /// bottom over flat blue (`next`'s top rows, where given), its first rows a status bar.
    static func pulled(_ screen: LumaImage, gap: Int, bar: (rows: Int, of: LumaImage)? = nil) -> LumaImage {
        let (w, h) = (screen.width, screen.height)
        var pixels = [Float](repeating: 90, count: w * h)
        for y in 0..<h {
            let source: (LumaImage, Int)? =
                y >= gap ? (screen, y - gap) : bar.flatMap { y >= gap - $0.rows ? ($0.of, y - gap + $0.rows) : nil }
            guard let (image, row) = source else { continue }
            for x in 0..<w { pixels[y * w + x] = image.pixels[row * w + x] }
        }
        return LumaImage(width: w, height: h, pixels: pixels)
    }

    @Test("A screen's content moved down under a flat bar: how far, as a codec breaks the odd row")
    func gap() throws {
        let screen = ScreenPartingTests.screen(width: 60, height: 300)
        var pulled = Self.pulled(screen, gap: 70)
        // Every tenth row broken, as a GIF's palette breaks rows of text.
        for y in stride(from: 75, to: 300, by: 10) { for x in 0..<60 { pulled.pixels[y * 60 + x] += 40 } }
        #expect(PulledScreen.gap(pulled: pulled, screen: screen) == 70)
        // Unmoved, or another screen, it is no pull.
        #expect(PulledScreen.gap(pulled: screen, screen: screen) == nil)
        let other = LumaImage(width: 60, height: 300, pixels: screen.pixels.reversed())
        #expect(PulledScreen.gap(pulled: other, screen: screen) == nil)
    }

    @Test("The next screen's bar is the pulled gap's last rows: its height")
    func bar() throws {
        let screen = ScreenPartingTests.screen(width: 60, height: 300)
        let next = LumaImage(width: 60, height: 300, pixels: screen.pixels.reversed())
        let pulled = Self.pulled(screen, gap: 90, bar: (32, next))
        #expect(PulledScreen.gap(pulled: pulled, screen: screen) == 90)
        #expect(PulledScreen.bar(pulled: pulled, gap: 90, next: next) == 32)
        // Over a flat gap, no bar's rows show.
        #expect(PulledScreen.bar(pulled: Self.pulled(screen, gap: 90), gap: 90, next: next) == nil)
    }
}
