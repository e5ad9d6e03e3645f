import Flipbook
import ArgumentParser

/// `flipbook list`: the scenes and their storyboards.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the scenes, one line each, with their storyboards.")

    func run() {
        let width = SceneCatalog.names.map(\.count).max() ?? 0
        for e in SceneCatalog.entries {
            let pad = String(repeating: " ", count: width - e.name.count)
            print("\(e.name)\(pad)  \(e.summary)  (storyboards: \(e.storyboards.joined(separator: ", ")))")
        }
    }
}
