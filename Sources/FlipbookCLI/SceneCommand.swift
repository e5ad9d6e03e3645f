import Flipbook
import ArgumentParser
import Foundation

/// `flipbook scene`: a built-in scene as the scene file it is, to copy and change.
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract:
            "Print a built-in scene's file (every param documented), or the scene-file format's reference or JSON Schema.",
        discussion: """
            Write it with its images into a folder, ready to render and edit:
              flipbook scene expanding-view --to mine/
              flipbook render mine/expanding-view.yaml -o out.gif
            """)

    /// The names it takes: every scene, then the example configs.
    static var names: [String] { SceneCatalog.allNames + SceneCatalog.exampleConfigs.map(\.name) }

    @Argument(
        help: ArgumentHelp(
            "The scene: \(SceneCatalog.allNames.joined(separator: ", ")); or an example config: \(SceneCatalog.exampleConfigs.map(\.name).joined(separator: ", ")).",
            valueName: "scene"),
        completion: .list(SceneCommand.names))
    var scene: String?

    @Flag(help: "Print the scene-file format's reference (Markdown) instead.")
    var reference = false

    @Flag(
        help:
            "Print the scene-file format as a JSON Schema instead, for editors: `# yaml-language-server: $schema=PATH` at a scene file's top gives completion and docs."
    )
    var schema = false

    @Option(
        name: .customLong("to"),
        help: ArgumentHelp(
            "Write the scene file and the images it names into this folder (made if missing), ready to render; an existing different file there is an error and nothing is written.",
            valueName: "folder"))
    var folder: String?

    func validate() throws {
        if reference && schema { throw ValidationError("--reference and --schema: choose one") }
        if reference || schema {
            let flag = reference ? "--reference" : "--schema"
            if let scene {
                throw ValidationError("\(scene): \(flag) prints the format, not a scene; leave the scene out")
            }
            if let folder { throw ValidationError("--to \(folder): \(flag) prints the format; leave --to out") }
            return
        }
        guard let scene else {
            throw ValidationError(
                "expected a scene: \(Self.names.joined(separator: ", ")), or --reference or --schema")
        }
        guard Self.names.contains(scene) else {
            throw ValidationError("\(SceneError.unknownScene(scene, known: Self.names))")
        }
    }

    func run() throws {
        if reference {
            print(SceneFormat.reference(), terminator: "")
            return
        }
        if schema {
            print(SceneSchema.json(), terminator: "")
            return
        }
        if let example = SceneCatalog.exampleConfig(named: scene!) { return try show(example) }
        let file = try SceneCatalog.file(named: scene!)
        if let folder { return try write(file, to: folder) }
        let home = file.folder
        print(
            "# The images this file names are read beside it; they are in \(home)/.\n"
                + "# `flipbook scene \(file.name) --to FOLDER` writes the file and its images together.\n" + file.text,
            terminator: "")
    }

    /// Writes the scene file and its images into `folder`.
    func write(_ file: SceneFile, to folder: String) throws {
        let written = try file.copy(to: folder)
        print("wrote \(written[0]) and its \(written.count - 1) images; render it with:")
        print("  flipbook render \(written[0]) -o \(file.name).gif")
    }

    /// Prints an example config, or writes it with its images into the folder.
    func show(_ example: SceneCatalog.ExampleConfig) throws {
        guard let folder else {
            print(
                "# The images this config names are read beside it; they are in \(example.folder)/.\n"
                    + "# `flipbook scene \(example.name) --to FOLDER` writes the config and its images together.\n"
                    + (try String(contentsOfFile: example.path, encoding: .utf8)),
                terminator: "")
            return
        }
        let written = try example.copy(to: folder)
        print("wrote \(written[0]) and its \(written.count - 1) images; render it with:")
        print("  flipbook render \(example.scene) --config \(written[0]) -o \(example.name).gif")
    }
}
