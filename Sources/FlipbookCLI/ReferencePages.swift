import Build
import Flipbook
import ArgumentParser

/// The user guide's reference pages, generated from the lists the tool itself runs on: the
/// commands' help, the scene format's keys and the manifest's keys. A test fails when a
/// committed page differs, so the reference cannot drift from the code.
public enum ReferencePages {
    /// Where the pages live in a checkout.
    public static let folder = "Sources/flipbook/Guide.docc"

    /// Every generated page: its file name in ``folder`` and its Markdown.
    public static var all: [(file: String, text: String)] {
        [
            ("CommandReference.md", commands),
            ("SceneFileReference.md", sceneFile),
            ("ManifestReference.md", manifest),
        ]
    }

    static let notice = "This page is generated (`flipbook reference-pages`); a test fails when it is out of date."

    /// Every command's help, as `flipbook help COMMAND` prints it, at a width that fits a page.
    static var commands: String {
        var page = """
            # Command reference

            Every `flipbook` command and option, as `flipbook help COMMAND` prints it.

            \(notice) Shell completions come from the same declarations:
            `flipbook --generate-completion-script bash` (or `zsh`, `fish`); `Scripts/install`
            installs them.


            """
        let root = FlipbookCommand.self
        page += "## flipbook\n\n```text\n\(root.helpMessage(columns: 100))```\n"
        for command in root.configuration.subcommands where command.configuration.shouldDisplay {
            let name = command.configuration.commandName ?? "\(command)"
            page += "\n## flipbook \(name)\n\n```text\n\(root.helpMessage(for: command, columns: 100))```\n"
        }
        return page
    }

    /// The scene-file format, from `SceneFormat`'s lists.
    static var sceneFile: String {
        """
        # Scene file reference

        Every key, property, step, name and function a scene file may use, as the loader checks them.

        \(notice) `flipbook scene --reference` prints the same, and `flipbook scene --schema` the
        format as a JSON Schema for editors (see [Writing a transition](WritingATransition.md)).


        """ + SceneFormat.reference()
    }

    /// The build manifest's keys, from `ManifestFormat`'s list.
    static var manifest: String {
        var page = """
            # Manifest reference

            Every key of `flipbook.yaml`, the manifest `flipbook build` keeps fresh.

            \(notice) `flipbook build --reference` prints the same. Paths are from the manifest's
            folder; see [Keep previews fresh in CI](ManifestAndCI.md) for a worked manifest.

            ## Top-level keys

            | key | meaning |
            |---|---|

            """
        for section in ManifestFormat.sections { page += "| `\(section.name)` | \(section.doc) |\n" }
        page += """

            ## Output keys

            Where each key may be set: in an output (o), in `defaults` (d), in a variant's value (v).

            | key | where | meaning |
            |---|---|---|

            """
        for key in ManifestFormat.keys {
            let places =
                (key.places.contains(.output) ? "o" : "") + (key.places.contains(.defaults) ? "d" : "")
                + (key.places.contains(.variant) ? "v" : "")
            page += "| `\(key.name)` | \(places) | \(key.doc.replacingOccurrences(of: "|", with: "\\|")) |\n"
        }
        return page
    }
}

/// `flipbook reference-pages`: writes the guide's generated reference pages (for contributors).
struct ReferencePagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference-pages",
        abstract: "Write the user guide's generated reference pages into a folder.",
        shouldDisplay: false)

    @Option(name: .customLong("to"), help: ArgumentHelp("The folder to write into.", valueName: "folder"))
    var folder = ReferencePages.folder

    func run() throws {
        for page in ReferencePages.all {
            try OutputFile.write(page.text, to: folder + "/" + page.file)
            print("wrote \(folder)/\(page.file)")
        }
    }
}
