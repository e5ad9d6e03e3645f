import Fit
import Flipbook
import Foundation
import TestSupport
import Synchronization
import Testing

/// Fit, score and compare as a library user runs them: one request each that reads its files,
/// warns through events, keeps its outputs off its inputs and writes what it was asked to.
@Suite("Fit, score and compare are requests that own their files")
struct MeasureRequestTests {
    /// A 25 fps GIF of expanding-view's `bottom`, rendered through the library.
    static func recording(_ name: String = #function) throws -> (dir: String, gif: String) {
        let dir = temporaryFolder(name)
        var export = ExportRequest(scene: "expanding-view")
        export.storyboard = "bottom"
        export.fps = 25
        export.output = dir + "/rec.gif"
        _ = try export.run()
        return (dir, dir + "/rec.gif")
    }

    @Test("A score request reads its features file and recording and scores the render's own GIF 0.00 px")
    func score() throws {
        let (dir, gif) = try Self.recording()
        try """
        features:
          - name: circle top
            extent: {from: [160, 503], to: 0, axis: y, colour-at: [160, 503, 0.0]}
        """.write(toFile: dir + "/features.yaml", atomically: true, encoding: .utf8)
        var request = ScoreRequest(scene: "expanding-view", features: [])
        request.storyboard = "bottom"
        request.recording = gif
        request.featuresFile = dir + "/features.yaml"
        request.sheet = dir + "/sheet.png"
        guard case .scored(let result, _) = try request.run() else {
            Issue.record("not a score")
            return
        }
        #expect(result.features.map(\.name) == ["circle top"])
        #expect(result.features[0].rms == 0)
        #expect(result.written.count == 1)
        #expect(FileManager.default.fileExists(atPath: dir + "/sheet.png"))
        let text = try request.run().text(title: "rec.gif")
        #expect(text.hasPrefix("\(gif) against expanding-view --storyboard bottom: the recording "))
    }

    @Test(
        "A tracked layer says over which seconds it was not followed: app-store-card's card-1 while it waits in the list under card-2, on our own render"
    )
    func unfollowedSeconds() throws {
        let dir = temporaryFolder()
        var export = ExportRequest(scene: "app-store-card")
        (export.storyboard, export.config, export.fps) = ("promo", "Assets/app-store-card/recording.yaml", 10)
        export.output = dir + "/own.gif"
        _ = try export.run()
        var request = ScoreRequest(scene: "app-store-card", features: [])
        (request.storyboard, request.config, request.fps) = ("promo", "Assets/app-store-card/recording.yaml", 10)
        (request.recording, request.track) = (dir + "/own.gif", ["card-1"])
        guard case .scored(let result, _) = try request.run() else {
            Issue.record("not a score")
            return
        }
        #expect(result.features.map(\.name) == ["card-1 left", "card-1 top", "card-1 width"])
        #expect(result.features.allSatisfy { $0.frames >= 20 && $0.rms < 1 }, "\(result.features.map(\.rms))")
        let spans = try #require(result.unfollowed.first { $0.layer == "card-1" }?.spans)
        #expect(spans.count == 1 && abs(spans[0].lowerBound - 3.9) < 0.01 && abs(spans[0].upperBound - 6.5) < 0.01)
        #expect(try request.run().text(title: "own.gif").contains("card-1: not followed at 3.90-6.50 s"))
        // Frame by frame: both sides where each has the layer, and how far the recording's frame
        // is from the layer's look where it was found; none where it was not followed.
        let top = try #require(result.features.first { $0.name == "card-1 top" })
        let compared = top.samples.filter { $0.recorded != nil && $0.rendered != nil }
        #expect(compared.count == top.frames && compared.allSatisfy { abs($0.recorded! - $0.rendered!) < 3 })
        #expect(compared.allSatisfy { ($0.difference ?? 99) < 12 }, "\(compared.map(\.difference))")
        #expect(top.samples.allSatisfy { $0.recorded == nil || !(3.9...6.5).contains($0.t) })
        #expect(zip(top.samples, top.samples.dropFirst()).allSatisfy { $0.t < $1.t })
    }

    @Test("A score request refuses options that do not go together, before reading anything")
    func scoreChecks() throws {
        var request = ScoreRequest(scene: "expanding-view", features: [])
        request.recording = "/nonexistent.gif"
        #expect(throws: ScoreError.invalid("Missing --features features.yaml or --track layer: what to follow")) {
            try request.run()
        }
        request.track = ["circle"]
        request.window = 0...1
        #expect(throws: ScoreError.invalid("--window ranks a --grid or bounds a --fit-stroke; pass --grid key=v1,v2")) {
            try request.run()
        }
    }

    @Test("A fit request's outputs: a config must be YAML, and never the recording or the config it reads")
    func fitOutputs() throws {
        let (dir, gif) = try Self.recording()
        var request = FitRequest(scene: "expanding-view", storyboard: "bottom", keys: ["expand.duration"])
        request.recording = gif
        request.output = dir + "/fitted.txt"
        #expect(throws: FitError.output(.output, path: dir + "/fitted.txt", expected: "a config, ending in .yaml")) {
            try request.run()
        }
        #expect(
            (try? request.checkOutputs()) == nil
                && "\(FitError.output(.output, path: "x", expected: "y"))" == "output x: y")
        let config = dir + "/base.yaml"
        try "{}\n".write(toFile: config, atomically: true, encoding: .utf8)
        request.config = config
        request.output = config
        let before = try Data(contentsOf: URL(fileURLWithPath: config))
        #expect(throws: (any Error).self) { try request.run() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == before)
        request.recording = nil
        #expect(throws: FitError.noRecording) { try request.run() }
    }

    @Test("A fit request writes its config under a line naming the recording, and warns of nothing for a 25 fps GIF")
    func fitWrites() throws {
        let (dir, gif) = try Self.recording()
        var request = FitRequest(scene: "expanding-view", storyboard: "bottom", keys: ["expand.duration"])
        request.recording = gif
        request.output = dir + "/fitted.yaml"
        let warnings = Mutex<[String]>([])
        let report = try request.run(MeasureEvents(warning: { w in warnings.withLock { $0.append(w) } }))
        #expect(report.written == ["wrote \(dir)/fitted.yaml: use it with --config \(dir)/fitted.yaml"])
        let text = try String(contentsOfFile: dir + "/fitted.yaml", encoding: .utf8)
        #expect(text.hasPrefix("# expanding-view bottom, fitted to \(gif) by flipbook fit\n"))
        #expect(report.text.contains("expand.duration"))
        // 4 cs delays are a 25 fps capture's: nothing to warn of.
        #expect(warnings.withLock { $0 } == [])
    }

    @Test("A compare request reads both sides as it compares and says MATCH for a render against itself")
    func compare() throws {
        let (dir, gif) = try Self.recording()
        let report = try CompareRequest(actual: gif, expected: gif).run()
        #expect(report.passes)
        #expect(report.text.hasSuffix("\nMATCH"))
        var missing = CompareRequest(actual: gif, expected: dir + "/none.gif")
        #expect(throws: CompareError.self) { try missing.run() }
        missing.diff = gif
        #expect(throws: (any Error).self) { try missing.check() }
    }
}
