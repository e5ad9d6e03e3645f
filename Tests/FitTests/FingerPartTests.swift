import Flipbook
import Foundation
import TestSupport
import Testing

@testable import Fit

/// A made scene's finger-led change: the finger's part is a `drag` step, which moves the screen
/// as UIKit shows a finger's, before the curve it lets go into.
@Suite("A made scene's finger's part: a drag the screen follows from the refresh it reads it")
struct FingerPartTests {
    /// A 100 x 200 point scene of a sheet (a red band at y 40-60) dismissed down, its finger's
    /// part `drag` (seconds, progress) from `start`, then 0.5 s linearly.
    static func scene(
        in folder: String, start: Double, drag: (Double, Double), path: [(time: Double, progress: Double)]? = nil
    ) throws -> String {
        try BandScreen.bitmap(band: 40, (255, 0, 0)).writePNG(to: folder + "/screen-1.png")
        try BandScreen.bitmap(band: 120, (0, 0, 255)).writePNG(to: folder + "/screen-2.png")
        var dismiss = MadeChange(
            kind: .dismiss, from: 1, to: 2, start: start, curve: .bezier("linear", duration: 0.5), seconds: 0...1)
        (dismiss.drag, dismiss.numbers["Dim"], dismiss.fingerPath) = (drag, 0, path)
        let text = MadeSceneText(
            name: "finger", summary: "a sheet pulled down, then let go", canvas: (100, 200), scale: 1, fps: 60,
            screens: [("screen-1.png", 0), ("screen-2.png", 1)], changes: [dismiss], length: start + 1.5,
            header: [])
        try text.text.write(toFile: folder + "/finger.yaml", atomically: true, encoding: .utf8)
        return folder + "/finger.yaml"
    }

