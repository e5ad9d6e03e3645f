import Foundation
import Yams

/// Steps, read into the model: each step's kind and keys, the phase it calls, the changes it
/// makes, a drag's gesture and a crossing.
extension SceneParser {
    mutating func steps(_ node: Node, _ path: [String]) -> [SceneStep] {
        guard let items = node.sequence else {
            problems.report(node, path, "expected a list of steps")
            return []
        }
        return items.enumerated().compactMap { i, item in step(item, path + ["\(i)"]) }
    }

    mutating func step(_ node: Node, _ path: [String]) -> SceneStep? {
        func made(_ body: SceneStep.Body) -> SceneStep { SceneStep(node: node, path: path, body: body) }
        if let name = node.scalarText { return made(.phase(name: name, node: node, arguments: nil)) }
        let kinds = StepKind.names
        guard let m = node.mapping else {
            problems.report(node, path, "expected a step or a phase")
            return nil
        }
        let given = m.keys.compactMap(\.scalarText).filter(kinds.contains)
        guard given.count <= 1 else {
            problems.report(node, path, "one step at a time; got \(given.joined(separator: " and "))")
            return nil
        }
        guard let kind = given.first.flatMap(StepKind.init(rawValue:)) else {
            // A step of several keys, one a typo away from a step kind (`animat: expand` with
            // changes), is that kind mistyped: a phase is called with one key.
            if m.count > 1,
                let typo = m.keys.first(where: { key in
                    key.scalarText.map { Suggestion.closest(to: $0, in: kinds) != nil } ?? false
                })
            {
                problems.unknown(typo, path: path, what: "step kind", in: kinds)
                return nil
            }
            guard m.count == 1, let (k, v) = m.first, let name = k.scalarText else {
                let keys = m.keys.map { $0.scalarText ?? $0.summary }.joined(separator: ", ")
                problems.report(
                    node, path,
                    "expected a step (\(kinds.joined(separator: ", "))) or {phase: {arg: value}}; none of its keys (\(keys)) is a step kind"
                )
                return nil
            }
            return made(.phase(name: name, node: k, arguments: arguments(v, path + [name])))
        }
        var changes: [SceneChange] = []
        for (k, v) in m {
            guard let key = k.scalarText, !kind.keys.contains(key) else { continue }
            if kind.takesChanges && (key == "pose" || key.contains(".")) {
                changes += change(k, v, path)
            } else {
                problems.unknown(
                    k, path: path, what: "key", in: kind.keys + (kind.takesChanges ? ["pose", "LAYER.PROPERTY"] : []))
            }
        }
        func value(_ key: String) -> SceneExpr? { m[key].map { expr($0, path + [key]) } }
        let own = value(kind.rawValue)!
        switch kind {
        case .hold: return made(.hold(own))
        case .set:
            guard let pairs = own.node.mapping else {
                problems.report(own.node, own.path, "expected a mapping of layer.property: value")
                return nil
            }
            return made(.set(pairs.flatMap { change($0.key, $0.value, own.path) }))
        case .animate:
            let crossing = m["crossing"].flatMap { self.crossing($0, path + ["crossing"]) }
            return made(.animate(curve: own, delay: value("delay"), changes: changes, crossing: crossing))
        case .parallel: return made(.parallel(steps(own.node, own.path)))
        case .sequence: return made(.sequence(steps(own.node, own.path)))
        case .drag:
            guard let gesture = drag(own.node, own.path) else { return nil }
            let crossing = m["crossing"].flatMap { self.crossing($0, path + ["crossing"]) }
            return made(.drag(gesture, changes: changes, crossing: crossing))
        case .if:
            let then = m["then"].map { steps($0, path + ["then"]) }
            let otherwise = m["else"].map { steps($0, path + ["else"]) }
            return made(.if(own, then: then, else: otherwise))
        case .let: return made(.let(bindings(own.node, own.path)))
        case .require: return made(.require(own, message: value("message")))
        }
    }

    mutating func drag(_ node: Node, _ path: [String]) -> SceneDrag? {
        guard let spec = node.mapping else {
            problems.report(
                node, path, "expected a gesture: {\(SceneFormat.dragKeys.map(\.name).joined(separator: ", "))}")
            return nil
        }
        // A misspelt key is said as one, not as the key it leaves out.
        let known = keys(spec, path, allowed: SceneFormat.dragKeys.map(\.name))
        var missing = !known
        func need(_ key: String) -> SceneExpr {
            guard let n = spec[key] else {
                if !missing {
                    problems.report(
                        node, path, "a drag needs \(key): \(SceneFormat.dragKeys.first { $0.name == key }!.doc)")
                }
                missing = true
                return expr(node, path)
            }
            return expr(n, path + [key])
        }
        let (from, movesNode, axis, distance) = (need("from"), need("moves"), need("axis"), need("distance"))
        let moves = spec["moves"] == nil ? nil : self.moves(movesNode)
        guard !missing, let moves else { return nil }
        func value(_ key: String) -> SceneExpr? { spec[key].map { expr($0, path + [key]) } }
        return SceneDrag(
            from: from, moves: moves, movesNode: movesNode, release: value("release"),
            axis: axis, distance: distance, rubberBand: value("rubberBand"), range: value("range"))
    }

    mutating func moves(_ list: SceneExpr) -> [SceneMove]? {
        guard let items = list.node.sequence else {
            problems.report(list.node, list.path, "expected a list of moves")
            return nil
        }
        var out: [SceneMove] = []
        for (i, move) in items.enumerated() {
            let at = list.path + ["\(i)"]
            guard let m = move.mapping else {
                problems.report(move, at, "expected {by: [dx, dy], over: seconds, easing: name} or {hold: seconds}")
                continue
            }
            if let hold = m["hold"] {
                keys(m, at, allowed: ["hold"])
                out.append(.hold(expr(hold, at + ["hold"])))
                continue
            }
            keys(m, at, allowed: SceneFormat.moveKeys.map(\.name))
            guard let by = m["by"], let over = m["over"] else {
                problems.report(move, at, "a move needs by: [dx, dy] and over: seconds")
                continue
            }
            out.append(
                .move(
                    by: expr(by, at + ["by"]), over: expr(over, at + ["over"]),
                    easing: m["easing"].map { expr($0, at + ["easing"]) }))
        }
        return out
    }

    mutating func crossing(_ node: Node, _ path: [String]) -> SceneCrossing? {
        guard let m = node.mapping, let at = m["at"] else {
            problems.report(node, path, "expected {at: points, above: [steps], below: [steps]}")
            return nil
        }
        keys(m, path, allowed: SceneFormat.crossingKeys.map(\.name))
        return SceneCrossing(
            at: expr(at, path + ["at"]), above: m["above"].map { steps($0, path + ["above"]) },
            below: m["below"].map { steps($0, path + ["below"]) })
    }
}
