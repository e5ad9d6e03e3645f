import Foundation
import Planner
import Yams

/// The whole-file check a scene file gets when it loads, before any plan is built: every
/// layer, template, pose, phase, storyboard, step, expression and name, whether or not the
/// chosen storyboard uses it. It reports every problem at once, each with its line, column and
/// key path, and a "did you mean" for a name that is close to a known one. The lists it
/// checks against are `SceneFormat`'s; what only evaluation can tell (a wrong type, a value
/// out of range) is left to the interpreter.
struct SceneCheck {
    let file: String
    let root: Node.Mapping
    let known: SceneCheckNames
    private(set) var problems: [ConfigError] = []
    /// Nodes visited: YAML aliases can make a small file a tree of billions of nodes, so the
    /// walk stops at a budget (the interpreter's own step budget then names the place).
    private var visits = 0
    static let maximumVisits = 1_000_000

    /// Counts one node; false once the budget is spent.
    mutating func visit() -> Bool {
        visits += 1
        return visits <= Self.maximumVisits
    }

    /// Checks `root`, the scene file `file`.
    init(_ root: Node.Mapping, file: String) {
        self.file = file
        self.root = root
        known = SceneCheckNames(root)
        problems = SceneNames.clashes(root, file: file)
        for (k, v) in root {
            guard let key = k.scalarText else { continue }
            let path = [key]
            switch key {
            case "layers": layers(v, path, template: false)
            case "templates": templates(v, path)
            case "poses": poses(v, path)
            case "phases": phases(v, path)
            case "storyboards": storyboards(v, path)
            case "let": values(v, path)
            case "require": requirements(v, path)
            case _ where !SceneFormat.topLevel.contains(where: { $0.name == key }):
                unknown(k, path: [], what: "key", in: SceneFormat.topLevel.map(\.name))
            default: break
            }
        }
    }

    // MARK: Reporting

