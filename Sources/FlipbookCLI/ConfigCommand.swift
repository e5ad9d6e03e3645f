import ArgumentParser
import Scenes

/// `flipbook config`: a scene's full config, every key documented.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print a scene's full default config (or the effective one with --config), a comment on every key.")

    @Argument(help: SceneOptionGroup.sceneHelp, completion: SceneOptionGroup.sceneCompletion)
    var scene: String

    @Option(help: ArgumentHelp("Show this config applied over the defaults.", valueName: "file.yaml"))
    var config: String?

    func validate() throws {
        try SceneOptionGroup.validate(scene: scene)
    }

    func run() throws {
        print(try SceneCatalog.prepare(scene, configFile: config).configYAML, terminator: "")
    }
}
