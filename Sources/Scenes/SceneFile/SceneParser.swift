import Foundation
import Planner
import Yams

/// Reads a scene file's YAML once into a `SceneModel`, gathering every problem of shape (a
/// key that is not one, a list where a mapping goes, a step with two kinds, a drag without a
/// distance) with its line, column and key path, whether or not the chosen storyboard uses the
/// part. The keys it knows are `SceneFormat`'s; names and expressions are `SceneCheck`'s to
/// check, on the model this builds.
struct SceneParser {
    var problems: SceneProblems
    private(set) var model = SceneModel()

    /// Reads `root`, the scene file `file`.
    init(_ root: Node.Mapping, file: String) {
        problems = SceneProblems(file: file)
        for (k, v) in root {
            guard let key = k.scalarText else { continue }
            let path = [key]
            switch key {
            case "layers": model.layers = layers(v, path)
            case "templates": templates(v, path)
            case "poses": poses(v, path)
            case "phases": phases(v, path)
            case "storyboards": storyboards(v, path)
            case "let": model.lets = bindings(v, path)
            case "require": requirements(v, path)
            case _ where !SceneFormat.topLevel.contains(where: { $0.name == key }):
                problems.unknown(k, path: [], what: "key", in: SceneFormat.topLevel.map(\.name))
            default: break
            }
        }
    }

    func expr(_ node: Node, _ path: [String]) -> SceneExpr { SceneExpr(node: node, path: path) }

    /// Reports each key of `m` not in `allowed`; whether there was none.
    @discardableResult
    mutating func keys(_ m: Node.Mapping, _ path: [String], allowed: [String]) -> Bool {
        let unknown = m.keys.filter { !allowed.contains($0.scalarText ?? "") }
        for k in unknown { problems.unknown(k, path: path, what: "key", in: allowed) }
        return unknown.isEmpty
    }

    // MARK: Layers and templates

    mutating func layers(_ node: Node, _ path: [String]) -> [SceneLayerEntry] {
        guard let m = node.mapping else {
            problems.report(node, path, "expected a mapping of layers")
            return []
        }
        var out: [SceneLayerEntry] = []
        for (k, v) in m {
            guard let name = k.scalarText else {
                problems.report(k, path, "a layer's name is text")
                continue
            }
            guard name.hasPrefix("for ") else {
                if let layer = layer(v, k, name: name, path + [name], template: false) { out.append(.layer(layer)) }
                continue
            }
            let body = layers(v, path + [name])
            guard let (variable, bounds) = Self.loop(name) else {
                problems.report(k, path, "expected 'for NAME in FIRST...LAST', got '\(name)'")
                continue
            }
            model.boundNames.insert(variable)
            out.append(.loop(SceneLoop(key: k, path: path + [name], variable: variable, bounds: bounds, body: body)))
        }
        return out
    }

    /// `for NAME in A...B` → NAME and [A, B].
    static func loop(_ key: String) -> (String, [String])? {
        let parts = key.dropFirst(4).components(separatedBy: " in ")
        let bounds = parts.count == 2 ? parts[1].components(separatedBy: "...") : []
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        guard parts.count == 2, isName(name), bounds.count == 2 else { return nil }
        return (name, bounds)
    }

    mutating func layer(_ node: Node, _ key: Node, name: String, _ path: [String], template: Bool) -> SceneLayer? {
        guard let m = node.mapping else {
            problems.report(
                node, path,
                "expected a layer: a mapping of \(SceneFormat.layerKeys.map(\.name).joined(separator: ", "))")
            return nil
        }
        let allowed =
            template
            ? ["args"] + SceneFormat.layerKeys.map(\.name).filter { $0 != "use" && $0 != "with" }
            : SceneFormat.layerKeys.map(\.name)
        var layer = SceneLayer(name: name, key: key, path: path)
        for (k, v) in m {
            guard let key = k.scalarText, allowed.contains(key) else {
                problems.unknown(k, path: path, what: "key", in: allowed)
                continue
            }
            let at = path + [key]
            switch key {
            case "children": layer.children = layers(v, at)
            case "args": break
            case "use":
                if let t = v.scalarText {
                    layer.use = (t, v)
                } else {
                    problems.report(v, at, "expected a template's name")
                }
            case "with": layer.with = arguments(v, at)
            case "mode":
                if v.scalarText.flatMap(ContentMode.init(rawValue:)) == nil {
                    problems.unknown(v, path: at, what: "mode", in: ContentMode.allCases.map(\.rawValue))
                }
                layer.values[key] = expr(v, at)
            default: layer.values[key] = expr(v, at)
            }
        }
        if let color = m["color"], m["image"] != nil {
            problems.report(color, path, "a layer shows an image or a colour, not both")
        }
        return layer
    }

