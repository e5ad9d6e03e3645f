import Flipbook
import ArgumentParser

/// `flipbook list`: the scenes and their storyboards.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the scenes, one line each, with their storyboards.")

    func run() {
        let width = SceneCatalog.allNames.map(\.count).max() ?? 0
        // One scene a line, its name first, so that a script can take the first column.
        func show(_ e: SceneCatalog.Entry, kind: String = "") {
            let pad = String(repeating: " ", count: width - e.name.count)
            print("\(e.name)\(pad)  \(kind)\(e.summary)  (storyboards: \(e.storyboards.joined(separator: ", ")))")
        }
        SceneCatalog.entries.forEach { show($0) }
        SceneCatalog.exampleEntries.forEach {
            show($0, kind: "example, to start your own from (flipbook scene NAME --to FOLDER): ")
        }
    }
}
