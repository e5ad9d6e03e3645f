import Flipbook
import Foundation
import TestSupport
import Testing

@testable import Fit

/// A made scene's change that starts while the one before still settles: UIKit does not wait
/// for a spring's last fraction of a point, and neither does the made storyboard.
@Suite("A made scene's next change starts on time while the change before still settles")
struct SettlingChangeTests {
    /// A 100 x 200 point scene: a sheet (a red band at y 40-60) dismissed down over 0.5 s from
    /// 0.2 s, linearly, and a cut back to it at `cut` seconds.
    static func scene(in folder: String, cut: Double) throws -> String {
        let text = try BandScreen.dismissedThenBack(
            start: 0.2, duration: 0.5, cut: cut, length: 1.5, name: "settling", in: folder)
        try text.text.write(toFile: folder + "/settling.yaml", atomically: true, encoding: .utf8)
        return folder + "/settling.yaml"
    }

    /// The colour of the pixel in the middle column at `y` of `transition`'s frame at `t`.
    static func color(_ transition: Transition, _ t: Double, y: Int) -> (UInt8, UInt8, UInt8) {
        let p = transition.frame(at: t)[50, y]
        return (p.r, p.g, p.b)
    }

    @Test(
        "Cut in before the dismissal ends, the next screen shows at the cut's own time, the rest held from the curve's start"
    )
    func startsOnTime() throws {
        let path = try Self.scene(in: temporaryFolder(), cut: 0.6)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("    - parallel:\n      - {animate: dismiss"), "\(text)")
        #expect(text.contains("      - sequence:\n        - hold: timing.before2\n        - set: {"), "\(text)")
        #expect(
            text.contains(
                "before2: {seconds: 0.4, doc: \"from when the change before's curve starts (it still settles as this change starts)\"}"
            ), "\(text)")
        #expect(text.contains("        - hold: timing.end"))
        let transition = try Transition(path)
        #expect(abs(transition.duration - 1.5) < 1e-9)
        let latency = 2.0 / 60
        // Shown two refreshes after 0.5 s, two thirds of the way down (an animation shows that
        // far into itself: the red band 133 points lower), over screen 2's blue band: the cut
        // not yet shown.
        let red = (0..<200).first { Self.color(transition, 0.5 + latency, y: $0) == (255, 0, 0) }
        #expect(red == 174)
        #expect(Self.color(transition, 0.5 + latency, y: 125) == (0, 0, 255))
        // The cut shows at 0.6 s, not when the dismissal's 0.5 s would end (0.7): screen 1's
        // band is where it started.
        #expect(Self.color(transition, 0.6 + latency + 0.001, y: 45) == (255, 0, 0))
        #expect(Self.color(transition, 0.6 + latency + 0.001, y: 125) == (255, 255, 255))
        #expect(Self.color(transition, 0.6 + latency - 0.001, y: 45) != (255, 0, 0))
    }

    @Test("A change that starts after the one before ends is written as before: one step after another")
    func sequentialAsBefore() throws {
        let text = try String(contentsOfFile: Self.scene(in: temporaryFolder(), cut: 0.9), encoding: .utf8)
        #expect(!text.contains("parallel"))
        #expect(text.contains("before2: {seconds: 0.2, doc: \"screen 2 before the next change\"}"), "\(text)")
        #expect(text.contains("\n    - hold: timing.before2\n"))
    }
}