    mutating func templates(_ node: Node, _ path: [String]) {
        guard let m = node.mapping else { return problems.report(node, path, "expected a mapping of templates") }
        for (k, v) in m {
            let name = k.scalarText ?? ""
            guard let body = layer(v, k, name: name, path + [name], template: true) else { continue }
            model.templates[name] = SceneTemplate(parameters: parameters(v.mapping?["args"], path + [name]), body: body)
        }
    }

    /// `args: [a, b]` of a template, phase or pose.
    mutating func parameters(_ node: Node?, _ path: [String]) -> SceneParameters {
        guard let node else { return SceneParameters() }
        guard let items = node.sequence, items.allSatisfy({ $0.scalarText.map(isName) == true }) else {
            problems.report(node, path + ["args"], "expected a list of names: [a, b]")
            return SceneParameters()
        }
        let names = items.compactMap(\.scalarText)
        model.boundNames.formUnion(names)
        return SceneParameters(names: names, node: node)
    }

    /// `{arg: value}` given to `what` (`phase NAME`, `pose NAME`, `template NAME`).
    func arguments(_ node: Node, _ path: [String]) -> SceneArguments {
        guard let m = node.mapping else { return SceneArguments(node: node, path: path, values: nil) }
        var values: [(String, Node, SceneExpr)] = []
        for (k, v) in m {
            let name = k.scalarText ?? ""
            values.append((name, k, expr(v, path + [name])))
        }
        return SceneArguments(node: node, path: path, values: values)
    }

    // MARK: Poses, values, checks

    mutating func poses(_ node: Node, _ path: [String]) {
        guard let m = node.mapping else { return problems.report(node, path, "expected a mapping of poses") }
        for (k, v) in m {
            let name = k.scalarText ?? ""
            let at = path + [name]
            guard let body = v.mapping else {
                problems.report(v, at, "expected a pose: {args: [a], layer.property: value, …}")
                continue
            }
            let changes = body.filter { $0.key.scalarText != "args" }.flatMap { change($0.key, $0.value, at) }
            model.poses[name] = ScenePose(parameters: parameters(body["args"], at), changes: changes)
        }
    }

    /// A `layer.property: value` change or a `pose:` entry.
    mutating func change(_ key: Node, _ value: Node, _ path: [String]) -> [SceneChange] {
        guard let text = key.scalarText else { return [] }
        if text == "pose" { return [.poses(poseCalls(value, path + ["pose"]))] }
        guard text.contains(".") else {
            problems.report(key, path + [text], "expected layer.property or pose, got '\(text)'")
            return []
        }
        return [.property(key: text, node: key, value: expr(value, path + [text]))]
    }

    /// `pose: name`, `pose: [a, b: {arg: value}]`.
    mutating func poseCalls(_ node: Node, _ path: [String]) -> [ScenePoseCall] {
        (node.sequence ?? [node]).map { item in
            var nameNode = item, args: SceneArguments? = nil
            if let m = item.mapping, m.count == 1, let (k, v) = m.first {
                nameNode = k
                args = arguments(v, path + [k.scalarText ?? ""])
            }
            return ScenePoseCall(name: nameNode.scalarText ?? "", node: nameNode, path: path, arguments: args)
        }
    }

