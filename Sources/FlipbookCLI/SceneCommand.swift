import ArgumentParser
import Foundation
import Scenes

/// `flipbook scene`: a built-in scene as the scene file it is, to copy and change.
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Print a built-in scene's file (every param documented), or the scene-file format's reference.",
        discussion: """
            Save it beside copies of the images it names and render it from anywhere:
              flipbook scene expanding-view > mine/expanding-view.yaml
              cp Assets/expanding-view/*.png mine/
              flipbook render mine/expanding-view.yaml -o out.gif
            """)

    @Argument(
        help: ArgumentHelp("The scene: \(SceneCatalog.names.joined(separator: ", ")).", valueName: "scene"),
        completion: .list(SceneCatalog.names))
    var scene: String?

    @Flag(help: "Print the scene-file format's reference (Markdown) instead.")
    var reference = false

    func validate() throws {
        if reference {
            if let scene {
                throw ValidationError("\(scene): --reference prints the format, not a scene; leave the scene out")
            }
            return
        }
        guard let scene else {
            throw ValidationError("expected a scene: \(SceneCatalog.names.joined(separator: ", ")), or --reference")
        }
        guard SceneCatalog.names.contains(scene) else {
            throw ValidationError(
                "no built-in scene '\(scene)'; expected one of \(SceneCatalog.names.joined(separator: ", "))")
        }
    }

    func run() throws {
        if reference {
            print(SceneFormat.reference(), terminator: "")
            return
        }
        print(try SceneCatalog.file(named: scene!).text, terminator: "")
    }
}
