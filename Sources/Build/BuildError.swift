import Scenes

/// One problem in a manifest, naming the file, the line and the key path: the shape of every
/// YAML problem Flipbook reports, scene files' and configs' included.
public typealias ManifestProblem = ConfigError

/// What stops a build before or while it runs.
public enum BuildError: Error, Equatable, CustomStringConvertible {
    /// Every problem found in the manifest, sorted by line: all of them, not the first.
    case manifest([ManifestProblem])
    /// `--shard` that is not I/N with 1 <= I <= N.
    case shard(String)
    /// A name on the command line that picks no output.
    case unknownName(String, known: [String])

    public var description: String {
        switch self {
        case .manifest(let problems):
            return problems.map(\.description).joined(separator: "\n")
        case .shard(let text):
            return "--shard \(text): expected I/N, a shard I of N with 1 <= I <= N (e.g. 1/4)"
        case .unknownName(let name, let known):
            let hint = closest(to: name, in: known).map { "; did you mean \($0)?" } ?? ""
            return "\(name): no output has this name or path\(hint)"
        }
    }
}

/// The candidate nearest to `word` by edit distance, when it is near enough to be a typo.
func closest(to word: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
    guard let (best, distance) = scored, distance <= max(2, word.count / 3) else { return nil }
    return best
}

/// The Levenshtein distance: the fewest insertions, deletions and substitutions from a to b.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var row = [i] + [Int](repeating: 0, count: b.count)
        for j in 1...b.count {
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = row
    }
    return previous[b.count]
}
