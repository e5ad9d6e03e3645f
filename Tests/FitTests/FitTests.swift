import Geometry
import Codecs
@testable import Fit
import Flipbook
import Foundation
import TestSupport
import Testing

/// Recordings made by rendering a scene with known values, encoded as a 25 fps GIF that starts
/// at an instant the fit is not told; the fit must find the values again.
@Suite("flipbook fit finds known values in synthetic recordings")
struct FitTests {
    /// A 25 fps GIF of `scene` with `set`, starting `start` seconds into the storyboard.
    static func recording(
        _ scene: String, storyboard: String? = nil, set: [String], start: Double, name: String = #function
    ) throws -> FrameSequence {
        let t = try Transition(scene, storyboard: storyboard, set: set, fps: 25)
        let times = Array(stride(from: start, to: t.duration, by: 1.0 / 25))
        let path = (temporaryFolder(name) as NSString).appendingPathComponent("recording.gif")
        let first = t.frame(at: 0).bitmap
        let gif = try GIFEncoder(path: path, width: first.width, height: first.height)
        try t.forEachFrame(at: times) { try gif.add($0.bitmap, at: $0.time - start) }
        _ = try gif.finish(at: Double(times.count) / 25)
        return try FrameSequence.load(path)
    }

    @Test("Noise is no recording of a storyboard: the fit refuses it, saying how little its changes match")
    func noise() throws {
        // 40 frames of 320x568 noise, 40 ms apart, from a fixed generator.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let frames = (0..<40).map { i -> FrameSequence.Frame in
            let bytes = (0..<(320 * 568)).flatMap { _ -> [UInt8] in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let v = UInt8(truncatingIfNeeded: state >> 56)
                return [v, v &+ 85, v &+ 170, 255]
            }
            return FrameSequence.Frame(
                start: Double(i) * 0.04, bitmap: Bitmap(width: 320, height: 568, premultipliedPixels: bytes),
                label: "\(i)")
        }
        let recording = FrameSequence(frames: frames, duration: 1.6)
        #expect {
            try Fitter.fit(FitRequest(scene: "expanding-view", keys: ["expand.duration"]), recording: recording)
        } throws: { error in
            guard case FitError.unexplained(let share) = error else { return false }
            return abs(share) < 0.05 && "\(error)".contains("is it a recording of this storyboard?")
        }
    }

    @Test("Whole frames: an ease-in's duration within 3 %, a hold within a frame, the start within a frame")
    func wholeFrames() throws {
        let recording = try Self.recording(
            "expanding-view", set: ["expand.duration=0.55", "timing.nextHold=0.7"], start: 0.16)
        let request = FitRequest(
            scene: "expanding-view", keys: ["expand.duration", "timing.nextHold"], ranges: ["timing.nextHold": 0...3])
        let result = try Fitter.fit(request, recording: recording)
        let values = Dictionary(uniqueKeysWithValues: result.values.map { ($0.key, $0.after) })
        #expect(abs(values["expand.duration"]! - 0.55) <= 0.55 * 0.03)
        #expect(abs(values["timing.nextHold"]! - 0.7) <= 0.04)
        #expect(abs(result.offsetAfter - 0.16) <= 0.04)
        #expect(result.residuals[0].rmsAfter < result.residuals[0].rmsBefore / 5)
        // Each value's range, where the residual rises by a tenth, holds the truth, and is
        // narrow: the recording pins both down.
        let determined = Dictionary(uniqueKeysWithValues: result.values.map { ($0.key, $0) })
        #expect(
            determined["expand.duration"]!.determined.contains(0.55), "\(determined["expand.duration"]!.determined)")
        #expect(determined["timing.nextHold"]!.determined.contains(0.7), "\(determined["timing.nextHold"]!.determined)")
        #expect(result.values.allSatisfy { !$0.isWeak }, "\(result.values.map(\.determined))")
        // Whole frames compare every instant, the motion's included; the render's changes are
        // the recording's.
        #expect(result.motionInstants > 10 && result.comparedInstants == result.motionInstants)
        #expect((result.explainedMotion ?? 0) > 0.5, "\(result.explainedMotion ?? 0)")
        #expect(result.residuals[0].instants > result.motionInstants)
        #expect(result.assignments.count == 2)
        #expect(result.code.first?.key == "expand")
        #expect(result.code.first?.lines.first?.contains("options: [.curveEaseIn]") == true)

        // The sheet: eight moments, the recording above the render before and after the fit;
        // the rows after the fit are closer to the recording's than the rows before.
        let sheet = try result.sheet(for: request, recording: recording, images: ImageCache())
        let (cellWidth, cellHeight) = (150, 266 + 22)
        #expect(sheet.width == 8 + 8 * (cellWidth + 8) && sheet.height == 8 + 3 * (cellHeight + 8))
        func cell(_ row: Int, _ column: Int) -> Bitmap {
            sheet.cropped(
                to: PixelRect(
                    x: 8 + column * (cellWidth + 8), y: 8 + row * (cellHeight + 8) + 22, width: cellWidth,
                    height: 266))
        }
        let before: [Double] = (0..<8).map { FrameComparison.compare(cell(1, $0), cell(0, $0)).differingFraction }
        let after: [Double] = (0..<8).map { FrameComparison.compare(cell(2, $0), cell(0, $0)).differingFraction }
        let (sumBefore, sumAfter): (Double, Double) = (before.reduce(0, +), after.reduce(0, +))
        #expect(sumAfter < sumBefore / 2, "before \(before), after \(after)")
        // Each row's cells say which row they are: the labels over one moment differ row to row.
        func label(_ row: Int, _ column: Int) -> Bitmap {
            sheet.cropped(
                to: PixelRect(
                    x: 8 + column * (cellWidth + 8), y: 8 + row * (cellHeight + 8), width: cellWidth, height: 22))
        }
        for column in 0..<8 {
            #expect(label(0, column) != label(1, column) && label(1, column) != label(2, column))
        }
    }

    @Test("Fits of one recording share its pass: each answers as it does reading the recording afresh")
    func sharedPass() throws {
        let recording = try Self.recording("expanding-view", set: ["expand.duration=0.55"], start: 0.16)
        let passes = FitPasses()
        let requests = [
            FitRequest(scene: "expanding-view", keys: ["expand.duration"]),
            FitRequest(
                scene: "expanding-view", keys: ["expand.duration", "timing.nextHold"],
                ranges: ["timing.nextHold": 0...3]),
        ]
        for request in requests {
            let shared = try Fitter.fit(request, source: RecordingSource(recording, passes: passes))
            let afresh = try Fitter.fit(request, recording: recording)
            #expect(shared.values.map(\.after) == afresh.values.map(\.after))
            #expect(shared.offsetAfter == afresh.offsetAfter && shared.evaluations == afresh.evaluations)
            #expect(abs(shared.values[0].after - 0.55) <= 0.55 * 0.03)
        }
        #expect(passes.count == 1)
    }

    /// The damping is read from an overshoot of a few points, so the tracker must read the
    /// card within a point wherever the recording's frames fall: two starts half a frame apart.
    @Test(
        "A tracked layer: a UIKit spring's duration and damping within 3 %, at two sampling phases",
        arguments: [0.08, 0.1])
    func trackedSpring(start: Double) throws {
        // Tracking takes the first still stretch as its reference, so the recording starts on
        // the home screen with enough still frames before the press.
        let recording = try Self.recording(
            "app-store-card", set: ["demo.position.duration=0.62", "demo.position.damping=0.6"], start: start)
        let result = try Fitter.fit(
            FitRequest(
                scene: "app-store-card", keys: ["demo.position.duration", "demo.position.damping"],
                track: ["card-1"]), recording: recording)
        let values = Dictionary(uniqueKeysWithValues: result.values.map { ($0.key, $0.after) })
        #expect(abs(values["demo.position.duration"]! - 0.62) <= 0.62 * 0.03)
        #expect(abs(values["demo.position.damping"]! - 0.6) <= 0.6 * 0.03)
        #expect(result.residuals[0].layer == "card-1")
        #expect(result.residuals[0].rmsAfter < result.residuals[0].rmsBefore)
        // Each range holds the truth, and the fit compared at least half of the card's motion.
        let truth = ["demo.position.duration": 0.62, "demo.position.damping": 0.6]
        #expect(
            result.values.allSatisfy { $0.determined.contains(truth[$0.key]!) }, "\(result.values.map(\.determined))")
        #expect(result.comparedInstants * 2 >= result.motionInstants && result.motionInstants > 20)
        #expect(result.code.first?.lines.first?.hasPrefix("UIView.animate(withDuration: 0.6") == true)
    }

    @Test(
        "On whole frames a spring's duration range holds the truth: a 30 fps GIF of expanding-cells' present at 0.8 s"
    )
    func wholeFrameRangeHoldsTheTruth() throws {
        let folder = temporaryFolder()
        var export = ExportRequest(scene: "expanding-cells")
        (export.assignments, export.fps, export.output) = (["present.duration=0.8"], 30, folder + "/rec.gif")
        _ = try export.run()
        let result = try Fitter.fit(
            FitRequest(scene: "expanding-cells", keys: ["present.duration", "present.dampingRatio"]),
            recording: try FrameSequence.load(folder + "/rec.gif"))
        let duration = try #require(result.values.first { $0.key == "present.duration" })
        #expect(abs(duration.after - 0.8) <= 0.8 * 0.03, "\(duration.after)")
        #expect(duration.determined.contains(0.8), "\(duration.determined)")
        // Half of the 30 fps frame, past where the residual rises.
        #expect(abs(duration.frameMargin - 1.0 / 60) < 1e-9)
        let damping = try #require(result.values.first { $0.key == "present.dampingRatio" })
        #expect(damping.determined.contains(1) && damping.frameMargin == 0, "\(damping.determined)")
    }

    @Test("A layer on screen for a tenth of the motion is no answer: the fit says how little it compared")
    func tooLittleCompared() throws {
        let recording = try Self.recording(
            "expanding-cells", storyboard: "transition-preview", set: ["present.duration=0.5"], start: 0)
        let request = FitRequest(
            scene: "expanding-cells", storyboard: "transition-preview", keys: ["present.duration"], track: ["bottom"])
        #expect {
            _ = try Fitter.fit(request, recording: recording)
        } throws: { error in
            guard case FitError.tooFewCompared(let compared, let motion, let layers) = error else { return false }
            return compared * 2 < motion && layers == ["bottom"]
                && "\(error)".contains("instants at which bottom moves on screen, fewer than half")
        }
    }

    @Test("Before and after are scored on the instants both compared, each capped as the search caps it")
    func sameInstants() {
        let before = Problem.Measure(score: 0, offset: 0, errors: [[1, nil, 30, 2]])
        let after = Problem.Measure(score: 0, offset: 0, errors: [[nil, 1, 0.5, 40]])
        let r = Fitter.residuals(before, after, layers: ["card"])[0]
        #expect(r.instants == 2 && r.beyondCap == 1)
        #expect(abs(r.rmsBefore - ((24.0 * 24 + 4) / 2).squareRoot()) < 1e-9)
        #expect(abs(r.rmsAfter - ((0.25 + 24.0 * 24) / 2).squareRoot()) < 1e-9)
        #expect(r.worstBefore == 24 && r.worstAfter == 24)
        // The worse-or-not check scores the same two instants as the residuals: 24 and 2 before,
        // 0.5 and 24 after, the after a little better.
        let (b, a) = Fitter.scoresOnCommonInstants(before, after, tracked: true)
        #expect(abs(b - r.rmsBefore) < 1e-9 && abs(a - r.rmsAfter) < 1e-9 && a < b)
    }

    @Test("A value's range is where the residual stays within its limit; a wide one is weak")
    func determination() {
        let range = Fitter.determinedRange([2, 5], index: 0, bounds: 0...10, limit: 0.01) { p in
            (p[0] - 2) * (p[0] - 2)
        }
        #expect(abs(range.lowerBound - 1.9) < 0.002 && abs(range.upperBound - 2.1) < 0.002, "\(range)")
        #expect(!Fitter.isWeak(range, value: 2, bounds: 0...10))
        // A valley along x = y: alone, x is held within 0.1 of 1; with y following, within 0.5.
        let valley = Fitter.determinedRanges([1, 1], bounds: [-5...5, -5...5], best: 0, rise: 0.01) { p in
            (p[0] - p[1]) * (p[0] - p[1]) + 0.01 * (p[0] + p[1] - 2) * (p[0] + p[1] - 2)
        }
        #expect(abs(valley[0].lowerBound - 0.498) < 0.01 && abs(valley[0].upperBound - 1.502) < 0.01, "\(valley)")
        // A flat residual: the range is the whole search, and weak.
        let flat = Fitter.determinedRange([2, 5], index: 1, bounds: 0...10, limit: 0.01) { _ in 0 }
        #expect(flat == 0...10 && Fitter.isWeak(flat, value: 5, bounds: 0...10))
    }

    @Test("A layer's covered share counts what others draw over it at half opacity or more, not its children")
    func coveredShare() throws {
        let path = (temporaryFolder() as NSString).appendingPathComponent("cover.yaml")
        try """
        version: 1
        name: cover
        summary: a box, half covered, then its cover fades
        settings:
          canvas: {width: 200, height: 200}
        layers:
          box:
            color: "#FF0000"
            frame: [0, 0, 100, 100]
            children:
              dot: {color: "#000000", frame: [0, 0, 100, 100]}
          cover: {color: "#0000FF", frame: [50, 0, 100, 100]}
          faint: {color: "#00FF00", frame: [0, 50, 100, 100], alpha: 0.4}
        storyboards:
          main:
            - hold: 1
            - animate: linear(1)
              cover.alpha: 0.2
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let t = try Transition(path)
        #expect(abs(t.coveredShare(ofLayer: "box", at: 0.5) - 0.5) < 1e-9)
        #expect(t.coveredShare(ofLayer: "box", at: 2) == 0)
        #expect(t.coveredShare(ofLayer: "cover", at: 0.5) == 0)
        #expect(t.coveredShare(ofLayer: "nothing", at: 0.5) == 0)
    }

    @Test("The fit sheet's eight moments are spread over the recording's motion, not its holds")
    func sheetMoments() {
        // 60 frames: still, then a black square moving for frames 41-48, then still.
        let frames = (0..<60).map { i -> FrameSequence.Frame in
            var b = Bitmap(width: 48, height: 48)
            let x = 4 + 4 * min(max(i - 40, 0), 8)
            for y in 10..<20 { for dx in 0..<6 { b[x + dx, y] = PremultipliedColor(r: 0, g: 0, b: 0, a: 255) } }
            return FrameSequence.Frame(start: Double(i) / 25, bitmap: b, label: "\(i)")
        }
        let thumbnails = frames.map { LumaImage($0.bitmap, width: 48, height: 48) }
        let picks = FitResult.sheetMoments(thumbnails)
        #expect(picks.count == 8 && picks.allSatisfy { (39...48).contains($0) }, "\(picks)")
        // With too little motion for eight cells, the whole recording is spread.
        let still = FitResult.sheetMoments(Array(thumbnails.prefix(20)))
        #expect(still == [0, 2, 5, 8, 10, 13, 16, 19])
    }

    @Test("A recording stored at 3 cs or 2 cs a frame is suspected of a 30 or 60 fps capture; 4 cs is not")
    func captureRate() {
        func recording(step: Double, holdAt: Int? = nil) -> FrameSequence {
            var t = 0.0
            let frames = (0..<20).map { i -> FrameSequence.Frame in
                defer { t += i == holdAt ? 0.5 : step }
                return FrameSequence.Frame(start: t, bitmap: Bitmap(width: 1, height: 1), label: "\(i)")
            }
            return FrameSequence(frames: frames, duration: t)
        }
        let thirty = CaptureRate.suspected(in: recording(step: 0.03, holdAt: 5))
        #expect(thirty == CaptureRate(stored: 0.03, likely: 1.0 / 30))
        #expect(abs(thirty!.playsFast - 0.1111) < 0.001)
        #expect(CaptureRate.suspected(in: recording(step: 0.02))?.likely == 1.0 / 60)
        #expect(CaptureRate.suspected(in: recording(step: 0.04)) == nil)
        #expect(CaptureRate.suspected(in: recording(step: 1.0 / 30)) == nil)
    }

    @Test(
        "A capture's step: 30 fps stored 3, 3, 4 cs apart is 1/30 s, holds and all; 4 cs is 0.04; 3 cs throughout is 0.03",
        arguments: [
            ([0, 3, 7, 10, 13, 17, 20, 40, 43, 47], 1.0 / 30), ([0, 4, 8, 12, 52, 56], 0.04),
            ([0, 3, 6, 9, 12, 15], 0.03), ([0, 100], 1.0),
        ])
    func captureStep(centiseconds: [Int], step: Double) {
        let starts = centiseconds.map { Double($0) / 100 }
        let steps = zip(starts, starts.dropFirst()).map { $1 - $0 }.sorted()
        #expect(abs(CaptureRate.step(starts: starts, median: steps[steps.count / 2]) - step) < 1e-9)
    }

    @Test("A frame interval scales the stored times: a held frame keeps its length in frames")
    func retimed() {
        let frames = [0.0, 0.03, 0.06, 0.36, 0.39].enumerated().map {
            FrameSequence.Frame(start: $1, bitmap: Bitmap(width: 1, height: 1), label: "\($0)")
        }
        let stored = FrameSequence(frames: frames, duration: 0.42)
        let real = stored.retimed(frameInterval: 1.0 / 30)
        let expected = [0.0, 1, 2, 12, 13].map { $0 / 30 }
        #expect(
            zip(real.frames.map(\.start), expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(real.frames.map(\.start))")
        #expect(abs(real.duration - 14.0 / 30) < 1e-9)
        #expect(stored.retimed(frameInterval: nil).frames.map(\.start) == stored.frames.map(\.start))
    }

    @Test("A tracked layer's look moves with its content: contentBounds is its bounds moved up by the scroll")
    func contentBoundsFollowTheScroll() throws {
        let t = try Transition("app-store-card", fps: 25)
        var deepest = 0.0
        for i in 0...Int(t.duration * 200) {
            let time = Double(i) / 200
            let b = try #require(t.bounds(ofLayer: "card-1", at: time))
            let c = try #require(t.contentBounds(ofLayer: "card-1", at: time))
            #expect(c.x == b.x && c.width == b.width && c.height == b.height)
            deepest = max(deepest, b.y - c.y)
        }
        // The peek scroll's 17.5 pt, with the card at the screen's width (a point a point).
        #expect(abs(deepest - 17.5) < 0.05, "\(deepest)")
        #expect(t.contentBounds(ofLayer: "nothing", at: 0) == nil)
    }

    @Test("Bad requests are errors that name the key, the layer or the recording")
    func refusals() throws {
        let recording = try Self.recording("expanding-view", set: [], start: 0)
        func error(_ request: FitRequest, _ frames: FrameSequence? = nil) -> String {
            do {
                _ = try Fitter.fit(request, recording: frames ?? recording)
                return "no error"
            } catch { return "\(error)" }
        }
        #expect(error(FitRequest(scene: "expanding-view", keys: ["expand.speed"])).contains("keys expand.speed"))
        #expect(error(FitRequest(scene: "expanding-view", keys: ["nothing"])).contains("declares no such param"))
        #expect(error(FitRequest(scene: "expanding-view", keys: ["buttonColor"])).contains("a color, not a number"))
        // An animation's parts: a typo is told the nearest, a spring's part of a Bézier is told
        // the Bézier's one number, and a curve that reads none of them says so.
        let bezier = "runs the curve easeIn, not UIKit's spring"
        let springParts = "present.duration, present.dampingRatio, present.velocity"
        for (scene, key, message) in [
            ("expanding-view", "expand", "expand \(bezier); fit expand.duration"),
            ("expanding-cells", "present", "present is UIKit's spring; fit \(springParts)"),
            (
                "expanding-view", "expand.duraton",
                "expand \(bezier); did you mean expand.duration? its numbers to fit: expand.duration"
            ),
            ("expanding-view", "expand.dampingRatio", "expand \(bezier); its numbers to fit: expand.duration"),
            (
                "expanding-cells", "present.velocty",
                "present is UIKit's spring; did you mean present.velocity? its numbers to fit: \(springParts)"
            ),
            ("expanding-view", "expand.curve", "it is the curve spec of an animation, not a number to fit"),
            (
                "expanding-view", "close.duration",
                "close runs the curve system, not UIKit's spring, and that curve reads none of its numbers (duration, dampingRatio, velocity); set close.curve to one that does (spring, or a named curve such as easeIn) to fit them"
            ),
        ] {
            #expect(error(FitRequest(scene: scene, keys: [key])) == "keys \(key): \(message)")
        }
        #expect(
            error(FitRequest(scene: "expanding-view", keys: ["timing.restHold"])).contains("ranges timing.restHold"))
        // A number the storyboard does not read is found to change nothing.
        let unread = FitRequest(
            scene: "expanding-view", storyboard: "transition-1", keys: ["timing.restHold"],
            ranges: ["timing.restHold": 0.2...1.5])
        #expect(
            error(unread)
                == "keys timing.restHold: changing it changes nothing in this storyboard (a param it does not read)")
        #expect(
            error(FitRequest(scene: "expanding-view", keys: ["expand.duration"], track: ["nope"])).contains(
                "track nope: no such layer"))
        // The CLI spells the request's parts as its flags.
        let spelled = FitError.rangeForUnfittedKey("a", fitted: ["b", "c"]).message { "--\($0.rawValue)" }
        #expect(spelled == "--range a: not a key being fitted (--fit b,c)")
        let still = FrameSequence(frames: Array(recording.frames.prefix(1)), duration: 1)
        #expect(error(FitRequest(scene: "expanding-view", keys: ["expand.duration"]), still).contains("1 frame"))
        let held = FrameSequence(frames: [recording.frames[0], recording.frames[0]], duration: 1)
        #expect(error(FitRequest(scene: "expanding-view", keys: ["expand.duration"]), held).contains("nothing moves"))
    }
}
