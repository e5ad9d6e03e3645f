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
    static func scene(in folder: String, start: Double, drag: (Double, Double)) throws -> String {
        func screen(band y: Int, _ color: (UInt8, UInt8, UInt8)) -> Bitmap {
            var bytes = [UInt8](repeating: 255, count: 100 * 200 * 4)
            for row in y..<(y + 20) {
                for x in 0..<100 {
                    (bytes[(row * 100 + x) * 4], bytes[(row * 100 + x) * 4 + 1], bytes[(row * 100 + x) * 4 + 2]) = color
                }
            }
            return Bitmap(width: 100, height: 200, premultipliedPixels: bytes)
        }
        try screen(band: 40, (255, 0, 0)).writePNG(to: folder + "/screen-1.png")
        try screen(band: 120, (0, 0, 255)).writePNG(to: folder + "/screen-2.png")
        var dismiss = MadeChange(
            kind: .dismiss, from: 1, to: 2, start: start, curve: .bezier("linear", duration: 0.5), seconds: 0...1)
        (dismiss.drag, dismiss.numbers["Dim"]) = (drag, 0)
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
        // Shown a refresh late, where the finger was as it touched: an animation would show
        // 0.033 s of easeOut in already, 16 points down.
        #expect(band(0.2 + latency) == 40)
        // It trails the finger: it has moved, by less than the finger's part.
        let early = try #require(band(0.3))
        #expect(early > 50 && early < 140, "\(early)")
        // The finger lifts at 0.5 s, half the way down (100 points); the frame then shows it
        // nearly there, from a refresh before.
        let lifting = try #require(band(0.5))
        #expect(lifting >= 136 && lifting <= 140, "\(lifting)")
        // The curve starts from the finger's place (140), shown two refreshes into its 0.5 s
        // for the other 100 points.
        #expect(band(0.5 + latency) == 147)
        // The curve then takes it the rest of the way, off the bottom.
        #expect(band(1.2) == nil)
    }
}
