import ArgumentParser
import Fit
import Flipbook
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
            Or make one from a recording of your app's transition (a Simulator capture, a GIF):
              flipbook scene --from push.mov --to push/
              flipbook studio push/push.yaml
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

    @Option(
        name: .customLong("check"),
        help: ArgumentHelp(
            "Check this scene file: every name, expression and storyboard, as render loads it; exit 1 naming each problem.",
            valueName: "file.yaml"))
    var checked: String?

    @Option(
        help: ArgumentHelp(
            "Make a scene from this recording of a transition (GIF, WebP, APNG, MP4, MOV or a folder of PNG frames): its still screens and the UIKit moves and curves between them, fitted; needs --to.",
            valueName: "recording"))
    var from: String?

    @Option(help: ArgumentHelp("The made scene's name (by default the recording's).", valueName: "name"))
    var name: String?

    @Option(
        help: ArgumentHelp(
            "The screen's width in points (by default an iPhone's, from the recording's width).",
            valueName: "points"))
    var points: Double?

    @Option(
        help: ArgumentHelp("The part of each recording frame that is the screen, in its pixels.", valueName: "x,y,w,h"),
        transform: FitCommand.parseCrop)
    var crop: Crop?

    @OptionGroup var interval: FrameIntervalOptionGroup

    @Option(
        help: ArgumentHelp(
            "Also write the recording and the made scene's render side by side (GIF, WebP, MP4 or APNG).",
            valueName: "file"))
    var sideBySide: String?

    @Option(
        help: ArgumentHelp(
            "A screenshot (PNG, any scale) of the screen the recording starts on, sharper than its frames: the made scene shows it.",
            valueName: "first.png"))
    var first: String?

    @Option(
        help: ArgumentHelp(
            "A screenshot (PNG, any scale) of the screen the recording ends on, as --first.", valueName: "last.png"))
    var last: String?

    /// The request `--from` makes.
    var making: SceneMakingRequest? {
        guard let from, let folder else { return nil }
        var request = SceneMakingRequest(
            recording: from, folder: folder, name: name, frameInterval: interval.frameInterval, crop: crop,
            pointWidth: points)
        (request.sideBySide, request.first, request.last) = (sideBySide, first, last)
        return request
    }

    func validate() throws {
        if let checked {
            if scene != nil || from != nil || reference || schema || folder != nil {
                throw ValidationError("--check \(checked): checks a scene file; give it alone")
            }
            return
        }
        if let from {
            if let scene {
                throw ValidationError("\(scene): --from makes a scene from a recording; leave the scene out")
            }
            if reference || schema { throw ValidationError("--from makes a scene; leave --reference and --schema out") }
            guard folder != nil else { throw ValidationError("--from \(from): --to FOLDER says where the scene goes") }
            try interval.check(recording: from)
            do { try making?.check() } catch let error as SceneMakingError { throw ValidationError("\(error)") }
            return
        }
        for (flag, given) in [
            ("--name", name != nil), ("--points", points != nil), ("--crop", crop != nil),
            ("--frame-interval", interval.frameInterval != nil), ("--side-by-side", sideBySide != nil),
            ("--first", first != nil), ("--last", last != nil),
        ] where given {
            throw ValidationError("\(flag) is for --from RECORDING; a built-in scene is copied as it is")
        }
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
        if let checked {
            let file = try SceneFile.load(path: checked)
            var lengths: [String] = []
            for storyboard in file.storyboards {
                let t = try Transition(checked, storyboard: storyboard)
                lengths.append("\(storyboard) \(String(format: "%.2f", t.duration)) s")
            }
            print(
                "\(checked): \(file.name), \(lengths.joined(separator: ", ")): every name resolves and every storyboard plays"
            )
            return
        }
        if let making {
            let report: SceneMakingReport
            do {
                report = try presenting {
                    try making.run(progress: { StandardStreams.writeError("\($0)\n") }, MeasureEvents(warning: warn))
                }
            } catch let error as FitError {
                throw CLIError("\(making.recording): \(error.message(\.flag))")
            } catch let error as SceneMakingError {
                throw CLIError("\(making.recording): \(error)")
            }
            print(report.text)
            return
        }
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
