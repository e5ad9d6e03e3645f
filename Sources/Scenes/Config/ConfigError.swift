/// A config problem, naming the file, the line and the key path.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// Dotted path of the key, e.g. `present.duration`.
    public var keyPath: String
    public var message: String
    /// The column, where the whole-file check knows it.
    public var column: Int?
    /// The `key.path=value` assignment at fault, when the value came from one rather than a file.
    public var assignment: String?
    /// The request's option that lets through what this refuses (`allowOutside`), which
    /// whoever shows the message spells: the CLI as its flag.
    public var allowedBy: String?

    public init(
        file: String, line: Int?, keyPath: String, message: String, column: Int? = nil, assignment: String? = nil,
        allowedBy: String? = nil
    ) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.message = message
        self.column = column
        self.assignment = assignment
        self.allowedBy = allowedBy
    }

    /// The key of the assignment at fault, if a value came from one: `present.duration`.
    public var assignedKey: String? {
        assignment.map { String($0.prefix { $0 != "=" }) }
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" + (column.map { ":\($0)" } ?? "") } ?? file
        let text = message + (allowedBy.map { "; \($0) lets it through" } ?? "")
        return keyPath.isEmpty ? "\(place): \(text)" : "\(place): \(keyPath): \(text)"
    }
}

/// Every problem a whole-file check found, sorted by line and column: reported at once, so
/// that one run shows them all.
public struct ConfigProblems: Error, CustomStringConvertible {
    public var problems: [ConfigError]

    /// `problems` sorted; one found twice at the same place (a YAML alias repeats its nodes) is
    /// said once.
    public init(_ problems: [ConfigError]) {
        var seen = Set<String>()
        self.problems = problems.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }.filter {
            $0.line == nil || seen.insert("\($0.line!):\($0.column ?? 0):\($0.message)").inserted
        }
    }

    public var description: String {
        let lines = problems.map(\.description)
        return lines.count == 1 ? lines[0] : "\(lines.count) problems:\n" + lines.joined(separator: "\n")
    }
}
