import Foundation
import Yams

/// Changes values in a YAML document's text and nothing else: a value that is there has its
/// text replaced where it stands (its quoting kept), a key that is not there is added to the
/// innermost mapping that is, in that mapping's style. Comments, key order, quoting and
/// indentation stay as written, so a diff shows one line per changed value.
public enum ValueEdit {
    /// One change: the key path from the document's top and the new value's YAML text.
    public struct Change: Sendable, Hashable {
        public var path: [String]
        public var value: String

        public init(path: [String], value: String) {
            self.path = path
            self.value = value
        }
    }

    /// `text` (the file `file`) with every change applied, one after another.
    public static func apply(_ changes: [Change], to text: String, file: String) throws -> String {
        var text = text
        for change in changes { text = try apply(change, to: text, file: file) }
        return text
    }

    static func apply(_ change: Change, to text: String, file: String) throws -> String {
        let node = try ConfigDocument.compose(text, file: file)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        let keyPath = change.path.joined(separator: ".")
        guard let root = node else {
            // An empty document: the change is its first key.
            let prefix = text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
            return prefix + nested(change.path, quotedIfNeeded(change.value, inFlow: change.path.count > 1)) + "\n"
        }
        // The deepest mapping on the path that exists, and the value node if the whole path does.
        var current = root
        var depth = 0
        while depth < change.path.count {
            guard let mapping = current.mapping else {
                throw ConfigError(
                    file: file, line: current.mark?.line, keyPath: change.path[..<depth].joined(separator: "."),
                    message: "expected a mapping here to set \(keyPath)")
            }
            // A key the file spells by its former name is edited where it stands.
            let spellings = [change.path[depth]] + (FormerNames.of[change.path[depth]] ?? [])
            guard let child = spellings.lazy.compactMap({ mapping[$0] }).first else { break }
            current = child
            depth += 1
        }
        if depth == change.path.count {
            try replace(current, with: change.value, in: &lines, file: file, keyPath: keyPath)
        } else {
            try insert(
                Array(change.path[depth...]), change.value, into: current, in: &lines, file: file, keyPath: keyPath)
        }
        let edited = lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
        try checkReadsBack(change, in: edited, file: file)
        return edited
    }

    /// Throws unless the edited text still parses and holds the new value at its key: an edit
    /// never writes a file that reads otherwise than asked.
    private static func checkReadsBack(_ change: Change, in text: String, file: String) throws {
        let keyPath = change.path.joined(separator: ".")
        let failure = { (why: String) in
            ConfigError(
                file: file, line: nil, keyPath: keyPath, message: "\(change.value) cannot be written here: \(why)")
        }
        let root: Node?
        do {
            root = try ConfigDocument.compose(text, file: file)
        } catch {
            throw failure("the file would no longer parse")
        }
        var node = root
        for key in change.path {
            let spellings = [key] + (FormerNames.of[key] ?? [])
            node = node?.mapping.flatMap { m in spellings.lazy.compactMap { m[$0] }.first }
        }
        guard let node else { throw failure("the key would not be there") }
        guard case .scalar(let scalar) = node else { return }
        let expected = change.value.first == "[" || change.value.first == "{" ? nil : unquoted(change.value)
        if let expected, scalar.string != expected {
            throw failure("it would read back as \(scalar.string)")
        }
    }

    /// `a: {b: value}` for the keys `[a, b]`.
    static func nested(_ keys: [String], _ value: String) -> String {
        keys.reversed().dropFirst().reduce("\(keys.last!): \(value)") { "\($1): {\($0)}" }
    }

    // MARK: Replacing a value

    private static func replace(
        _ node: Node, with value: String, in lines: inout [[Unicode.Scalar]], file: String, keyPath: String
    ) throws {
        guard let mark = node.mark else {
            throw ConfigError(file: file, line: nil, keyPath: keyPath, message: "the value has no position to edit")
        }
        let row = mark.line - 1, start = mark.column - 1
        guard row < lines.count, start <= lines[row].count else {
            throw ConfigError(
                file: file, line: mark.line, keyPath: keyPath, message: "the value is not where YAML put it")
        }
        let line = lines[row]
        let end: Int
        var replacement = value
        switch node {
        case .scalar(let scalar):
            if scalar.style == .singleQuoted || scalar.style == .doubleQuoted {
                end = try closingQuote(line, from: start, file: file, mark: mark, keyPath: keyPath) + 1
                replacement = quote(unquoted(value), style: scalar.style)
            } else if scalar.style == .plain {
                end = plainEnd(line, from: start)
                if needsQuotes(value, inFlow: isInFlow(line, before: start)) {
                    replacement = quote(value, style: .doubleQuoted)
                }
            } else {
                throw ConfigError(
                    file: file, line: mark.line, keyPath: keyPath,
                    message: "a block scalar (| or >) cannot be changed in place; write the value on its line")
            }
        case .sequence,
            .mapping where isFlow(line, at: start):
            end = try closingBracket(line, from: start, file: file, mark: mark, keyPath: keyPath) + 1
        default:
            throw ConfigError(
                file: file, line: mark.line, keyPath: keyPath,
                message: "a value over several lines cannot be changed in place; write it on one line, as [a, b]")
        }
        lines[row].replaceSubrange(start..<end, with: Array(replacement.unicodeScalars))
    }

    /// Whether the collection starting at `start` is written in flow style (`{…}` or `[…]`).
    /// The text says so; Yams's node styles are not reliable for collections.
    private static func isFlow(_ line: [Unicode.Scalar], at start: Int) -> Bool {
        start < line.count && (line[start] == "{" || line[start] == "[")
    }

