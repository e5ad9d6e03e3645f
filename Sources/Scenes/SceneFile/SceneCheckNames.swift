import Foundation
import Yams

/// What a scene file declares, gathered before the whole-file check walks it: the names an
/// expression may use, the phases, poses and templates with their arguments, the image params
/// and the layers a change may name. Names are gathered file-wide (a `let` in one phase counts
/// everywhere), so the check never refuses a name the interpreter would resolve.
struct SceneCheckNames {
    var names: Set<String> = ["canvas", "screen", "gesture", "true", "false"]
    var functions: Set<String> = Set(SceneFunctions.all.map(\.name) + SceneCheckNames.interpreterFunctions)
    var phases: [String: [String]] = [:]
    var poses: [String: [String]] = [:]
    var templates: [String: [String]] = [:]
    var images: Set<String> = []
    let properties = SceneProperty.names
    /// Layer names as written, `{…}` standing for any text.
    var layerPatterns: [String] = []
    private var scanned = 0

    /// Functions the interpreter adds to `SceneFunctions` (they need the plan being built).
    static let interpreterFunctions = ["if", "releaseVelocity"]

    init(_ root: Node.Mapping) {
        for (k, v) in root["params"]?.mapping ?? [:] {
            guard let key = k.scalarText else { continue }
            names.insert(key)
            params(v, prefix: key)
        }
        for (k, _) in root["let"]?.mapping ?? [:] { names.insert(k.scalarText ?? "") }
        func declared(_ section: String) -> [String: [String]] {
            var out: [String: [String]] = [:]
            for (k, v) in root[section]?.mapping ?? [:] {
                out[k.scalarText ?? ""] = v.mapping?["args"]?.sequence?.compactMap(\.scalarText) ?? []
            }
            return out
        }
        phases = declared("phases")
        poses = declared("poses")
        templates = declared("templates")
        scan(Node.mapping(root))
        layers(root["layers"]?.mapping ?? [:], prefix: "", root: root, depth: 0)
    }

    /// Image params: dotted keys whose declaration has an `image` type.
    private mutating func params(_ node: Node, prefix: String) {
        guard let m = node.mapping else { return }
        // A param's type key holds its default (a mapping only for an animation); in a section
        // the same key would be a param's name, holding a mapping.
        func holdsDefault(_ type: String) -> Bool {
            guard let v = m[type] else { return false }
            return v.mapping == nil || type == "animation"
        }
        if holdsDefault("image") {
            images.insert(prefix)
            return
        }
        if SceneFormat.paramTypes.contains(where: { holdsDefault($0.name) }) { return }
        for (k, v) in m where k.scalarText != "doc" { params(v, prefix: prefix + "." + (k.scalarText ?? "")) }
    }

    /// `let` names, arguments and loop variables, wherever they are declared (within the
    /// check's budget of nodes).
    private mutating func scan(_ node: Node) {
        scanned += 1
        guard scanned <= SceneCheck.maximumVisits else { return }
        if let m = node.mapping {
            for (k, v) in m {
                let key = k.scalarText ?? ""
                if key == "let", let lets = v.mapping { for (lk, _) in lets { names.insert(lk.scalarText ?? "") } }
                if key == "args" { for a in v.sequence ?? [] { names.insert(a.scalarText ?? "") } }
                if let variable = Self.loopVariable(key) { names.insert(variable) }
                scan(v)
            }
        } else if let items = node.sequence {
            for item in items { scan(item) }
        }
    }

    /// The layer tree's names: template instances name their template's children
    /// `INSTANCE-CHILD`.
    private mutating func layers(_ m: Node.Mapping, prefix: String, root: Node.Mapping, depth: Int) {
        guard depth < 8 else { return }
        for (k, v) in m {
            guard let key = k.scalarText else { continue }
            if key.hasPrefix("for ") {
                layers(v.mapping ?? [:], prefix: prefix, root: root, depth: depth)
                continue
            }
            let name = prefix + key
            layerPatterns.append(name)
            guard let body = v.mapping else { continue }
            if let children = body["children"]?.mapping {
                layers(children, prefix: prefix, root: root, depth: depth)
            }
            if let t = body["use"]?.scalarText, let template = root["templates"]?.mapping?[t]?.mapping,
                let children = template["children"]?.mapping
            {
                layers(children, prefix: name + "-", root: root, depth: depth + 1)
            }
        }
    }