    @Test(
        "The sheet starts down with the finger without a jump, is where the finger takes it as it lifts, and the curve takes it from there"
    )
    func followsFinger() throws {
        let path = try Self.scene(in: temporaryFolder(), start: 0.2, drag: (0.3, 0.5))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("- {drag: {from: screen.center"))
        let transition = try Transition(path)
        /// The red band's top in the middle column, in pixels.
        func band(_ t: Double) -> Int? {
            let frame = transition.frame(at: t)
            return (0..<200).first { y in
                let p = frame[50, y]
                return p.r == 255 && p.g == 0 && p.b == 0
            }
        }
        // Two refreshes at 60 Hz: a change shows that late (the planner's presentation latency).
        let latency = 2.0 / 60
        #expect(band(0.1) == 40)
        // Two refreshes on, where the finger was as it touched: an animation would show its
        // easeOut already two refreshes in, some points down.
        #expect(band(0.2 + latency) == 40)
        // It trails the finger: it has moved, by less than the finger's part.
        let early = try #require(band(0.3))
        #expect(early > 50 && early < 140, "\(early)")
        // The finger lifts at 0.5 s, half the way down (100 points); the frame then shows it
        // nearly there, where the finger was two refreshes before.
        let lifting = try #require(band(0.5))
        #expect(lifting >= 136 && lifting <= 140, "\(lifting)")
        // The curve starts from the finger's place (140), shown two refreshes into its 0.5 s
        // for the other 100 points.
        #expect(band(0.5 + latency) == 147)
        // The curve then takes it the rest of the way, off the bottom.
        #expect(band(1.2) == nil)
    }

    @Test(
        "Along the finger's own path, the sheet is where each point of it puts it, straight between, and its params still stretch it whole"
    )
    func followsPath() throws {
        // A fifth of the way down in the part's first half, the rest in its second.
        let path = try Self.scene(in: temporaryFolder(), start: 0.2, drag: (0.3, 0.5), path: [(0.5, 0.2), (1, 1)])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text.contains(
                "moves: [{by: \"point(0, canvas.height * dismissProgress * 0.2)\", over: \"dismissDrag * 0.5\", easing: linear}, {by: \"point(0, canvas.height * dismissProgress * 0.8)\", over: \"dismissDrag * 0.5\", easing: linear}]"
            ), "\(text)")
        #expect(!text.contains("easeOut"), "\(text)")
        func band(_ t: Double, set: [String] = []) -> Int? {
            let frame = try? Transition(path, set: set).frame(at: t)
            guard let frame else { return nil }
            return (0..<200).first { y in
                let p = frame[50, y]
                return p.r == 255 && p.g == 0 && p.b == 0
            }
        }
        let latency = 2.0 / 60
        // Half the part in (0.15 s), a fifth of its 100 points: 20 down; a quarter in, 10.
        #expect(band(0.2 + latency + 0.15) == 60)
        #expect(band(0.2 + latency + 0.075) == 50)
        // Three quarters in, half way between a fifth and the whole: 60 down.
        #expect(band(0.2 + latency + 0.225) == 100)
        // A refresh before it lifts, 0.13 s into the second half: 91 points down.
        let lifting = try #require(band(0.2 + latency + 0.3 - 1.0 / 60))
        #expect(lifting >= 130 && lifting <= 132, "\(lifting)")
        // The finger's seconds doubled, the path is too: half of 0.6 s in, 20 down.
        #expect(band(0.2 + latency + 0.3, set: ["dismissDrag=0.6"]) == 60)
    }

    @Test("A finger's path keeps the points a straight line between others passes far from, and its ends")
    func pathSimplified() {
        let line = (0...10).map { (time: Double($0) / 10, progress: Double($0) / 10) }
        #expect(ChangeFit.simplified(line, tolerance: 0.01).map(\.time) == [0, 1])
        // Fast, then slow: the knee stays; a wobble under the tolerance does not.
        var knee = (0...10).map { i -> (time: Double, progress: Double) in
            let t = Double(i) / 10
            return (t, t <= 0.3 ? t * 2 : 0.6 + (t - 0.3) * 0.4 / 0.7)
        }
        knee[6].progress += 0.003
        #expect(ChangeFit.simplified(knee, tolerance: 0.01).map(\.time) == [0, 0.3, 1])
    }

    /// A 100 x 200 point scene of a pop: the top screen (a red stripe at x 10-20) slides right
    /// after a finger takes it half way in 0.3 s from 0.2 s, then UIKit's system spring started
    /// at `velocity`.
    static func pop(in folder: String, velocity: Double) throws -> String {
        var bytes = [UInt8](repeating: 255, count: 100 * 200 * 4)
        for y in 0..<200 { for x in 10..<20 { (bytes[(y * 100 + x) * 4 + 1], bytes[(y * 100 + x) * 4 + 2]) = (0, 0) } }
        try Bitmap(width: 100, height: 200, premultipliedPixels: bytes).writePNG(to: folder + "/screen-1.png")
        try Bitmap(width: 100, height: 200, premultipliedPixels: [UInt8](repeating: 255, count: 100 * 200 * 4))
            .writePNG(to: folder + "/screen-2.png")
        var pop = MadeChange(
            kind: .pop, from: 1, to: 2, start: 0.2, curve: .launched(velocity: velocity), seconds: 0...1)
        (pop.drag, pop.numbers["Dim"], pop.numbers["Parallax"]) = ((0.3, 0.5), 0, 0)
        let text = MadeSceneText(
            name: "pop", summary: "a pop let go", canvas: (100, 200), scale: 1, fps: 60,
            screens: [("screen-1.png", 0), ("screen-2.png", 1)], changes: [pop], length: 1.5, header: [])
        try text.text.write(toFile: folder + "/pop.yaml", atomically: true, encoding: .utf8)
        return folder + "/pop.yaml"
    }

    @Test(
        "A pop let go into UIKit's system spring at the finger's speed: its speed is a number beside the system spring's param, and a faster one is further along"
    )
    func launched() throws {
        let fast = try Self.pop(in: temporaryFolder(), velocity: 4)
        let text = try String(contentsOfFile: fast, encoding: .utf8)
        #expect(text.contains("  pop: {animation: {curve: system}"))
        #expect(text.contains("  popVelocity: {number: 4, range: [0, 20]"))
        #expect(text.contains("- {animate: \"withVelocity(pop, popVelocity)\", "))
        /// The red stripe's left edge in the middle row, in pixels.
        func stripe(_ transition: Transition, _ t: Double) -> Int? {
            let frame = transition.frame(at: t)
            return (0..<100).first { x in frame[x, 100].g == 0 }
        }
        let (launched, still) = (try Transition(fast), try Transition(Self.pop(in: temporaryFolder(), velocity: 0)))
        // The same until the finger lifts, half the way (50 points) right.
        #expect(stripe(launched, 0.5) == stripe(still, 0.5))
        let lifted = try #require(stripe(launched, 0.5))
        #expect(lifted >= 55 && lifted <= 60, "\(lifted)")
        // A tenth of a second later the launched one is further along.
        let (a, b) = (stripe(launched, 0.6) ?? 100, stripe(still, 0.6) ?? 100)
        #expect(a > b, "\(a) \(b)")
    }
}
