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

    /// Functions the interpreter adds to `SceneFunctions` (they need the plan being built).
    static let interpreterFunctions = ["if", "releaseVelocity"]

    init(_ model: SceneModel, params: Node.Mapping?) {
        for (k, v) in params ?? [:] {
            guard let key = k.scalarText else { continue }
            names.insert(key)
            self.params(v, prefix: key)
        }
        names.formUnion(model.boundNames)
        for (name, phase) in model.phases.all { phases[name] = phase.parameters.names }
        for (name, pose) in model.poses.all { poses[name] = pose.parameters.names }
        for (name, template) in model.templates.all { templates[name] = template.parameters.names }
        layers(model.layers, prefix: "", templates: model.templates, depth: 0)
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

    /// The layer tree's names: template instances name their template's children
    /// `INSTANCE-CHILD`.
    private mutating func layers(
        _ entries: [SceneLayerEntry], prefix: String, templates: SceneDeclarations<SceneTemplate>, depth: Int
    ) {
        guard depth < 8 else { return }
        for entry in entries {
            switch entry {
            case .loop(let loop): layers(loop.body, prefix: prefix, templates: templates, depth: depth)
            case .layer(let layer):
                let name = prefix + layer.name
                layerPatterns.append(name)
                layers(layer.children ?? [], prefix: prefix, templates: templates, depth: depth)
                if let use = layer.use, let children = templates[use.name]?.body.children {
                    layers(children, prefix: name + "-", templates: templates, depth: depth + 1)
                }
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
}

extension SceneCheck {
    /// A value: a number, a list of values, or an expression whose names and functions exist.
    mutating func expression(_ e: SceneExpr) { expression(e.node, e.path) }

    mutating func expression(_ node: Node, _ path: [String]) {
        if let items = node.sequence {
            for item in items { expression(item, path) }
            return
        }
        guard let text = node.scalarText else {
            return problems.report(node, path, "expected a value or an expression, got \(node.summary)")
        }
        if Double(text) != nil || text.isEmpty { return }
        guard let body = interpolations(in: text, node, path) else { return }
        do {
            names(in: try Expression.parse(body), node, path)
        } catch let error as ExpressionError {
            problems.report(node, path, error.message)
        } catch {
            problems.report(node, path, "\(error)")
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
                problems.report(node, path, "'\(ExpressionParser.excerpt(text))': a '{' is not closed")
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
                problems.report(
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
                problems.report(node, path, "unknown function '\(name)'\(hint)")
            }
            for a in args { names(in: a, node, path) }
        case .field(let base, _): names(in: base, node, path)
        }
    }
}