    mutating func report(_ node: Node, _ path: [String], _ message: String) {
        problems.append(
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

    // MARK: Layers, templates, poses

    mutating func layers(_ node: Node, _ path: [String], template: Bool) {
        guard let m = node.mapping else { return report(node, path, "expected a mapping of layers") }
        for (k, v) in m {
            guard let name = k.scalarText else { continue }
            if name.hasPrefix("for ") {
                if SceneCheckNames.loopVariable(name) == nil {
                    report(k, path, "expected 'for NAME in FIRST...LAST', got '\(name)'")
                }
                layers(v, path + [name], template: template)
                continue
            }
            interpolations(in: name, k, path + [name])
            layer(v, path + [name], template: false)
        }
    }

    mutating func layer(_ node: Node, _ path: [String], template: Bool) {
        guard visit() else { return }
        guard let m = node.mapping else {
            return report(
                node, path,
                "expected a layer: a mapping of \(SceneFormat.layerKeys.map(\.name).joined(separator: ", "))")
        }
        let allowed =
            template
            ? ["args"] + SceneFormat.layerKeys.map(\.name).filter { $0 != "use" && $0 != "with" }
            : SceneFormat.layerKeys.map(\.name)
        var templateArgs: [String]? = nil
        if let use = m["use"] {
            if let t = use.scalarText, let args = known.templates[t] {
                templateArgs = args
            } else {
                unknown(use, path: path + ["use"], what: "template", in: known.templates.keys.sorted())
            }
        }
        for (k, v) in m {
            guard let key = k.scalarText else { continue }
            let at = path + [key]
            guard allowed.contains(key) else {
                unknown(k, path: path, what: "key", in: allowed)
                continue
            }
            switch key {
            case "children": layers(v, at, template: false)
            case "args", "use": break
            case "with": arguments(v, at, of: "template \(m["use"]?.scalarText ?? "")", declared: templateArgs)
            case "mode":
                if v.scalarText.flatMap(ContentMode.init(rawValue:)) == nil {
                    unknown(v, path: at, what: "mode", in: ContentMode.allCases.map(\.rawValue))
                }
            case "image":
                let text = v.scalarText ?? ""
                if text.contains("{") {
                    interpolations(in: text, v, at)
                } else if !known.images.contains(text) {
                    unknown(v, path: at, what: "image param", in: known.images.sorted())
                }
            default: expression(v, at)
            }
        }
    }

    mutating func templates(_ node: Node, _ path: [String]) {
        guard let m = node.mapping else { return report(node, path, "expected a mapping of templates") }
        for (k, v) in m { layer(v, path + [k.scalarText ?? ""], template: true) }
    }

    mutating func poses(_ node: Node, _ path: [String]) {
        guard let m = node.mapping else { return report(node, path, "expected a mapping of poses") }
        for (k, v) in m {
            let at = path + [k.scalarText ?? ""]
            guard let body = v.mapping else {
                report(v, at, "expected a pose: {args: [a], layer.property: value, …}")
                continue
            }
            for (ck, cv) in body where ck.scalarText != "args" { change(ck, cv, at) }
        }
    }

    // MARK: Phases and storyboards

    mutating func phases(_ node: Node, _ path: [String]) {
        guard let m = node.mapping else { return report(node, path, "expected a mapping of phases") }
        for (k, v) in m {
            let at = path + [k.scalarText ?? ""]
            if let body = v.mapping {
                keys(body, at, allowed: SceneFormat.phaseKeys.map(\.name))
                if let s = body["steps"] { steps(s, at + ["steps"]) } else { report(v, at, "expected steps: [steps]") }
            } else {
                steps(v, at)
            }
        }
    }

    mutating func storyboards(_ node: Node, _ path: [String]) {
        guard let m = node.mapping else { return }
        for (k, v) in m {
            let at = path + [k.scalarText ?? ""]
            if let body = v.mapping {
                keys(body, at, allowed: SceneFormat.storyboardKeys.map(\.name))
                if let l = body["let"] { values(l, at + ["let"]) }
                if let l = body["length"] { expression(l, at + ["length"]) }
                if let s = body["steps"] { steps(s, at + ["steps"]) } else { report(v, at, "expected steps: [steps]") }
            } else {
                steps(v, at)
            }
        }
    }

    mutating func keys(_ m: Node.Mapping, _ path: [String], allowed: [String]) {
        for (k, _) in m where !allowed.contains(k.scalarText ?? "") {
            unknown(k, path: path, what: "key", in: allowed)
        }
    }

    mutating func requirements(_ node: Node, _ path: [String]) {
        guard let items = node.sequence else { return report(node, path, "expected a list of checks") }
        for (i, item) in items.enumerated() {
            guard let m = item.mapping else { continue }
            keys(m, path + ["\(i)"], allowed: SceneFormat.requireKeys.map(\.name))
            if let that = m["that"] { expression(that, path + ["\(i)", "that"]) }
            if let message = m["message"] { interpolations(in: message.scalarText ?? "", message, path + ["\(i)"]) }
        }
    }

    /// A mapping of `name: expression` (a `let`).
    mutating func values(_ node: Node, _ path: [String]) {
        guard let m = node.mapping else { return report(node, path, "expected a mapping of name: value") }
        for (k, v) in m { expression(v, path + [k.scalarText ?? ""]) }
    }

    /// `{arg: value}` given to `what` (`phase NAME`, `pose NAME`, `template NAME`), which
    /// declares `declared`.
    mutating func arguments(_ node: Node, _ path: [String], of what: String, declared: [String]?) {
        guard let m = node.mapping else {
            return report(node, path, "expected the arguments of \(what) as a mapping")
        }
        for (k, v) in m {
            if let declared, let name = k.scalarText, !declared.contains(name) {
                report(
                    k, path,
                    "\(what) has no argument '\(name)'\(Suggestion.hint(for: name, in: declared)); expected \(declared.isEmpty ? "none" : declared.joined(separator: ", "))"
                )
            }
            expression(v, path + [k.scalarText ?? ""])
        }
    }
}
