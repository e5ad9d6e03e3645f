import Foundation
import Planner
import Yams

/// The whole-file check of steps: each step's kind and keys, the phases and poses it calls
/// with their arguments, the layers and properties it changes, and a drag's gesture.
extension SceneCheck {
    mutating func steps(_ node: Node, _ path: [String]) {
        guard let items = node.sequence else { return report(node, path, "expected a list of steps") }
        for (i, item) in items.enumerated() { step(item, path + ["\(i)"]) }
    }

    mutating func step(_ node: Node, _ path: [String]) {
        guard visit() else { return }
        let kinds = StepKind.names
        if let name = node.scalarText {
            if known.phases[name] == nil { unknown(node, path: path, what: "step or phase", in: phaseOrStep) }
            return
        }
        guard let m = node.mapping else { return report(node, path, "expected a step or a phase") }
        let given = m.keys.compactMap(\.scalarText).filter(kinds.contains)
        guard given.count <= 1 else {
            return report(node, path, "one step at a time; got \(given.joined(separator: " and "))")
        }
        guard let kind = given.first.flatMap(StepKind.init(rawValue:)) else {
            guard m.count == 1, let (k, v) = m.first, let name = k.scalarText else {
                return report(node, path, "expected a step (\(kinds.joined(separator: ", "))) or {phase: {arg: value}}")
            }
            guard let args = known.phases[name] else {
                return unknown(k, path: path, what: "step or phase", in: phaseOrStep)
            }
            return arguments(v, path + [name], of: "phase \(name)", declared: args)
        }
        let allowed = kind.keys
        let takesChanges = kind.takesChanges
        for (k, v) in m {
            guard let key = k.scalarText else { continue }
            let at = path + [key]
            if !allowed.contains(key) {
                if takesChanges && (key == "pose" || key.contains(".")) {
                    change(k, v, path)
                } else {
                    unknown(k, path: path, what: "key", in: allowed + (takesChanges ? ["pose", "LAYER.PROPERTY"] : []))
                }
                continue
            }
            switch key {
            case "parallel", "sequence", "then", "else": steps(v, at)
            case "set":
                guard let changes = v.mapping else {
                    report(v, at, "expected a mapping of layer.property: value")
                    continue
                }
                for (ck, cv) in changes { change(ck, cv, at) }
            case "let": values(v, at)
            case "drag": drag(v, at)
            case "crossing": crossing(v, at)
            case "message": interpolations(in: v.scalarText ?? "", v, at)
            default: expression(v, at)
            }
        }
    }

    /// Phase names first, then step kinds: what a step's name may be.
    var phaseOrStep: [String] {
        known.phases.keys.sorted() + StepKind.names
    }

    /// A `layer.property: value` change or a `pose:` entry.
    mutating func change(_ key: Node, _ value: Node, _ path: [String]) {
        guard visit() else { return }
        guard let text = key.scalarText else { return }
        if text == "pose" { return poseReferences(value, path + ["pose"]) }
        let at = path + [text]
        interpolations(in: text, key, at)
        expression(value, at)
        guard let dot = text.lastIndex(of: ".") else {
            return report(key, at, "expected layer.property or pose, got '\(text)'")
        }
        let layer = String(text[..<dot]), property = String(text[text.index(after: dot)...])
        if !property.contains("{") && !known.properties.contains(property) {
            let hint = Suggestion.hint(for: property, in: known.properties)
            report(
                key, at,
                "no property '\(property)'\(hint); expected one of \(SceneFormat.properties.map(\.name).joined(separator: ", "))"
            )
        }
        if !layer.contains("{") && !known.isLayer(layer) {
            report(key, at, "no layer '\(layer)'\(Suggestion.hint(for: layer, in: known.literalLayers))")
        }
    }

    /// `pose: name`, `pose: [a, b: {arg: value}]`.
    mutating func poseReferences(_ node: Node, _ path: [String]) {
        for item in node.sequence ?? [node] {
            var nameNode = item, args: Node? = nil
            if let m = item.mapping, m.count == 1, let (k, v) = m.first { (nameNode, args) = (k, v) }
            guard let name = nameNode.scalarText, let declared = known.poses[name] else {
                unknown(nameNode, path: path, what: "pose", in: known.poses.keys.sorted())
                continue
            }
            if let args { arguments(args, path + [name], of: "pose \(name)", declared: declared) }
        }
    }

    mutating func drag(_ node: Node, _ path: [String]) {
        guard let spec = node.mapping else { return report(node, path, "expected a gesture") }
        keys(spec, path, allowed: SceneFormat.dragKeys.map(\.name))
        for (k, v) in spec {
            guard let key = k.scalarText, SceneFormat.dragKeys.contains(where: { $0.name == key }) else { continue }
            let at = path + [key]
            switch key {
            case "axis": if !["x", "y"].contains(v.scalarText ?? "") { expression(v, at) }
            case "moves":
                guard let moves = v.sequence else {
                    report(v, at, "expected a list of moves")
                    continue
                }
                for (i, move) in moves.enumerated() {
                    let mat = at + ["\(i)"]
                    guard let mm = move.mapping else {
                        report(move, mat, "expected {by: [dx, dy], over: seconds, easing: name} or {hold: seconds}")
                        continue
                    }
                    let allowed = mm["hold"] != nil ? ["hold"] : SceneFormat.moveKeys.map(\.name)
                    keys(mm, mat, allowed: allowed)
                    for (mk, mv) in mm where allowed.contains(mk.scalarText ?? "") {
                        let name = mk.scalarText!
                        if name == "easing", let text = mv.scalarText {
                            easing(text, mv, mat + [name])
                        } else {
                            expression(mv, mat + [name])
                        }
                    }
                }
            default: expression(v, at)
            }
        }
    }

    /// A move's easing: a Bézier by name or spelt out, or an expression (a param, an argument).
    mutating func easing(_ text: String, _ node: Node, _ path: [String]) {
        let names = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]
        let expected =
            "expected \(names.joined(separator: ", ")), bezier:x1,y1,x2,y2, or a param or argument holding one"
        if let curve = try? Curve(spec: text) {
            if case .bezier = curve { return }
            return report(
                node, path, "'\(text)' is not a Bézier: a spring has no fixed shape to move a finger along; \(expected)"
            )
        }
        let isName = text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        if isName && !known.names.contains(text) {
            return report(node, path, "unknown easing '\(text)'\(Suggestion.hint(for: text, in: names)); \(expected)")
        }
        expression(node, path)
    }

    mutating func crossing(_ node: Node, _ path: [String]) {
        guard let m = node.mapping else {
            return report(node, path, "expected {at: points, above: [steps], below: [steps]}")
        }
        keys(m, path, allowed: SceneFormat.crossingKeys.map(\.name))
        for (k, v) in m {
            switch k.scalarText {
            case "at": expression(v, path + ["at"])
            case "above", "below": steps(v, path + [k.scalarText!])
            default: break
            }
        }
    }
}