    /// Whether a value starting at `start` stands inside a flow collection on its line.
    private static func isInFlow(_ line: [Unicode.Scalar], before start: Int) -> Bool {
        line[..<start].contains { $0 == "{" || $0 == "[" }
    }

    /// Where a plain scalar starting at `start` ends: before a comment, a flow delimiter or
    /// the line's end, trailing spaces left out.
    private static func plainEnd(_ line: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        let inFlow = isInFlow(line, before: start)
        while i < line.count {
            let c = line[i]
            if c == "#" && i > start && (line[i - 1] == " " || line[i - 1] == "\t") { break }
            if inFlow && (c == "," || c == "}" || c == "]") { break }
            if c == ":" && (i + 1 == line.count || line[i + 1] == " ") && inFlow { break }
            i += 1
        }
        while i > start && (line[i - 1] == " " || line[i - 1] == "\t") { i -= 1 }
        return i
    }

    private static func closingQuote(
        _ line: [Unicode.Scalar], from start: Int, file: String, mark: Mark, keyPath: String
    ) throws -> Int {
        let q = line[start]
        var i = start + 1
        while i < line.count {
            if q == "\"" && line[i] == "\\" {
                i += 2
                continue
            }
            if line[i] == q {
                if q == "'" && i + 1 < line.count && line[i + 1] == "'" {
                    i += 2
                    continue
                }
                return i
            }
            i += 1
        }
        throw ConfigError(
            file: file, line: mark.line, keyPath: keyPath,
            message: "a quoted value over several lines cannot be changed in place")
    }

    /// The index of the bracket that closes the one at `start`, quotes and nesting respected.
    private static func closingBracket(
        _ line: [Unicode.Scalar], from start: Int, file: String, mark: Mark, keyPath: String
    ) throws -> Int {
        var depth = 0
        var i = start
        while i < line.count {
            let c = line[i]
            if c == "\"" || c == "'" {
                i = try closingQuote(line, from: i, file: file, mark: mark, keyPath: keyPath) + 1
                continue
            }
            if c == "[" || c == "{" { depth += 1 }
            if c == "]" || c == "}" {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        throw ConfigError(
            file: file, line: mark.line, keyPath: keyPath,
            message: "a value over several lines cannot be changed in place; write it on one line, as [a, b]")
    }

    // MARK: Adding a key

    private static func insert(
        _ keys: [String], _ value: String, into node: Node, in lines: inout [[Unicode.Scalar]], file: String,
        keyPath: String
    ) throws {
        guard case .mapping = node, let mark = node.mark else {
            throw ConfigError(file: file, line: node.mark?.line, keyPath: keyPath, message: "expected a mapping here")
        }
        let inFlow = isFlow(lines[mark.line - 1], at: mark.column - 1)
        let entry = nested(keys, quotedIfNeeded(value, inFlow: inFlow || keys.count > 1))
        if inFlow {
            let row = mark.line - 1
            let open = mark.column - 1
            let close = try closingBracket(lines[row], from: open, file: file, mark: mark, keyPath: keyPath)
            let empty = lines[row][(open + 1)..<close].allSatisfy { $0 == " " }
            var end = close
            while end > open + 1 && lines[row][end - 1] == " " { end -= 1 }
            lines[row].replaceSubrange(end..<close, with: Array(((empty ? "" : ", ") + entry).unicodeScalars))
            return
        }
        // A block mapping: a new line after its last, indented as its first key.
        let indent = String(repeating: " ", count: mark.column - 1)
        let last = lastLine(of: node)
        lines.insert(Array((indent + entry).unicodeScalars), at: min(last, lines.count))
    }

    /// The 1-based line of the last value inside `node`.
    private static func lastLine(of node: Node) -> Int {
        switch node {
        case .mapping(let m):
            return m.map { max(lastLine(of: $0.key), lastLine(of: $0.value)) }.max() ?? (node.mark?.line ?? 0)
        case .sequence(let s): return s.map(lastLine(of:)).max() ?? (node.mark?.line ?? 0)
        default: return node.mark?.line ?? 0
        }
    }

    // MARK: Quoting

    /// Whether `value` must be quoted to read back as itself; inside `{…}` or `[…]` a comma
    /// or a bracket would end it (`bezier:0.2,0,0,1`).
    private static func needsQuotes(_ value: String, inFlow: Bool) -> Bool {
        guard let first = value.unicodeScalars.first else { return true }
        if "[{".unicodeScalars.contains(first) { return false }
        if inFlow && value.unicodeScalars.contains(where: { ",[]{}".unicodeScalars.contains($0) }) { return true }
        return "#&*!|>%@`'\"".unicodeScalars.contains(first) || value.contains(": ") || value.contains(" #")
            || value.hasSuffix(":")
    }

    private static func quotedIfNeeded(_ value: String, inFlow: Bool) -> String {
        needsQuotes(value, inFlow: inFlow) && !value.hasPrefix("\"") && !value.hasPrefix("'")
            ? quote(value, style: .doubleQuoted) : value
    }

    private static func unquoted(_ value: String) -> String {
        if value.count >= 2, let f = value.first, f == value.last, f == "\"" || f == "'" {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    private static func quote(_ value: String, style: Node.Scalar.Style) -> String {
        if style == .singleQuoted { return "'" + value.replacingOccurrences(of: "'", with: "''") + "'" }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }
}
