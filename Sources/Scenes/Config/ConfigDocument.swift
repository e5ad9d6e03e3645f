import FileInput
import Foundation
import Geometry
import Yams

/// Reads YAML config files against a scene's fields, and prints the documented defaults.
public enum ConfigDocument {
    /// The config version this Flipbook reads.
    public static let version = 1

    /// Applies `yaml` (from `file`) over `defaults`. Every key is optional; unknown keys, wrong
    /// types and out-of-range values are errors naming the file, line and key path.
    public static func read<Root>(
        _ yaml: String, file: String, over defaults: Root, fields: [ConfigField<Root>],
        folder: String? = nil
    ) throws -> Root {
        try read(compose(yaml, file: file), file: file, over: defaults, fields: fields, folder: folder)
    }

    /// Applies a composed document (nil: an empty one) as `read(_:file:over:fields:folder:)` does.
    private static func read<Root>(
        _ node: Node?, file: String, over defaults: Root, fields: [ConfigField<Root>], folder: String?
    ) throws -> Root {
        var root = defaults
        guard let node else { return root }  // an empty file keeps every default
        guard let mapping = node.mapping else {
            throw ConfigError(
                file: file, line: node.mark?.line, keyPath: "",
                message: "expected a mapping of settings at the top, got \(node.summary)")
        }
        if let v = mapping["version"] {
            guard v.scalarText == String(version) else {
                throw ConfigError(
                    file: file, line: v.mark?.line, keyPath: "version", message: "expected \(version), got \(v.summary)"
                )
            }
        }
        let base = folder ?? parentFolder(of: file)
        try apply(
            mapping, fields: fields, to: &root, context: ConfigContext(file: file, folder: base, path: []),
            skipping: ["version"])
        return root
    }