    /// Whether some layer can be called `name`.
    func isLayer(_ name: String) -> Bool {
        layerPatterns.contains { Self.matches(name, $0) }
    }

    /// The layers whose names are written out, for "did you mean".
    var literalLayers: [String] { layerPatterns.filter { !$0.contains("{") } }

    /// Whether `name` can be what `pattern` makes, each `{…}` in it standing for some text.
    static func matches(_ name: String, _ pattern: String) -> Bool {
        guard pattern.contains("{") else { return name == pattern }
        var parts: [Substring] = []
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            parts.append(rest[..<open])
            rest = rest[rest.index(after: close)...]
        }
        parts.append(rest)
        guard name.hasPrefix(parts[0]), name.hasSuffix(parts[parts.count - 1]) else { return false }
        var index = name.index(name.startIndex, offsetBy: parts[0].count)
        let end = name.index(name.endIndex, offsetBy: -parts[parts.count - 1].count)
        guard index <= end else { return false }
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = name[index..<end].range(of: part) else { return false }
            index = found.upperBound
        }
        return true
    }

    /// `for NAME in A...B` → NAME.
    static func loopVariable(_ key: String) -> String? {
        guard key.hasPrefix("for ") else { return nil }
        let parts = key.dropFirst(4).components(separatedBy: " in ")
        guard parts.count == 2, parts[1].contains("...") else { return nil }
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }
}

extension SceneCheck {
    /// A value: a number, a list of values, or an expression whose names and functions exist.
    mutating func expression(_ node: Node, _ path: [String]) {
        guard visit() else { return }
        if let items = node.sequence {
            for item in items { expression(item, path) }
            return
        }
        guard let text = node.scalarText else {
            return report(node, path, "expected a value or an expression, got \(node.summary)")
        }
        if Double(text) != nil || text.isEmpty { return }
        guard let body = interpolations(in: text, node, path) else { return }
        do {
            names(in: try Expression.parse(body), node, path)
        } catch let error as ExpressionError {
            report(node, path, error.message)
        } catch {
            report(node, path, "\(error)")
        }
    }

    /// Checks each `{expression}` in `text`; returns the text with each replaced by a name that
    /// stands for it (nil if a brace is not closed).
    @discardableResult
    mutating func interpolations(in text: String, _ node: Node, _ path: [String]) -> String? {
        guard text.contains("{") else { return text }
        var out = "", rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                report(node, path, "'\(ExpressionParser.excerpt(text))': a '{' is not closed")
                return nil
            }
            expression(scalarNode(String(rest[rest.index(after: open)..<close]), at: node.mark), path)
            out += SceneCheck.spliced
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// What stands for an interpolated value inside an expression's text: a name made with one
    /// is not checked, since its value is only known when the plan is built.
    static let spliced = "__spliced__"

    mutating func names(in e: Expression, _ node: Node, _ path: [String]) {
        switch e {
        case .literal: break
        case .name(let parts):
            let first = parts[0]
            if !first.contains(SceneCheck.spliced) && !known.names.contains(first) {
                let hint = Suggestion.hint(for: first, in: known.names.sorted())
                report(
                    node, path,
                    "unknown name '\(parts.joined(separator: "."))'\(hint); expected a param, a let value, an argument, canvas, screen or gesture"
                )
            }
        case .unary(_, let a): names(in: a, node, path)
        case .binary(_, let a, let b):
            names(in: a, node, path)
            names(in: b, node, path)
        case .call(let name, let args):
            if !known.functions.contains(name) {
                let hint = Suggestion.hint(for: name, in: known.functions.sorted())
                report(node, path, "unknown function '\(name)'\(hint)")
            }
            for a in args { names(in: a, node, path) }
        case .field(let base, _): names(in: base, node, path)
        }
    }
}
