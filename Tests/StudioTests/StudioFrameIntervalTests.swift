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
    }
}
