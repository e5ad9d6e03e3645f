import ArgumentParser
import Fit
import Flipbook
import Foundation

/// `flipbook score`: how closely a storyboard moves like a recording, feature by feature.
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Score a storyboard against a screen recording: how far and how late each followed feature is.",
        discussion: """
            Follows each feature of the features file (a bar's edge, a sliding patch, a card's edge) \
            frame by frame in the recording and in the render placed on the recording's frame, each \
            measured on its own pixels, and prints per feature the RMS and worst error in pixels at \
            the same instants, the lag that aligns the two best, and the same for each stretch in \
            which the recording moves. Where the capture rate does not divide the display's 60 Hz \
            (a 25 fps capture), each stretch is also scored as captured: the render at the instants \
            the display drew what the recording shows.
            Example:
              flipbook score inbox.gif expanding-cells --storyboard promo --features inbox-features.yaml
            """)

    @Argument(help: ArgumentHelp("The recording: a GIF, WebP, MP4 or folder of PNG frames.", valueName: "recording"))
    var recording: String

    @Argument(help: SceneOptionGroup.sceneHelp, completion: SceneOptionGroup.sceneCompletion)
    var scene: String

    @Option(help: ArgumentHelp("The storyboard the recording shows.", valueName: "name"))
    var storyboard: String?

    @Option(help: ArgumentHelp("A YAML config over the scene's defaults.", valueName: "file.yaml"))
    var config: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp("A value over the config, as for render (repeatable).", valueName: "key.path=value"))
    var assignments: [String] = []

    @Option(help: ArgumentHelp("What to follow, in the recording's pixels (YAML).", valueName: "features.yaml"))
    var features: String

    @Option(
        help: ArgumentHelp(
            "Where the render's screen sits in the recording's frame, in its pixels (default: the features file's, or the whole frame).",
            valueName: "x,y,w,h"),
        transform: FitCommand.parseCrop)
    var screen: Crop?

    @Option(
        help: ArgumentHelp(
            "Seconds between the recording's frames, instead of the step it stores (time-lapsed or re-timed).",
            valueName: "seconds"))
    var frameInterval: Double?

    @Option(help: ArgumentHelp("The rate the render is sampled at (default: the recording's).", valueName: "fps"))
    var fps: Double?

    @Flag(help: "Print the scores as JSON.")
    var json = false

    func validate() throws {
        try SceneOptionGroup.validate(scene: scene)
        if let frameInterval, !(frameInterval > 0 && frameInterval <= 10) {
            throw ValidationError("--frame-interval \(frameInterval): expected seconds in 0...10, more than 0")
        }
        if let fps, !(fps >= 1 && fps <= 120) { throw ValidationError("--fps \(fps): expected a number in 1...120") }
    }

    func run() throws {
        let file = try presenting { try FeatureFile.load(features) }
        let frames = try presenting { try FrameSequence.load(recording) }
        var request = ScoreRequest(scene: scene, features: file.features)
        request.storyboard = storyboard
        request.config = config
        request.assignments = assignments
        request.screen = screen ?? file.screen
        request.frameInterval = frameInterval
        request.fps = fps
        let result: ScoreResult
        do {
            result = try presenting { try Scorer.score(request, recording: frames) }
        } catch let error as FitError {
            throw CLIError("\(recording): \(error.message { "--\($0.rawValue)" })")
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
            return
        }
        print(
            String(
                format: "%@ against %@%@: the recording %.2f s, ours %.2f s (%.2f)", recording, scene,
                storyboard.map { " --storyboard \($0)" } ?? "", result.recordingSeconds, result.renderSeconds,
                result.renderSeconds / result.recordingSeconds))
        print(result.table(title: (recording as NSString).lastPathComponent))
    }
}
