import Flipbook
import Foundation
import TestSupport
import Testing

@testable import Fit

/// What a made scene's screens are drawn from while it is fitted and checked.
@Suite("BoxFilter: a screen made small as the recording's frames are, for the fit's renders")
struct BoxFilterTests {
    @Test("Random pictures and sizes: its LumaImage at that size is the original's, within a channel's rounding")
    func sameGreys() {
        var rng = SeededRandom(seed: 61)
        for round in 0..<200 {
            let w = 1 + rng.below(60), h = 1 + rng.below(60), rowBytes = w * 4 + 4 * rng.below(3)
            let opaque = round % 2 == 0
            let bitmap = Bitmap(
                width: w, height: h, rowBytes: rowBytes,
                premultipliedPixels: (0..<(rowBytes * h)).map { i in
                    opaque && i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: rng.next())
                })
            let (ow, oh) = (1 + rng.below(w), 1 + rng.below(h))
            let small = bitmap.boxFiltered(width: ow, height: oh)
            #expect(small.width == ow && small.height == oh)
            let ours = LumaImage(small, width: ow, height: oh).pixels
            let theirs = LumaImage(bitmap, width: ow, height: oh).pixels
            // Each channel is rounded to a whole level: half a level, and alpha's half again.
            let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= (opaque ? 0.5 : 1.0) + 1e-4, "round \(round): \(w)x\(h) to \(ow)x\(oh): \(worst)")
        }
    }

    @Test(
        "A screen at the fit's width: drawn from its copy box-filtered to twice that, within a level of the recording's greys; drawn from itself, its text several levels off"
    )
    func screenAtFitWidth() throws {
        let assets = (SceneMakingTests.recordings as NSString).appendingPathComponent("../../Assets")
        // A screen of text as a 300-pixel capture shows it (expanding-view's promos), and a
        // list at 1x (nav-push's): a quarter of their width and less, not a whole fraction.
        for (name, width, aliased) in [
            ("expanding-view/next.png", 300, 3.5...4.5), ("examples/nav-push/settings.png", 375, 1.2...1.8),
        ] {
            let image = try Bitmap(png: assets + "/" + name)
            let screen = image.boxFiltered(width: width, height: width * image.height / image.width)
            let small = SceneMaker.compared(screen)
            #expect(
                small.width == 2 * SceneMaker.outlineWidth && small.height == 2 * 142, "\(small.width)x\(small.height)")
            let recorded = LumaImage(screen, width: SceneMaker.outlineWidth, height: 142)
            let drawn = recorded.meanDifference(small.resized(width: SceneMaker.outlineWidth, height: 142))
            let sampled = recorded.meanDifference(screen.resized(width: SceneMaker.outlineWidth, height: 142))
            #expect(drawn < 0.8, "\(name): \(drawn)")
            #expect(aliased.contains(sampled), "\(name): \(sampled)")
        }
    }
}
