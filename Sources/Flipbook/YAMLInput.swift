import Scenes
import Yams

/// YAML read as the library reads scene files and configs (the same limits, errors at their
/// lines) and the nearest name for a typo: what the package's build reads its manifests with.
/// Package-level: for Flipbook's own front ends, not a user's API.
package enum YAMLInput {
    /// The file's text, refused past the size a config may have.
    package static func readText(file: String) throws -> String { try ConfigDocument.readText(file: file) }

    /// The document's node tree, its aliases bounded.
    package static func compose(_ text: String, file: String) throws -> Node? {
        try ConfigDocument.compose(text, file: file)
    }

    /// The candidate nearest to `word`, or nil when none is within a typo's reach.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        Suggestion.closest(to: word, in: candidates)
    }
}