    /// A mapping of `name: expression` (a `let`).
    mutating func bindings(_ node: Node, _ path: [String]) -> [SceneBinding] {
        guard let m = node.mapping else {
            problems.report(node, path, "expected a mapping of name: value")
            return []
        }
        return m.compactMap { k, v in
            guard let name = k.scalarText, isName(name) else {
                problems.report(k, path, "a name is letters, digits and _, got \(k.summary)")
                return nil
            }
            model.boundNames.insert(name)
            return SceneBinding(name: name, value: expr(v, path + [name]))
        }
    }

    mutating func requirements(_ node: Node, _ path: [String]) {
        guard let items = node.sequence else { return problems.report(node, path, "expected a list of checks") }
        for (i, item) in items.enumerated() {
            let at = path + ["\(i)"]
            // A misspelt key is said as one, not as the key it leaves out.
            guard let m = item.mapping, keys(m, at, allowed: SceneFormat.requireKeys.map(\.name)) else {
                if item.mapping == nil { problems.report(item, at, "expected {that: test, key: param, message: text}") }
                continue
            }
            guard let that = m["that"], let key = m["key"]?.scalarText, let message = m["message"] else {
                problems.report(item, at, "expected {that: test, key: param, message: text}")
                continue
            }
            model.requirements.append(
                SceneRequirement(that: expr(that, at + ["that"]), key: key, message: expr(message, at)))
        }
    }

    // MARK: Phases and storyboards

    mutating func phases(_ node: Node, _ path: [String]) {
        guard let m = node.mapping else { return problems.report(node, path, "expected a mapping of phases") }
        for (k, v) in m {
            let name = k.scalarText ?? ""
            let at = path + [name]
            guard let body = v.mapping else {
                model.phases[name] = ScenePhase(key: k, parameters: SceneParameters(), steps: steps(v, at))
                continue
            }
            keys(body, at, allowed: SceneFormat.phaseKeys.map(\.name))
            var list: [SceneStep] = []
            if let s = body["steps"] {
                list = steps(s, at + ["steps"])
            } else {
                problems.report(v, at, "expected steps: [steps]")
            }
            model.phases[name] = ScenePhase(key: k, parameters: parameters(body["args"], at), steps: list)
        }
    }

    mutating func storyboards(_ node: Node, _ path: [String]) {
        // SceneFile says what a storyboards key that is not a mapping should be.
        guard let m = node.mapping else { return }
        for (k, v) in m {
            let name = k.scalarText ?? ""
            let at = path + [name]
            var board = SceneStoryboard()
            if let body = v.mapping {
                keys(body, at, allowed: SceneFormat.storyboardKeys.map(\.name))
                if let l = body["let"] { board.lets = bindings(l, at + ["let"]) }
                board.length = body["length"].map { expr($0, at + ["length"]) }
                if let s = body["steps"] {
                    board.steps = steps(s, at + ["steps"])
                } else {
                    problems.report(v, at, "expected steps: [steps]")
                }
            } else {
                board.steps = steps(v, at)
            }
            model.storyboards[name] = board
        }
    }
}

/// The problems a scene file's reading and checking find, each with its place.
struct SceneProblems {
    let file: String
    var list: [ConfigError] = []

    mutating func report(_ node: Node, _ path: [String], _ message: String) {
        list.append(
            ConfigError(
                file: file, line: node.mark?.line, keyPath: path.joined(separator: "."), message: message,
                column: node.mark?.column))
    }

    /// "unknown key 'x'; did you mean y? expected one of …".
    mutating func unknown(_ node: Node, path: [String], what: String, in candidates: [String]) {
        let name = node.scalarText ?? node.summary
        let hint = Suggestion.hint(for: name, in: candidates)
        report(node, path, "unknown \(what) '\(name)'\(hint); expected one of \(candidates.joined(separator: ", "))")
    }
}

/// Whether `s` is a name: letters, digits and _, not starting with a digit.
func isName(_ s: String) -> Bool {
    guard let first = s.first, first.isLetter || first == "_" else { return false }
    return s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
}
