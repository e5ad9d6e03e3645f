import ArgumentParser
import Fit
import Flipbook
import Foundation

/// A recording and the scene it is measured against, shared by fit and score: the recording,
/// the scene, its storyboard, config and values, and the recording's real frame interval.
struct RecordingOptionGroup: ParsableArguments {
    @Argument(help: ArgumentHelp("The recording: a GIF, WebP, MP4 or folder of PNG frames.", valueName: "recording"))
    var recording: String

    @Argument(help: SceneOptionGroup.sceneHelp, completion: SceneOptionGroup.sceneCompletion)
    var scene: String

    @Option(
        help: ArgumentHelp("The storyboard the recording shows.", valueName: "name"),
        completion: SceneOptionGroup.storyboardCompletion)
    var storyboard: String?

    @Option(help: ArgumentHelp("A YAML config over the scene's defaults.", valueName: "file.yaml"))
    var config: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp("A value over the config, as for render (repeatable).", valueName: "key.path=value"))
    var assignments: [String] = []

    @OptionGroup var interval: FrameIntervalOptionGroup

    /// Seconds a frame of the recording really lasted, when given.
    var frameInterval: Double? { interval.frameInterval }

    func validate() throws {
        try SceneOptionGroup.validate(scene: scene)
        try interval.check(recording: recording)
    }
}
