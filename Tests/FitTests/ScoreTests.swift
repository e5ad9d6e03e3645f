@testable import Fit
import Flipbook
import Foundation
import TestSupport
import Testing

/// `flipbook score`: features followed in a recording and a render, and their errors and lags.
@Suite("flipbook score follows features in a recording and in the render")
struct ScoreTests {
    static let assets = (#filePath as NSString).deletingLastPathComponent + "/../../Assets"

    /// The storyboard rendered at 25 fps as a recording, `delay` frames of its first picture first.
    static func recording(_ scene: String, storyboard: String, set: [String] = [], delay: Int = 0) throws
        -> FrameSequence
    {
        let frames = try Transition(scene, storyboard: storyboard, set: set, fps: 25, scale: 1).frames()
        let held = Array(repeating: frames[0], count: delay) + frames
        return FrameSequence(
            frames: held.enumerated().map { .init(start: Double($0) / 25, bitmap: $1.bitmap, label: "frame \($0)") },
            duration: Double(held.count) / 25)
    }

    static func request() throws -> ScoreRequest {
        var request = ScoreRequest(
            scene: "expanding-cells", features: try FeatureFile.load(assets + "/fidelity/dismiss-final.yaml").features)
        request.storyboard = "dismiss-final"
        return request
    }

    @Test("A screen the recording's frame cuts by a pixel is read; one mostly outside is refused")
    func screenCutByTheFrame() {
        // sliding-panels' port recording: 370 px frames, its screen scaled to 371 px.
        #expect(Crop(x: 0, y: 16, width: 371, height: 662).mostlyInside(width: 370, height: 678))
        #expect(!Crop(x: 0, y: 16, width: 371, height: 662).fits(width: 370, height: 678))
        #expect(!Crop(x: 10000, y: 10000, width: 5, height: 5).mostlyInside(width: 320, height: 568))
        #expect(!Crop(x: 200, y: 0, width: 320, height: 568).mostlyInside(width: 320, height: 568))
    }

    @Test("A recording read again that ends early (changed on disk) is an error naming the frame, not a wrong picture")
    func readAgainEndsEarly() throws {
        let frames = (0..<3).map {
            FrameSequence.Frame(start: Double($0) / 10, bitmap: Bitmap(width: 4, height: 4), label: "\($0)")
        }
        let reader = RecordingRereader(FrameReader(FrameSequence(frames: frames, duration: 0.3)))
        #expect(try reader.frame(2) == frames[2].bitmap)
        #expect(throws: FitError.changedWhileRead(frame: 5)) { try reader.frame(5) }
        #expect("\(FitError.changedWhileRead(frame: 5))".contains("before frame 5 when read again"))
    }

    @Test("A score keeps only the frames a feature reads, and reads again a moment the pass could not place")
    func partsKeptAndReadAgain() throws {
        // Frames 2 s apart, grey 0, 40, 80, 120: a level measured at 0 s towards its look at
        // 3.1 s takes that look from the frame at 4 s, which the pass dropped (4-6 s is far
        // from both) and reads again.
        let frames = (0..<4).map { k in
            FrameSequence.Frame(
                start: Double(2 * k),
                bitmap: Bitmap(width: 20, height: 20, fill: PremultipliedColor(r: 40 * UInt8(k), g: 0, b: 0, a: 255)),
                label: "\(k)")
        }
        let fade = RecordingFeature(
            name: "fade", kind: .level(rect: Crop(x: 0, y: 0, width: 20, height: 20), from: 0, to: 3.1),
            during: 0...0.5)
        let side = try RecordedSide(
            ScoreRequest(scene: "expanding-cells", features: [fade]),
            source: RecordingSource(FrameSequence(frames: frames, duration: 8)))
        #expect(side.interval == 2 && side.frames.map { $0[0] != nil } == [true, false, true, false])
        #expect(side.frames[2][0] == ScoreImage(frames[2].bitmap))
        #expect(side.track(fade) == [0, nil, nil, nil])
    }

    @Test("A recording of the storyboard itself scores 0 px at no lag, and a later one a lag of its delay")
    func selfAndDelayed() throws {
        let same = try Scorer.score(
            Self.request(), recording: Self.recording("expanding-cells", storyboard: "dismiss-final"))
        #expect(abs(same.interval - 0.04) < 1e-9 && abs(same.recordingSeconds - same.renderSeconds) < 1e-9)
        #expect(same.features.map(\.name) == ["bar bottom", "detail body"])
        // Every frame of motion compares a feature in both, or nearly: the detail leaves the
        // screen as it collapses.
        #expect(
            2 * same.comparedFrames >= same.motionFrames && same.comparedFrames > 10,
            "\(same.comparedFrames) of \(same.motionFrames)")
        for feature in same.features {
            #expect(feature.frames > 40 && feature.rms == 0 && feature.worst == 0, "\(feature.name)")
            #expect(feature.lag?.frames == 0 && feature.lag?.rms == 0, "\(feature.name)")
            #expect(!feature.stretches.isEmpty)
            // 25 fps does not divide 60 Hz: each stretch is scored as captured too.
            #expect(feature.stretches.allSatisfy { $0.captured != nil && $0.rms == 0 })
        }
        #expect(same.start == 0 && same.foundStart)
        // The recording shows everything two frames (80 ms) later than ours does. Its start is
        // found 0.08 s before the storyboard's, where it scores 0 px; at the storyboard's start
        // ours is earlier, a lag of -2 frames, and at no lag the moving frames are off.
        let delayed = try Self.recording("expanding-cells", storyboard: "dismiss-final", delay: 2)
        let found = try Scorer.score(Self.request(), recording: delayed)
        #expect(abs(found.start + 0.08) < 1e-9 && found.features.allSatisfy { $0.rms == 0 }, "\(found.start)")
        var atZero = try Self.request()
        atZero.start = 0
        let late = try Scorer.score(atZero, recording: delayed)
        for feature in late.features {
            #expect(
                feature.lag.map { abs($0.frames + 2) < 0.051 && $0.rms < 0.2 } == true,
                "\(feature.name): \(String(describing: feature.lag))")
            #expect(feature.rms > 1, "\(feature.name)")
        }
        let table = late.table(title: "late.gif")
        #expect(table.contains("bar bottom") && table.contains("-80   -2.00"), "\(table)")
        // Every figure of a feature's row and of its stretches' rows ends under its heading,
        // whatever the length of the feature's name.
        var long = late
        long.features[0].name = "bar bottom, while the detail collapses"
        for result in [late, long] {
            let lines = result.table(title: "late.gif").split(separator: "\n").map { Array($0) }
            let header = String(lines[1])
            func end(_ heading: String, last: Bool = false) -> Int {
                header.distance(
                    from: header.startIndex,
                    to: header.range(of: heading, options: last ? .backwards : [])!.upperBound) - 1
            }
            let columns = ["RMS px", "lag ms"].map { end($0) }
            let captured = ["RMS", "worst", "phase", "lag ms"].map { end($0, last: true) }
            let stretches = lines.dropFirst(2).filter { $0.starts(with: "    moving".map { $0 }) }
            #expect(stretches.count >= 2)
            for line in lines.dropFirst(2) {
                for column in columns + (line.count > captured[0] ? captured : []) {
                    #expect(
                        column < line.count && (line[column].isNumber || line[column] == "-"),
                        "column \(column) of: \(String(line))")
                }
            }
        }
    }

    @Test(
        "--track: a layer followed in its own recording scores within a pixel or two; a slower present is later and farther"
    )
    func trackedLayer() throws {
        let recording = try Self.recording("app-store-card", storyboard: "first-card")
        var request = ScoreRequest(scene: "app-store-card", features: [])
        request.storyboard = "first-card"
        request.track = ["card-1"]
        let same = try Scorer.score(request, recording: recording)
        #expect(same.features.map(\.name) == ["card-1 left", "card-1 top", "card-1 width"])
        for feature in same.features {
            // The tracker reads the recording's pixels to a fraction of a pixel; the width, at
            // the card's scale, to about one.
            #expect(
                feature.frames > 60 && feature.rms < (feature.name.hasSuffix("width") ? 2 : 1),
                "\(feature.name): \(feature.rms)")
        }
        #expect(2 * same.comparedFrames >= same.motionFrames)
        // A slower present, at the recording's own start: later and farther.
        request.assignments = ["present.durationBase=0.7"]
        request.start = 0
        let slower = try Scorer.score(request, recording: recording)
        let top = try #require(slower.features.first { $0.name == "card-1 top" })
        #expect(top.rms > 4 && (top.lag?.frames ?? 0) > 0.5, "\(top)")
    }

    @Test("--grid with --track: a layer followed once ranks each trial by where its plan puts it; the truth first")
    func gridOfTrackedLayer() throws {
        let recording = try Self.recording("app-store-card", storyboard: "first-card")
        var request = ScoreRequest(scene: "app-store-card", features: [])
        request.storyboard = "first-card"
        request.track = ["card-1"]
        let axis = try #require(GridAxis("present.durationBase=0.7,0.5,0.6"))
        let ranked = try Scorer.rank(request, grid: [axis], source: RecordingSource(recording))
        #expect(
            ranked.map(\.assignments) == [
                ["present.durationBase=0.5"], ["present.durationBase=0.6"], ["present.durationBase=0.7"],
            ])
        #expect(ranked[0].features.map(\.name) == ["card-1 left", "card-1 top", "card-1 width"])
        // The same figures as a score of the truth: the tracker's findings do not change by trial.
        let same = try Scorer.score(request, recording: recording)
        for (ranked, scored) in zip(ranked[0].features, same.features) {
            #expect(ranked.frames == scored.frames && abs((ranked.rms ?? .nan) - scored.rms) < 1e-9, "\(ranked.name)")
        }
        #expect((ranked[0].overall ?? 99) < 1.5 && (ranked[2].overall ?? 0) > 3, "\(ranked.map(\.overall))")
    }

    @Test(
        "A tracked layer that grows past the tracker's scales (expanding-view's button) is refused by name, never a crash"
    )
    func growingLayer() throws {
        // The scale searched near the last match's could fall outside the plan's whole range
        // and make an empty range: a crash in fit --track and score --track alike.
        let recording = try Self.recording("expanding-view", storyboard: "bottom", set: ["expand.duration=0.5"])
        var request = ScoreRequest(scene: "expanding-view", features: [])
        request.storyboard = "bottom"
        request.track = ["button"]
        #expect {
            _ = try Scorer.score(request, recording: recording)
        } throws: { error in
            guard case ScoreError.tooFewCompared(_, _, let features) = error else { return false }
            return features.map(\.0) == ["button left", "button top", "button width"]
        }
    }

    @Test("A 30 fps GIF of the storyboard itself, its frames 3, 3 and 4 cs apart, scores 0 px: it is read at 1/30 s")
    func ownGIF() throws {
        let path = temporaryFolder() + "/own.gif"
        try Transition("expanding-cells", storyboard: "dismiss-final").write(to: path)
        let result = try Scorer.score(Self.request(), recording: FrameSequence.load(path))
        #expect(abs(result.interval - 1.0 / 30) < 1e-9)
        for feature in result.features { #expect(feature.frames > 20 && feature.rms < 0.01, "\(feature.name)") }
    }

    @Test(
        "A slower dismissal in the recording is seen in the stretch it slows, ours early; a feature off the frame is refused"
    )
    func slower() throws {
        let recording = try Self.recording(
            "expanding-cells", storyboard: "dismiss-final", set: ["dismiss.duration=0.9"])
        let slow = try Scorer.score(Self.request(), recording: recording)
        // The bar's return is the slower part: its stretch is off by pixels, and ours is early.
        let bar = try #require(slow.features.first { $0.name == "bar bottom" })
        #expect(bar.rms > 2, "\(bar.rms)")
        let late = try #require(bar.stretches.last)
        #expect((late.rms ?? 0) > 4 && (late.lag?.frames ?? 0) < -1, "\(late)")
        #expect(bar.stretches.first?.rms == 0)
        var outside = try Self.request()
        outside.features[0].kind = .edge(line: 667, axis: .x, from: 0, to: 10, band: 0, test: try ColourTest("r > 0"))
        #expect(throws: FeatureOutside(feature: "bar bottom", width: 375, height: 667)) {
            try Scorer.score(outside, recording: recording)
        }
    }

    @Test("A score that compares fewer than half the frames of motion is refused, naming what each feature found")
    func tooFewCompared() throws {
        var request = try Self.request()
        // A feature that no pixel passes finds nothing.
        request.features = [
            RecordingFeature(
                name: "nothing",
                kind: .edge(line: 300, axis: .x, from: 0, to: 374, band: 0, test: try ColourTest("r > 300")))
        ]
        let recording = try Self.recording("expanding-cells", storyboard: "dismiss-final")
        #expect {
            try Scorer.score(request, recording: recording)
        } throws: { error in
            "\(error)".hasPrefix("compared 0 of the recording's 85 frames of motion, fewer than half")
                && "\(error)".contains("(frames each feature was found in both: nothing 0)")
        }
    }

    @Test(
        "Colour tests read linear inequalities of r, g and b",
        arguments: [
            ("r - b > 50 and r - g > g - b and r < 220", (170, 110, 60), true),
            ("r - b > 50 and r - g > g - b and r < 220", (230, 110, 60), false),
            ("r - b > 50 and r - g > g - b and r < 220", (200, 190, 60), false),
            ("r > 240 and g > 240 and b >= 241", (250, 245, 241), true),
            ("2g <= r + 10", (100, 55, 0), true),
            ("2g <= r + 10", (100, 56, 0), false),
        ])
    func colourTests(text: String, pixel: (Int, Int, Int), passes: Bool) throws {
        #expect(try ColourTest(text).passes((pixel.0, pixel.1, pixel.2)) == passes)
    }

    @Test("A colour test that does not read names the part", arguments: ["r", "r > ", "rr > 3", "r > 2 and"])
    func badColourTests(text: String) {
        #expect(throws: ColourTestError.self) { try ColourTest(text) }
    }

    @Test("A features file's problems are reported together, each at its line and key")
    func featureFileProblems() throws {
        let text = """
            screen: [0, 16, 371]
            features:
              - name: bar
                extent: {from: [30, 21], to: 400, colour: "#30"}
              - name: patch
                shift: {rect: [0, 150, 375, 180], at: -1, axis: z, search: 440}
              - name: edge
                edge: {row: 4, from: 0, to: 9, where: "r >"}
              - name: bar
                extent: {from: [1, 2], to: 3, colour-at: [1, 2, 0]}
                colour: red
              - name: fade
                level: {rect: [0, 0, 4, 4], from: 1, to: 1, tint: red}
              - name: column
                edge: {row: 4, column: 2, from: 0, to: 9, band: -1, where: "r > 1"}
            """
        let problems = try #require(throws: ConfigProblems.self) { try FeatureFile(text: text, file: "f.yaml") }
        let twice = """
            features:
              - {name: bar, extent: {from: [1, 2], to: 3, colour: "#000000"}}
              - {name: bar, extent: {from: [1, 2], to: 3, colour: "#000000"}}
            """
        let named = try #require(throws: ConfigProblems.self) { try FeatureFile(text: twice, file: "f.yaml") }
        #expect(named.description == "f.yaml:3: features[1].name: 'bar' names two features")
        let said = problems.problems.map { "\($0.line.map(String.init) ?? "-") \($0.keyPath)" }
        #expect(
            Set(said)
                == [
                    "1 screen", "4 features[0].extent.colour", "6 features[1].shift.at", "6 features[1].shift.axis",
                    "8 features[2].edge.where", "11 features[3].colour", "13 features[4].level.to",
                    "13 features[4].level.tint", "15 features[5].edge.column", "15 features[5].edge.band",
                ], "\(problems)")
    }

    @Test("Stretches of motion join short still gaps and are padded; the lag search finds a shift")
    func motion() {
        let still = [Double?](repeating: 10, count: 10)
        let moving: [Double?] = still + (1...10).map { 10 + Double($0) * 3 } + [Double?](repeating: 40, count: 10)
        #expect(MotionScore.stretches(moving) == [6..<23])
        #expect(MotionScore.stretches(still).isEmpty)
        #expect(MotionScore.interpolate(moving, 10.5) == 14.5)
        #expect(MotionScore.interpolate([1, nil, 3], 0.5) == nil)
        // Ours is the same motion a frame and a half later.
        let ours = moving.indices.map { i in MotionScore.interpolate(moving, Double(i) - 1.5) ?? 10 }
        let lag = MotionScore.bestLag(moving, ours.map { $0 }, frames: Array(moving.indices))
        #expect(lag?.lag == 1.5 && lag!.rms < 0.5, "\(String(describing: lag))")
    }

    @Test("A resize keeps a flat colour, and a render placed in a screen has grey around it")
    func placing() {
        let flat = ScoreImage(width: 50, height: 40, rgb: [UInt8](repeating: 77, count: 50 * 40 * 3))
        #expect(flat.resized(width: 33, height: 61).rgb.allSatisfy { $0 == 77 })
        let placed = flat.placed(in: (60, 50), screen: Crop(x: 5, y: 6, width: 40, height: 30))
        #expect(placed.pixel(0, 0) == (128, 128, 128) && placed.pixel(5, 6) == (77, 77, 77))
        #expect(placed.pixel(44, 35) == (77, 77, 77) && placed.pixel(45, 36) == (128, 128, 128))
    }
}
