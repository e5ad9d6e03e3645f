import Flipbook
import Foundation
import Testing
import TestSupport

@testable import Fit
@testable import Studio

/// The studio's recording at its real times, scored as `flipbook score --frame-interval` scores it.
@Suite("Studio: a recording's frame interval")
struct StudioFrameIntervalTests {
    @Test(
        "With a frame interval the page shows the recording at those times, and each version scores as flipbook score does"
    )
    func sameAsScore() throws {
        let folder = temporaryFolder()
        // expanding-view's transition-1 as a folder of frames, said to be a 25 fps capture.
        let t = try Transition("expanding-view", storyboard: "transition-1", fps: 30)
        let path = folder + "/rec/"
        try t.write(to: path)
        let features = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets/fidelity/transition-1.yaml").path
        let session = try StudioSession(
            options: StudioOptions(
                scene: "expanding-view", storyboard: "transition-1", against: path, features: features,
                frameInterval: 0.04))
        let recording = try #require(session.recording)
        #expect(abs(recording.stored.frames[30].start - 1.0) < 1e-6)
        #expect(abs(recording.frames.frames[30].start - 1.2) < 1e-6, "\(recording.frames.frames[30].start)")
        guard case .scored(let studio) = try #require(session.score(session.snapshot.current!.version)) else {
            Issue.record("the studio did not score the version")
            return
        }
        var request = ScoreRequest(scene: "expanding-view", features: try FeatureFile.load(features).features)
        request.storyboard = "transition-1"
        request.screen = try FeatureFile.load(features).screen
        request.frameInterval = 0.04
        let cli = try Scorer.score(request, recording: try FrameSequence.load(path))
        #expect(studio.features.map(\.rms) == cli.features.map(\.rms))
        #expect(studio.features.map(\.lag?.frames) == cli.features.map(\.lag?.frames))

        // The page's timing: the same interval and a start given score as the flags would; a
        // folder with no interval, or an interval no capture has, is refused and changes nothing.
        try session.setTiming(RecordingTiming(frameInterval: 0.04, start: 0.1))
        guard case .scored(let given) = try #require(session.score(session.snapshot.current!.version)) else {
            Issue.record("the studio did not score the version")
            return
        }
        request.start = 0.1
        #expect(
            given.features.map(\.rms)
                == (try Scorer.score(request, recording: FrameSequence.load(path))).features.map(\.rms))
        #expect(given.start == 0.1 && !given.foundStart)
        #expect(throws: StudioError.self) { try session.setTiming(RecordingTiming(frameInterval: nil)) }
        #expect(throws: StudioError.self) { try session.setTiming(RecordingTiming(frameInterval: 50)) }
        #expect(session.timing == RecordingTiming(frameInterval: 0.04, start: 0.1))
        #expect(abs(try #require(session.recording).frames.frames[30].start - 1.2) < 1e-6)
    }

    @Test(
        "A recording cut into the storyboard: the studio finds where it starts, as flipbook score does, shows it from there, and scores there"
    )
    func foundStart() throws {
        let folder = temporaryFolder()
        // expanding-view's transition-1 at 30 fps with its first 9 frames (0.3 s) cut.
        let t = try Transition("expanding-view", storyboard: "transition-1", fps: 30)
        let frames = try t.frames()
        let path = folder + "/cut.gif"
        let cut = Array(frames.dropFirst(9))
        let output = try AnimatedOutput(
            path: path, width: cut[0].bitmap.width, height: cut[0].bitmap.height, fps: 30, encoding: EncodingOptions())
        for (i, frame) in cut.enumerated() { try output.add(frame.bitmap, at: Double(i) / 30) }
        _ = try output.finish(at: Double(cut.count) / 30, inputFrames: cut.count)
        let features = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets/fidelity/transition-1.yaml").path
        let session = try StudioSession(
            options: StudioOptions(
                scene: "expanding-view", storyboard: "transition-1", against: path, features: features))
        let loaded = try #require(session.loaded(session.snapshot.current!.version))
        #expect(abs(session.recordingStart(loaded) - 0.3) < 1e-9, "\(session.recordingStart(loaded))")
        guard case .scored(let studio) = try #require(session.score(loaded.version)) else {
            Issue.record("the studio did not score the version")
            return
        }
        var request = ScoreRequest(scene: "expanding-view", features: try FeatureFile.load(features).features)
        request.storyboard = "transition-1"
        request.screen = try FeatureFile.load(features).screen
        let cli = try Scorer.score(request, recording: try FrameSequence.load(path))
        #expect(cli.start == 0.3 && studio.start == 0.3 && studio.features.map(\.rms) == cli.features.map(\.rms))
        // Told where it starts, the studio keeps it whatever the values.
        let told = try StudioSession(
            options: StudioOptions(
                scene: "expanding-view", storyboard: "transition-1", against: path, features: features, start: 0))
        #expect(told.recordingStart(try #require(told.loaded(told.snapshot.current!.version))) == 0)
    }
}
