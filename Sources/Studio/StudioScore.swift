import Fit
import Flipbook
import Foundation
import Synchronization

/// Each version scored against the recording by the features the studio was given, as
/// `flipbook score` scores it: the same `Scorer`, the same request, so the page's figures are
/// the command's. A score takes seconds, so it is made when the page asks, one at a time, and
/// kept for as long as its version is held.
final class StudioScores: Sendable {
    let features: FeatureFile
    let featuresPath: String
    private let scoring = NSLock()
    /// Each version's outcome with the recording's timing it was scored at: one made before
    /// the timing changed is made again.
    private let done = Mutex<[Int: (timing: [Double?], outcome: Outcome)]>([:])

    /// A version's score, or why it has none (too little of the motion compared, a feature
    /// that reads outside the frame), as `flipbook score` would say it.
    enum Outcome: Sendable {
        case scored(ScoreResult)
        case refused(String)
    }

    /// Reads the features file; its problems are the studio's error at start, each at its line.
    init(featuresPath: String) throws {
        self.featuresPath = featuresPath
        features = try FeatureFile.load(featuresPath)
    }

    /// The score request for a version: the studio's scene, storyboard and config, the
    /// version's edits as `--set` values, and the features file's features and screen.
    func request(scene: String, config: String?, storyboard: String, edits: [String: String]) -> ScoreRequest {
        var request = ScoreRequest(scene: scene, features: features.features)
        request.storyboard = storyboard
        request.config = config
        request.assignments = StudioState.assignments(edits)
        request.screen = features.screen
        return request
    }

    /// The score of `version`, made now unless it was made before.
    func score(version: Int, _ request: ScoreRequest, recording: FrameSequence, images: ImageCache) -> Outcome {
        scoring.lock()
        defer { scoring.unlock() }
        let timing = [request.frameInterval, request.start]
        if let made = done.withLock({ $0[version] }), made.timing == timing { return made.outcome }
        let outcome: Outcome
        do {
            outcome = .scored(try Scorer.score(request, recording: recording, images: images))
        } catch {
            outcome = .refused("\(error)")
        }
        done.withLock { $0[version] = (timing, outcome) }
        return outcome
    }

    /// Forgets the scores of versions no longer held.
    func keep(only versions: Set<Int>) {
        done.withLock { scores in scores = scores.filter { versions.contains($0.key) } }
    }
}