    /// Applies one `key.path=value` assignment (a command line's `--set`, a manifest's or the
    /// studio's value); relative paths are from the working directory. Errors name the
    /// assignment as their file, and carry it as `assignment`.
    public static func read<Root>(assignment: String, over root: Root, fields: [ConfigField<Root>]) throws -> Root {
        let name = assignment
        guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
            throw ConfigError(
                file: name, line: nil, keyPath: "", message: "expected key.path=value", assignment: assignment)
        }
        let keys = assignment[..<eq].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard keys.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber } }) else {
            throw ConfigError(
                file: name, line: nil, keyPath: "",
                message: "expected key.path=value, with names of letters and digits",
                assignment: assignment)
        }
        var value = String(assignment[assignment.index(after: eq)...])
        let plainNumber = isPlainNumber(value)
        // A value YAML would read as something else (a comment, an anchor, a tag…) is quoted, so
        // `--set layout.barColor=#FF0000` means the colour. (A plain number is none of those.)
        let special = value.first.map { "#&*!|>%@`".contains($0) } ?? true
        if !plainNumber && (special || value.contains(": ") || value.contains(" #")) {
            value = "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        }
        func yaml(_ value: String) -> String {
            var yaml = ""
            for (depth, key) in keys.enumerated() {
                yaml +=
                    String(repeating: "  ", count: depth) + key + ":" + (depth == keys.count - 1 ? " " + value : "")
                    + "\n"
            }
            return yaml
        }
        do {
            // A plain number's document is built as YAML composes it, not parsed, and applied
            // as `read` applies one with no version in it: a fit assigns thousands.
            guard plainNumber else {
                return try read(compose(yaml(value), file: name), file: name, over: root, fields: fields, folder: "")
            }
            let node = numberDocument(keys, value)
            guard keys.first != "version", let mapping = node.mapping else {
                return try read(node, file: name, over: root, fields: fields, folder: "")
            }
            var read = root
            try apply(
                mapping, fields: fields, to: &read, context: ConfigContext(file: name, folder: "", path: []),
                skipping: ["version"])
            return read
        } catch var error as ConfigError {
            error.line = nil
            error.assignment = assignment
            throw error
        }
    }

    /// Whether `text` is digits with an optional sign and fraction: YAML's plain scalar of the
    /// same shape as `0`.
    static func isPlainNumber(_ text: String) -> Bool {
        var digits = text.utf8.drop { $0 == UInt8(ascii: "-") }
        guard digits.count < text.utf8.count ? text.utf8.count - digits.count == 1 : true else { return false }
        if let dot = digits.firstIndex(of: UInt8(ascii: ".")) {
            let fraction = digits[digits.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return false }
            digits = digits[..<dot]
        }
        return !digits.isEmpty && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// The document `key.path: number` composes to (the basic resolver's plain scalars in
    /// block mappings), built; without marks, as an assignment's errors name no line.
    static func numberDocument(_ keys: [String], _ number: String) -> Node {
        func tag() -> Tag { Tag(.implicit, .basic, numberConstructor) }
        var node = Node.scalar(Node.Scalar(number, tag(), .plain))
        for key in keys.reversed() {
            node = .mapping(Node.Mapping([(.scalar(Node.Scalar(key, tag(), .plain)), node)], tag(), .block))
        }
        return node
    }

    /// The constructor of a number document's tags: Yams' default, made once (`.default` makes
    /// its tables afresh each time it is asked). Its tables are never changed.
    private nonisolated(unsafe) static let numberConstructor = Constructor.default

    /// Reads a config file.
    public static func read<Root>(file: String, over defaults: Root, fields: [ConfigField<Root>]) throws -> Root {
        try read(readText(file: file), file: file, over: defaults, fields: fields)
    }

    /// A YAML file's text; errors name the file.
    public static func text(of file: String) throws -> String { try readText(file: file) }

    /// The most bytes a scene file or config may have: thousands of times a real one.
    public static let maximumBytes = 16 << 20

    package static func readText(file: String) throws -> String {
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(file, maximumBytes: maximumBytes)
        } catch let error as FileInputError {
            let message: String
            switch error {
            case .notFound: message = "no such file"
            case .directory: message = "is a directory, not a YAML file"
            case .unreadable(let reason): message = "cannot read the file: \(reason)"
            case .tooLarge(let limit):
                message = "more than \(budgetText(limit)): far past any scene file or config (is it the right file?)"
            }
            throw ConfigError(file: file, line: nil, keyPath: "", message: message)
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: file, line: nil, keyPath: "", message: "not UTF-8 text")
        }
        // A byte-order mark is no part of the YAML (some editors write one).
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text
    }

    static func apply<Root>(
        _ mapping: Node.Mapping, fields: [ConfigField<Root>], to root: inout Root, context: ConfigContext,
        skipping: Set<String> = []
    ) throws {
        // Yams already refuses a mapping with a key twice; a key and its former name are refused here.
        var given: [String: String] = [:]
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalarText else { throw context.error(keyNode, "keys must be names") }
            if skipping.contains(key) { continue }
            var cx = context
            cx.path.append(key)
            // A field's own key, or one of its former spellings (`ConfigField.aliases`).
            let formerOf = FormerNames.currentNames[key] ?? []
            let field = fields.first { $0.key == key || formerOf.contains($0.key) }
            if let field {
                if let other = given[field.key] {
                    throw cx.error(
                        keyNode, "'\(key)' and '\(other)' are two spellings of one value (\(field.key)); give one")
                }
                given[field.key] = key
            }
            guard let field else {
                throw cx.error(keyNode, "unknown key; expected one of \(fields.map(\.key).joined(separator: ", "))")
            }
            switch field.kind {
            case .leaf(let read, _):
                try read(&root, value, cx)
            case .section(let children):
                guard let m = value.mapping else {
                    throw cx.error(
                        value,
                        "expected a mapping of \(children.map(\.key).joined(separator: ", ")), got \(value.summary)")
                }
                try apply(m, fields: children, to: &root, context: cx)
            }
        }
    }

    /// The YAML for `root`, every key with its comment: what `flipbook config SCENE` prints.
    /// With `unread`, each key path in it is marked as one that `storyboard` does not read.
    public static func render<Root>(
        _ root: Root, fields: [ConfigField<Root>], title: String, unread: Set<String> = [], storyboard: String = ""
    ) -> String {
        var out =
            "# \(title)\n# Every key is optional: a file with only the keys you change is enough.\nversion: \(version)\n"
        let mark = " (not read by the \(storyboard) storyboard)"
        func walk(_ fields: [ConfigField<Root>], indent: String, path: [String]) {
            for f in fields {
                let key = (path + [f.key]).joined(separator: ".")
                let note = unread.contains(key) ? mark : ""
                switch f.kind {
                case .leaf(_, let show):
                    out += "\(indent)\(f.key): \(show(root))  # \(f.doc)\(note)\n"
                case .section(let children):
                    out += "\(indent)# \(f.doc)\(note)\n\(indent)\(f.key):\n"
                    walk(children, indent: indent + "  ", path: path + [f.key])
                }
            }
        }
        walk(fields, indent: "", path: [])
        return out
    }

    /// Every key path the config `file` gives a value at (`expand.dampingRatio`), with its
    /// line; none when it does not read as YAML (reading it says why).
    package static func keyPaths(ofFile file: String) -> [(keyPath: String, line: Int?)] {
        guard let text = try? readText(file: file), let node = try? compose(text, file: file) else { return [] }
        var found: [(String, Int?)] = []
        func walk(_ node: Node, _ path: [String]) {
            guard let mapping = node.mapping else {
                return found.append((path.joined(separator: "."), node.mark?.line))
            }
            for (key, value) in mapping { if let name = key.scalarText { walk(value, path + [name]) } }
        }
        walk(node, [])
        return found
    }

    /// The YAML document in `text` (nil when it is empty); a syntax error names the file and line.
    /// Every scalar is read as text (Yams's basic resolver): the readers parse numbers, flags
    /// and colours themselves, so YAML's own typing of each scalar (a regular expression per
    /// scalar, and per key looked up) is work nothing reads.
    package static func compose(_ text: String, file: String) throws -> Node? {
        do {
            let node = try Yams.compose(yaml: text, .basic)
            if let node, let alias = overExpanded(node) {
                throw ConfigError(
                    file: file, line: alias.mark?.line, keyPath: "",
                    message: "the file expands to more than \(maximumNodes) parts; YAML aliases repeat what they name"
                )
            }
            return node
        } catch let error as YamlError {
            throw ConfigError(
                file: file, line: yamlLine(error), keyPath: "", message: "not valid YAML: \(yamlMessage(error))")
        }
    }

    /// The most nodes a document may hold with its aliases expanded: far past any scene,
    /// config or manifest, and far short of the billions a few lines of aliases can expand
    /// to, which every reader would otherwise walk. Checked once, for every reader, here.
    static let maximumNodes = 200_000

    /// The node at which `root`, with every alias expanded, passes `maximumNodes`; nil within.
    /// The walk stops there, so it costs at most that many steps.
    static func overExpanded(_ root: Node) -> Node? {
        var count = 0
        func walk(_ node: Node) -> Node? {
            count += 1
            if count > maximumNodes { return node }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    if let over = walk(key) ?? walk(value) { return over }
                }
            case .sequence(let sequence):
                for item in sequence { if let over = walk(item) { return over } }
            default: break
            }
            return nil
        }
        return walk(root)
    }

    static func yamlLine(_ e: YamlError) -> Int? {
        switch e {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        case .duplicatedKeysInMapping(_, let context): return context.mark.line
        default: return nil
        }
    }

    /// The problem alone: Yams's own descriptions quote the document (all of it, or a line of
    /// any length and any bytes), which a message never does; the line number says where.
    static func yamlMessage(_ e: YamlError) -> String {
        switch e {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return problem.components(separatedBy: "\nContext:").first ?? problem
        case .duplicatedKeysInMapping(let duplicates, _):
            let keys = duplicates.map { "'\($0.prefix(40))'" }.joined(separator: ", ")
            return "a mapping has the key\(duplicates.count == 1 ? "" : "s") \(keys) more than once"
        case .reader(let problem, let offset, let value, _):
            return "\(problem) (byte \(offset.map(String.init) ?? "?"), value \(value))"
        default:
            return String(("\(e)".split(separator: "\n").first ?? "").prefix(200))
        }
    }
}
