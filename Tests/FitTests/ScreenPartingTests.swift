import Testing

@testable import Fit

@Suite("ScreenParting: the row a screen parts at, from one moving frame")
struct ScreenPartingTests {
    /// A screen of striped rows, each row its own pattern: no two rows alike.
    static func screen(width: Int, height: Int) -> LumaImage {
        var pixels = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { pixels[y * width + x] = Float((x * (3 + y % 7) + y * 13) % 200) + 20 }
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    @Test("Rows above ride up and rows below ride down by their shares: the row's top and bottom")
    func parted() throws {
        let (w, h) = (60, 300)
        let still = Self.screen(width: w, height: h)
        let (top, bottom) = (100, 140)
        // 40% of the way: the rows above up by 40, the rows below down by 64; between them a
        // flat grey opening.
        let (up, down) = (40, 64)
        var moving = [Float](repeating: 128, count: w * h)
        for y in 0..<h {
            let source: Int? =
                y < top - up ? y + up : y >= bottom + down ? y - down : nil
            guard let source else { continue }
            for x in 0..<w { moving[y * w + x] = still.pixels[source * w + x] }
        }
        let found = try #require(
            ScreenParting.find(still: still, moving: LumaImage(width: w, height: h, pixels: moving)))
        // Every row has texture: the 60 rows above that still show bear it out, and more below.
        #expect(found == ScreenParting(up: up, down: down, top: Double(top), bottom: Double(bottom), evidence: 60))
        #expect(found.bar == 0)
    }

    @Test("A bar at the top that slides up under the top edge as the row opens: its height")
    func bar() throws {
        let (w, h) = (60, 300)
        let still = Self.screen(width: w, height: h)
        let (top, bottom, bar) = (100, 140, 30)
        // Half open: the rows above up by 50, the rows below down by 80, and the bar's bottom
        // half showing at the top (drawn from its bottom edge).
        let (up, down) = (50, 80)
        var moving = [Float](repeating: 128, count: w * h)
        for y in 0..<h {
            let source: Int? =
                y < bar / 2 ? y + bar / 2 : y < top - up ? y + up : y >= bottom + down ? y - down : nil
            guard let source else { continue }
            for x in 0..<w { moving[y * w + x] = still.pixels[source * w + x] }
        }
        let found = try #require(
            ScreenParting.find(still: still, moving: LumaImage(width: w, height: h, pixels: moving)))
        #expect((found.top, found.bottom, found.bar) == (Double(top), Double(bottom), Double(bar)), "\(found)")
    }

    @Test("A frame that is the still shifted one way only parts nowhere")
    func oneWay() {
        let (w, h) = (60, 300)
        let still = Self.screen(width: w, height: h)
        var moving = [Float](repeating: 128, count: w * h)
        for y in 0..<(h - 30) { for x in 0..<w { moving[y * w + x] = still.pixels[(y + 30) * w + x] } }
        #expect(ScreenParting.find(still: still, moving: LumaImage(width: w, height: h, pixels: moving)) == nil)
    }
}
