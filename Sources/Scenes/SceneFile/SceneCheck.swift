import Foundation
import Planner
import Yams

/// The whole-file check of names, on the model `SceneParser` read: every layer, template,
/// pose, phase, storyboard, step and expression, whether or not the chosen storyboard uses it.
/// Each name an expression, a change or a call uses must be one the file declares; a name
/// close to a known one gets a "did you mean". What only evaluation can tell (a wrong type, a
/// value out of range) is left to the interpreter.
struct SceneCheck {
    var problems: SceneProblems
    let known: SceneCheckNames

    /// Checks `model`, whose params are `params`.
    init(_ model: SceneModel, params: Node.Mapping?, problems: SceneProblems) {
        self.problems = problems
        known = SceneCheckNames(model, params: params)
        SceneNames.clashes(model, params: params, into: &self.problems)
        for b in model.lets { expression(b.value) }
        for r in model.requirements {
            expression(r.that)
            interpolations(in: r.message.text, r.message.node, r.message.path)
        }
        for (_, t) in model.templates.all { layer(t.body) }
        layers(model.layers)
        for (_, p) in model.poses.all { changes(p.changes) }
        for (_, p) in model.phases.all { steps(p.steps) }
        for (_, s) in model.storyboards.all {
            for b in s.lets { expression(b.value) }
            if let l = s.length { expression(l) }
            steps(s.steps)
        }
    }

    // MARK: Layers

    mutating func layers(_ entries: [SceneLayerEntry]) {
        for entry in entries {
            switch entry {
            case .loop(let loop): layers(loop.body)
            case .layer(let layer):
                interpolations(in: layer.name, layer.key, layer.path)
                self.layer(layer)
            }
        }
    }

    mutating func layer(_ layer: SceneLayer) {
        var declared: [String]? = nil
        if let (name, node) = layer.use {
            if let args = known.templates[name] {
                declared = args
            } else {
                problems.unknown(node, path: layer.path + ["use"], what: "template", in: known.templates.keys.sorted())
            }
        }
        if let with = layer.with { arguments(with, of: "template \(layer.use?.name ?? "")", declared: declared) }
        for (key, value) in layer.values.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "mode": break
            case "image":
                if value.text.contains("{") {
                    interpolations(in: value.text, value.node, value.path)
                } else if !known.images.contains(value.text) {
                    problems.unknown(value.node, path: value.path, what: "image param", in: known.images.sorted())
                }
            default: expression(value)
            }
        }
        if let children = layer.children { layers(children) }
    }

    /// Arguments given to `what`, which declares `declared` (nil: unknown, already said).
    mutating func arguments(_ given: SceneArguments, of what: String, declared: [String]?) {
        guard let values = given.values else {
            return problems.report(given.node, given.path, "expected the arguments of \(what) as a mapping")
        }
        for (name, key, value) in values {
            if let declared, !declared.contains(name) {
                problems.report(
                    key, given.path,
                    "\(what) has no argument '\(name)'\(Suggestion.hint(for: name, in: declared)); expected \(declared.isEmpty ? "none" : declared.joined(separator: ", "))"
                )
            }
            expression(value)
        }
    }

    // MARK: Steps and changes

    mutating func steps(_ list: [SceneStep]) {
        for s in list { step(s) }
    }

    mutating func step(_ step: SceneStep) {
        switch step.body {
        case .phase(let name, let node, let args):
            guard let declared = known.phases[name] else {
                return problems.unknown(node, path: step.path, what: "step or phase", in: phaseOrStep)
            }
            if let args { arguments(args, of: "phase \(name)", declared: declared) }
        case .hold(let e): expression(e)
        case .set(let c): changes(c)
        case .animate(let curve, let delay, let c, let crossing):
            expression(curve)
            if let delay { expression(delay) }
            changes(c)
            if let crossing { self.crossing(crossing) }
        case .parallel(let list), .sequence(let list): steps(list)
        case .drag(let drag, let c, let crossing):
            self.drag(drag)
            changes(c)
            if let crossing { self.crossing(crossing) }
        case .if(let test, let then, let otherwise):
            expression(test)
            steps(then ?? [])
            steps(otherwise ?? [])
        case .let(let bindings): for b in bindings { expression(b.value) }
        case .require(let test, let message):
            expression(test)
            if let message { interpolations(in: message.text, message.node, message.path) }
        }
    }

    /// Phase names first, then step kinds: what a step's name may be.
    var phaseOrStep: [String] {
        known.phases.keys.sorted() + StepKind.names
    }

    mutating func changes(_ list: [SceneChange]) {
        for change in list {
            switch change {
            case .poses(let calls):
                for call in calls {
                    guard let declared = known.poses[call.name] else {
                        problems.unknown(call.node, path: call.path, what: "pose", in: known.poses.keys.sorted())
                        continue
                    }
                    if let args = call.arguments { arguments(args, of: "pose \(call.name)", declared: declared) }
                }
            case .property(let text, let key, let value):
                let at = value.path
                interpolations(in: text, key, at)
                expression(value)
                let dot = text.lastIndex(of: ".")!
                let layer = String(text[..<dot]), property = String(text[text.index(after: dot)...])
                if !property.contains("{") && !known.properties.contains(property) {
                    let hint = Suggestion.hint(for: property, in: known.properties)
                    problems.report(
                        key, at,
                        "no property '\(property)'\(hint); expected one of \(SceneFormat.properties.map(\.name).joined(separator: ", "))"
                    )
                }
                if !layer.contains("{") && !known.isLayer(layer) {
                    problems.report(
                        key, at, "no layer '\(layer)'\(Suggestion.hint(for: layer, in: known.literalLayers))")
                }
            }
        }
    }

    mutating func drag(_ drag: SceneDrag) {
        for e in [drag.from, drag.distance] + [drag.release, drag.rubberBand, drag.range].compactMap({ $0 }) {
            expression(e)
        }
        if !["x", "y"].contains(drag.axis.text) { expression(drag.axis) }
        for move in drag.moves {
            switch move {
            case .hold(let e): expression(e)
            case .move(let by, let over, let easing):
                expression(by)
                expression(over)
                if let easing { self.easing(easing) }
            }
        }
    }

    /// A move's easing: a Bézier by name or spelt out, or an expression (a param, an argument).
    mutating func easing(_ e: SceneExpr) {
        let names = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]
        let expected =
            "expected \(names.joined(separator: ", ")), bezier:x1,y1,x2,y2, or a param or argument holding one"
        guard let text = e.node.scalarText else { return expression(e) }
        if let curve = try? Curve(spec: text) {
            if case .bezier = curve { return }
            return problems.report(
                e.node, e.path,
                "'\(text)' is not a Bézier: a spring has no fixed shape to move a finger along; \(expected)")
        }
        let isName = text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        if isName && !known.names.contains(text) {
            return problems.report(
                e.node, e.path, "unknown easing '\(text)'\(Suggestion.hint(for: text, in: names)); \(expected)")
        }
        expression(e)
    }

    mutating func crossing(_ crossing: SceneCrossing) {
        expression(crossing.at)
        steps(crossing.above ?? [])
        steps(crossing.below ?? [])
    }
}
