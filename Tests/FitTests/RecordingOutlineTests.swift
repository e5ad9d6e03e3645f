@testable import Fit
import Testing

/// Where a recording's changes start and end.
@Suite("RecordingOutline: a recording as stretches of stillness and of change")
struct RecordingOutlineTests {
    /// Flat pictures whose mean differences from one to the next are `steps`.
    static func pictures(_ steps: [Double]) -> [LumaImage] {
        steps.reduce([20.0]) { $0 + [$0.last! + $1] }.map {
            LumaImage(width: 4, height: 2, pixels: .init(repeating: Float($0), count: 8))
        }
    }

    @Test(
        "A GIF that merged its held frames: each held frame counts as that many still ones, so a spring's last small steps stay in its change"
    )
    func heldFrames() {
        // A sheet dismissed by a spring, as a 30 fps GIF stores it: 0.43 s held, eight moving
        // frames whose steps shrink as the sheet leaves the screen, then 0.84 s held.
        let steps = [9.43, 13.28, 11.45, 9.87, 4.84, 3.18, 1.92, 0.94]
        let starts = [0, 0.43, 0.47, 0.5, 0.53, 0.57, 0.6, 0.63, 0.67]
        let outline = RecordingOutline(pictures: Self.pictures(steps), starts: starts, duration: 1.5)
        #expect(outline.threshold == RecordingOutline.leastChange)
        #expect(outline.changes == [.init(before: 0, after: 8)])
        // The same frames each shown once: the quietest tenth is a moving step, four times it
        // the threshold, and the last steps fall under it.
        let unheld = RecordingOutline(
            pictures: Self.pictures(steps), starts: (0..<9).map { Double($0) / 30 }, duration: 0.3)
        #expect(abs(unheld.threshold - 0.94 * 4) < 1e-4)
        #expect(unheld.changes == [.init(before: 0, after: 5)])
    }

    @Test(
        "A change a slow GIF catches in one frame: the held stills count as the capture's steps, found on its grid, not as the median step (a still's)"
    )
    func caughtOnce() {
        // A fade as a 10 fps GIF stores it: 0.6 s held, one frame halfway, 0.6 s held. Its
        // median step is a still's 0.6 s; its frames start on the 0.1 s grid.
        let outline = RecordingOutline(pictures: Self.pictures([10, 10]), starts: [0, 0.6, 0.7], duration: 1.3)
        #expect(outline.interval == 0.1)
        #expect(outline.threshold == RecordingOutline.leastChange)
        #expect(outline.changes == [.init(before: 0, after: 2)])
    }

    @Test(
        "A slow capture (an 8 fps GIF): frames that move one after the other are one change, a frame long apart; a frame's stillness between parts them"
    )
    func slowCapture() {
        // A push as an 8 fps GIF: 0.75 s held, six moving frames, 0.625 s held; the same with a
        // still frame in the middle of the motion.
        // Two rows 40 levels apart, not one colour (a screen of one colour between is no screen).
        func pictures(_ steps: [Double]) -> [LumaImage] {
            Self.pictures(steps).map { p in
                LumaImage(width: 4, height: 2, pixels: Array(p.pixels.prefix(4)) + p.pixels.suffix(4).map { $0 + 40 })
            }
        }
        let steps = [12.0, 18, 9, 4, 2, 1]
        let starts = [0, 0.75, 0.875, 1, 1.125, 1.25, 1.375]
        let outline = RecordingOutline(pictures: pictures(steps), starts: starts, duration: 2)
        #expect(outline.changes == [.init(before: 0, after: 6)])
        let paused = RecordingOutline(pictures: pictures([12.0, 18, 0, 4, 2, 1]), starts: starts, duration: 2)
        #expect(paused.changes == [.init(before: 0, after: 2), .init(before: 3, after: 6)])
        // At 25 fps, a pair of moving frames with a still one between is a spring's tail's dip,
        // as it was: one change.
        let quick = RecordingOutline(
            pictures: pictures([12.0, 18, 0, 4, 2, 1]), starts: [0, 0.7, 0.74, 0.78, 0.82, 0.86, 0.9], duration: 1.5)
        #expect(quick.changes == [.init(before: 0, after: 6)])
    }

    @Test(
        "A motion that nearly stops and jumps (a pull let go, the row closing at once) is one change with a jump; split there, two"
    )
    func jump() {
        // A pull slowing to a creep, then a 37-level jump and a close that settles: 25 fps, the
        // frames held before and after.
        let steps = [3.1, 29.4, 23.8, 17.9, 12.5, 4.9, 1.3, 1.2, 37.3, 26.9, 14.1, 6.2, 3.9, 1.7, 0.6]
        let starts = [0] + (1...15).map { 1 + Double($0) * 0.04 }
        let outline = RecordingOutline(pictures: Self.pictures(steps), starts: starts, duration: 2)
        #expect(outline.changes == [.init(before: 0, after: 15)])
        #expect(outline.jumps(in: 0) == [8])
        let split = RecordingOutline(pictures: Self.pictures(steps), starts: starts, duration: 2, splits: [8])
        #expect(split.changes == [.init(before: 0, after: 8), .init(before: 8, after: 15)])
        #expect(split.stills.map(\.frame) == [0, 8, 15])
        // A spring's steps shrink and grow by less: no jump.
        let smooth = RecordingOutline(
            pictures: Self.pictures(steps.prefix(8) + [2.4]), starts: Array(starts.prefix(10)), duration: 1.5)
        #expect(smooth.jumps(in: 0).isEmpty)
    }

    @Test(
        "A screen of one colour for a moment between two changes (a reveal's circle covering the screen, then the next fading in) joins them; a screen with anything on it, or one colour held longer, does not"
    )
    func flatScreenBetween() {
        /// Two rows of 4 pixels: `top` and `bottom` levels.
        func picture(_ top: Float, _ bottom: Float) -> LumaImage {
            LumaImage(width: 4, height: 2, pixels: [top, top, top, top, bottom, bottom, bottom, bottom])
        }
        let (first, last) = (picture(240, 60), picture(30, 200))
        func outline(between: LumaImage, held: Double) -> RecordingOutline {
            // 25 fps: the first screen, a frame of motion, the screen between (its second frame
            // held for `held` more), a frame of motion, the last screen.
            let moving1 = picture(180, 120), moving2 = picture(80, 160)
            let starts = [0, 0.04, 0.08, 0.12, 0.16 + held, 0.2 + held]
            return RecordingOutline(
                pictures: [first, moving1, between, between, moving2, last], starts: starts, duration: 0.5 + held)
        }
        let orange = picture(150, 150)
        #expect(outline(between: orange, held: 0.04).changes == [.init(before: 0, after: 5)])
        #expect(RecordingOutline.isFlat(orange) && !RecordingOutline.isFlat(first))
        // A screen with two levels on it, as short: two changes.
        #expect(outline(between: picture(150, 90), held: 0.04).changes.count == 2)
        // One colour, held 0.3 s: a screen of its own.
        #expect(outline(between: orange, held: 0.2).changes.count == 2)
    }
}
