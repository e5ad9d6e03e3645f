import Foundation
import Testing

@testable import Fit

@Suite("PanelTop: where a panel starts over a screen dimmed above it, and where the other screen shows it")
struct PanelTopTests {
    static let (width, height) = (80, 160)

    /// A screen of rows no two alike: `seed` picks which.
    static func screen(seed: UInt64) -> LumaImage {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let pixels = (0..<(width * height)).map { _ -> Float in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(60 + (state >> 33) % 180)
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    /// `backdrop` dimmed by `dim`, with `panel`'s rows from its top drawn from row `top` down.
    static func sheet(over backdrop: LumaImage, dim: Float, panel: LumaImage, top: Int) -> LumaImage {
        var out = backdrop
        for i in out.pixels.indices { out.pixels[i] *= 1 - dim }
        for y in top..<height {
            for x in 0..<width { out.pixels[y * width + x] = panel.pixels[(y - top) * width + x] }
        }
        return out
    }

    @Test("A sheet from 60 % of the height over a screen dimmed by 0.3: its top and the dimming")
    func sheet() {
        let backdrop = Self.screen(seed: 0), content = Self.screen(seed: 40)
        let shown = Self.sheet(over: backdrop, dim: 0.3, panel: content, top: 96)
        let found = PanelTop.find(panel: shown, backdrop: backdrop)
        #expect(found?.top == 96)
        #expect(abs((found?.dim ?? 0) - 0.3) < 0.01, "\(String(describing: found))")
        // Undimmed, a sheet whose rows differ is found as well.
        #expect(
            PanelTop.find(panel: Self.sheet(over: backdrop, dim: 0, panel: content, top: 96), backdrop: backdrop)?.top
                == 96)
    }

    @Test("Two screens alike, two unalike from the top down, and a strip a few rows tall show no panel")
    func none() {
        let backdrop = Self.screen(seed: 0), other = Self.screen(seed: 40)
        #expect(PanelTop.find(panel: backdrop, backdrop: backdrop) == nil)
        #expect(PanelTop.find(panel: other, backdrop: backdrop) == nil)
        #expect(
            PanelTop.find(panel: Self.sheet(over: backdrop, dim: 0, panel: other, top: 152), backdrop: backdrop) == nil)
    }

    @Test("A panel the other screen shows 40 rows lower: that travel; one off its bottom: none")
    func travel() {
        let backdrop = Self.screen(seed: 0), content = Self.screen(seed: 40)
        let raised = Self.sheet(over: backdrop, dim: 0.3, panel: content, top: 60)
        let peeking = Self.sheet(over: backdrop, dim: 0, panel: content, top: 100)
        #expect(PanelTop.find(panel: raised, backdrop: peeking)?.top == 60)
        #expect(PanelTop.travel(panel: raised, other: peeking, top: 60) == 40)
        #expect(PanelTop.travel(panel: raised, other: backdrop, top: 60) == nil)
    }
}
