import Flipbook

/// One problem in a manifest, naming the file, the line and the key path: the shape of every
/// YAML problem Flipbook reports, scene files' and configs' included.
public typealias ManifestProblem = ConfigError

/// What stops a build before or while it runs.
public enum BuildError: Error, Equatable, CustomStringConvertible {
    /// Every problem found in the manifest, sorted by line: all of them, not the first.
    case manifest([ManifestProblem])
    /// A shard that is not I/N with 1 <= I <= N.
    case shard(String)
    /// A name on the command line that picks no output.
    case unknownName(String, known: [String])
    /// An output that cannot be written where the manifest puts it.
    case output(path: String, reason: String)

    public var description: String {
        switch self {
        case .manifest(let problems):
            return problems.map(\.description).joined(separator: "\n")
        case .shard(let text):
            return "shard \(text): \(Shard.expected)"
        case .unknownName(let name, let known):
            let hint = YAMLInput.closest(to: name, in: known).map { "; did you mean \($0)?" } ?? ""
            return "\(name): no output has this name or path\(hint)"
        case .output(let path, let reason):
            return "\(path): \(reason)"
        }
    }
}
