import Flipbook
import ArgumentParser

/// `flipbook config`: a scene's full config, every key documented.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print a scene's full default config (or the effective one with --config), a comment on every key.")

    @Argument(help: SceneOptionGroup.sceneHelp, completion: SceneOptionGroup.sceneCompletion)
    var scene: String

    @Option(help: ArgumentHelp("Show this config applied over the defaults.", valueName: "file.yaml"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "Mark the params this storyboard does not read (changing them changes nothing in it).",
            valueName: "name"),
        completion: SceneOptionGroup.storyboardCompletion)
    var storyboard: String?

    func validate() throws {
        try SceneOptionGroup.validate(scene: scene)
    }

    func run() throws {
        guard let storyboard else {
            print(try SceneCatalog.prepare(scene, configFile: config).configYAML, terminator: "")
            return
        }
        let prepared: PreparedScene
        do {
            prepared = try SceneCatalog.prepare(
                scene, configFile: config, overrides: SceneOverrides(storyboard: storyboard))
        } catch let error as SceneError {
            if case .unknownStoryboard = error { throw ValidationError("--storyboard: \(error)") }
            throw error
        }
        // What a storyboard reads is known once its plan is built, which needs its images.
        let reads = try prepared.paramsRead()
        let unread = Set(prepared.params.map(\.key)).subtracting(reads)
        print(prepared.configYAML(marking: unread), terminator: "")
    }
}
