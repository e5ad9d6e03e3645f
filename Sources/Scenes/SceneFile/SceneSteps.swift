import Foundation
import Geometry
import Planner
import Yams

/// A scene file's steps, phases and poses, turned into the planner's steps.
extension SceneInterpreter {
    static let stepKinds = StepKind.names

    /// A list of steps; phases are spliced in place, as if their steps were written there.
    func steps(_ node: Node, _ cx: ConfigContext) throws -> [Step] {
        guard let items = node.sequence else { throw cx.error(node, "expected a list of steps") }
        var out: [Step] = []
        for (i, item) in items.enumerated() { out += try step(item, cx.at("\(i)")) }
        return out
    }

    func step(_ node: Node, _ cx: ConfigContext) throws -> [Step] {
        expandedSteps += 1
        guard expandedSteps <= Self.maximumSteps else {
            throw cx.error(
                node,
                "the storyboard expands to more than \(Self.maximumSteps) steps; phases that call phases multiply them")
        }
        if let name = node.scalarText { return try callPhase(name, args: nil, node, cx) }
        guard let m = node.mapping else {
            throw cx.error(node, "expected a step: \(Self.stepKinds.joined(separator: ", ")), or a phase")
        }
        let kinds = m.keys.compactMap(\.scalarText).filter(Self.stepKinds.contains)
        guard kinds.count <= 1 else {
            throw cx.error(node, "one step at a time; got \(kinds.joined(separator: " and "))")
        }
        func only(_ kind: StepKind) throws { try SceneFile.checkKeys(m, allowed: kind.keys, cx) }
        let kind = kinds.first.flatMap(StepKind.init(rawValue:))
        switch kind {
        case .hold:
            try only(.hold)
            let d = try number(m["hold"]!, cx.at("hold"))
            guard d >= -Self.roundingSlack else {
                throw cx.at("hold").error(m["hold"]!, "\(d.plainText) s: a hold is 0 seconds or more")
            }
            return [.hold(max(0, d))]
        case .set:
            try only(.set)
            guard let changes = m["set"]!.mapping else {
                throw cx.at("set").error(m["set"]!, "expected a mapping of layer.property: value")
            }
            return [.set(try self.changes(Array(changes.map { ($0.key, $0.value) }), cx.at("set")))]
        case .animate:
            let curve = try value(m["animate"]!, cx.at("animate")) { try $0.curve() }
            let written = try m["delay"].map { try number($0, cx.at("delay")) } ?? 0
            let delay = max(0, written)
            guard written >= -Self.roundingSlack else {
                throw cx.at("delay").error(m["delay"]!, "\(written.plainText) s: a delay is 0 seconds or more")
            }
            let pairs = m.filter { !StepKind.animate.keys.contains($0.key.scalarText ?? "") }.map {
                ($0.key, $0.value)
            }
            let animate = Step.animate(curve, delay: delay, changes: try changes(pairs, cx))
            guard let crossingNode = m["crossing"] else { return [animate] }
            // The animation's own progress, from its delay on: a spring's passes 1 and comes back.
            let passes = try crossings(crossingNode, cx.at("crossing"), over: delay + curve.duration, unit: "progress")
            {
                curve.progress(at: $0 - delay)
            }
            return [.parallel([animate] + passes)]
        case .parallel, .sequence:
            try only(kind!)
            let key = kind!.rawValue
            guard let items = m[key]!.sequence else { throw cx.at(key).error(m[key]!, "expected a list of steps") }
            // An item that expands to no step (an `if` not taken, a `let`) adds nothing.
            let children = try items.enumerated().compactMap { i, item -> Step? in
                let s = try step(item, cx.at(key, "\(i)"))
                return s.isEmpty ? nil : s.count == 1 ? s[0] : .sequence(s)
            }
            return [kind == .parallel ? .parallel(children) : .sequence(children)]
        case .drag:
            return try drag(m, cx)
        case .if:
            try only(.if)
            let branch = try value(m["if"]!, cx.at("if")) { try $0.flag() } ? "then" : "else"
            return try m[branch].map { try steps($0, cx.at(branch)) } ?? []
        case .let:
            try only(.let)
            try bind(m["let"]!, cx.at("let"))
            return []
        case .require:
            try only(.require)
            if !(try value(m["require"]!, cx.at("require")) { try $0.flag() }) {
                let message =
                    try m["message"].map { try interpolating($0.scalarText ?? "", $0, cx) }
                    ?? "requires \(m["require"]!.summary)"
                throw SceneError.invalid(key: "storyboard", message: message)
            }
            return []
        case nil:
            guard m.count == 1, let (k, v) = m.first, let name = k.scalarText else {
                throw cx.error(
                    node,
                    "expected a step (\(Self.stepKinds.joined(separator: ", "))) or a phase with its arguments, {phase: {arg: value}}"
                )
            }
            return try callPhase(name, args: v, k, cx)
        }
    }

    private func callPhase(_ name: String, args: Node?, _ node: Node, _ cx: ConfigContext) throws -> [Step] {
        let phases = file.root["phases"]?.mapping
        guard let phase = phases?[name] else {
            let known = phases?.keys.compactMap(\.scalarText) ?? []
            throw cx.error(
                node,
                "no step or phase '\(name)'; steps: \(Self.stepKinds.joined(separator: ", ")); phases: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
            )
        }
        let pcx = top.at("phases", name)
        var body = phase, declared: Node? = nil
        if let m = phase.mapping {
            try SceneFile.checkKeys(m, allowed: SceneFormat.phaseKeys.map(\.name), pcx)
            declared = m["args"]
            guard let s = m["steps"] else { throw pcx.error(phase, "expected steps: [steps]") }
            body = s
        }
        let scope = try arguments(declared: declared, given: args, of: "phase \(name)", cx)
        return try expand("phase \(name)", scope: scope, cx, at: node) { try steps(body, pcx) }
    }

    // MARK: Changes and poses

    /// `layer.property: value` pairs (and `pose:` entries), in the file's order.
    func changes(_ pairs: [(Node, Node)], _ cx: ConfigContext) throws -> [Change] {
        var out: [Change] = []
        for (k, v) in pairs {
            guard let raw = k.scalarText else { throw cx.error(k, "expected layer.property") }
            if raw == "pose" {
                for item in v.sequence ?? [v] { out += try pose(item, cx.at("pose")) }
                continue
            }
            let key = try interpolating(raw, k, cx)
            guard let dot = key.lastIndex(of: ".") else {
                throw cx.error(k, "expected layer.property or pose, got '\(key)'")
            }
            let layerName = String(key[..<dot]), property = String(key[key.index(after: dot)...])
            guard let id = layerIDs[layerName] else {
                throw cx.at(key).error(
                    k,
                    "no layer '\(layerName)'; layers: \(layerIDs.sorted { $0.value.index < $1.value.index }.map(\.key).joined(separator: ", "))"
                )
            }
            let c = cx.at(key)
            guard let changed = SceneProperty(name: property) else {
                throw cx.at(key).error(
                    k,
                    "no property '\(property)'; expected one of \(SceneFormat.properties.map(\.name).joined(separator: ", "))"
                )
            }
            switch changed {
            case .frame: out += Change.frame(id, try value(v, c) { try $0.rect() })
            case .center: out.append(Change(id, .position, .point(try value(v, c) { try $0.point() })))
            case .size: out.append(Change(id, .size, .size(try value(v, c) { try $0.size() })))
            case .scale: out.append(Change(id, .scale, .number(try number(v, c))))
            case .alpha: out.append(Change(id, .alpha, .number(try number(v, c))))
            case .cornerRadius: out.append(Change(id, .cornerRadius, .number(try number(v, c))))
            case .z: out.append(Change(id, .zIndex, .number(try number(v, c))))
            case .background: out.append(Change(id, .backgroundColor, .color(try value(v, c) { try $0.color() })))
            case .hidden: out.append(Change(id, .hidden, .flag(try value(v, c) { try $0.flag() })))
            case .contentOffset: out.append(Change(id, .contentOffset, .point(try value(v, c) { try $0.point() })))
            }
        }
        return out
    }

    private func pose(_ node: Node, _ cx: ConfigContext) throws -> [Change] {
        var name = node.scalarText, args: Node? = nil
        if let m = node.mapping, m.count == 1, let (k, v) = m.first { (name, args) = (k.scalarText, v) }
        let poses = file.root["poses"]?.mapping
        guard let name, let definition = poses?[name]?.mapping else {
            let known = poses?.keys.compactMap(\.scalarText) ?? []
            throw cx.error(
                node,
                "no pose \(name.map { "'\($0)'" } ?? node.summary); poses: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
            )
        }
        let scope = try arguments(declared: definition["args"], given: args, of: "pose \(name)", cx)
        let pairs = definition.filter { $0.key.scalarText != "args" }.map { ($0.key, $0.value) }
        return try expand("pose \(name)", scope: scope, cx, at: node) { try changes(pairs, top.at("poses", name)) }
    }

    // MARK: Drags

    /// A move's easing: a Bézier named or spelt out (`easeOut`, `bezier:x1,y1,x2,y2`), or an
    /// expression that gives one (a phase's argument, a curve param), so a phase can take the
    /// finger's profile from each storyboard.
    private func moveEasing(_ node: Node, _ cx: ConfigContext) throws -> CubicBezier {
        if let text = node.scalarText, case .bezier(let b)? = try? Curve(spec: text) { return b }
        guard case .bezier(let b) = try value(node, cx, { try $0.curve() }) else {
            throw cx.error(
                node,
                "expected a Bézier easing (linear, easeIn, easeOut, easeInEaseOut, default, bezier:x1,y1,x2,y2); a spring has no fixed shape to move a finger along"
            )
        }
        return b
    }

    /// `drag: {gesture}` with changes: they follow the finger's progress; a `crossing` runs
    /// steps at each moment the drag passes a point, sampled every millisecond.
    private func drag(_ m: Node.Mapping, _ cx: ConfigContext) throws -> [Step] {
        let dcx = cx.at("drag")
        guard let spec = m["drag"]!.mapping else {
            throw dcx.error(
                m["drag"]!, "expected a gesture: {\(SceneFormat.dragKeys.map(\.name).joined(separator: ", "))}")
        }
        try SceneFile.checkKeys(spec, allowed: SceneFormat.dragKeys.map(\.name), dcx)
        func need(_ key: String) throws -> Node {
            guard let n = spec[key] else {
                throw dcx.error(
                    m["drag"]!, "a drag needs \(key): \(SceneFormat.dragKeys.first { $0.name == key }!.doc)")
            }
            return n
        }
        var track = GestureTrack(pressAt: try value(need("from"), dcx.at("from")) { try $0.point() })
        guard let moves = try need("moves").sequence else {
            throw dcx.at("moves").error(spec["moves"]!, "expected a list of moves")
        }
        for (i, move) in moves.enumerated() {
            let mcx = dcx.at("moves", "\(i)")
            guard let mm = move.mapping else {
                throw mcx.error(move, "expected {by: [dx, dy], over: seconds, easing: name} or {hold: seconds}")
            }
            if let hold = mm["hold"] {
                try SceneFile.checkKeys(mm, allowed: ["hold"], mcx)
                track = track.holding(for: max(0, try number(hold, mcx.at("hold"))))
                continue
            }
            try SceneFile.checkKeys(mm, allowed: SceneFormat.moveKeys.map(\.name), mcx)
            guard let byNode = mm["by"], let overNode = mm["over"] else {
                throw mcx.error(move, "a move needs by: [dx, dy] and over: seconds")
            }
            let by = try value(byNode, mcx.at("by")) { try $0.point() }
            var easing = CubicBezier.linear
            if let e = mm["easing"] { easing = try moveEasing(e, mcx.at("easing")) }
            track = track.dragging(by: by.x, by.y, over: try number(overNode, mcx.at("over")), easing: easing)
        }
        if let r = spec["release"] {
            track = track.releasing(velocity: try value(r, dcx.at("release")) { try $0.point() })
        }
        guard track.duration <= SceneInterpreter.maximumDuration else {
            throw dcx.at("moves").error(
                spec["moves"]!,
                "the finger is down for \(track.duration.plainText) s; at most \(SceneInterpreter.maximumDuration.plainText) s"
            )
        }
        let axisNode = try need("axis")
        let axisText =
            try axisNode.scalarText.flatMap(Axis.init(rawValue:)) != nil
            ? axisNode.scalarText! : value(axisNode, dcx.at("axis")) { $0.description }
        guard let axis = Axis(rawValue: axisText) else {
            throw dcx.at("axis").error(axisNode, "expected x or y, got '\(axisText)'")
        }
        let distance = try number(need("distance"), dcx.at("distance"))
        guard distance != 0 else { throw dcx.at("distance").error(spec["distance"]!, "a drag's distance cannot be 0") }
        var mapping = GestureDrive.Mapping.linear
        if let band = spec["rubberBand"] {
            let d = try number(band, dcx.at("rubberBand"))
            guard d > 0 else {
                throw dcx.at("rubberBand").error(band, "the rubber band's dimension must be more than 0")
            }
            mapping = .rubberBand(dimension: d)
        }
        var range = 0.0...1.0
        if let r = spec["range"] {
            let p = try value(r, dcx.at("range")) { try $0.point() }
            guard p.x <= p.y else { throw dcx.at("range").error(r, "expected [low, high] with low ≤ high") }
            range = p.x...p.y
        }
        let drive = GestureDrive(track: track, axis: axis, distance: distance, mapping: mapping, range: range)
        let pairs = m.filter { !StepKind.drag.keys.contains($0.key.scalarText ?? "") }.map {
            ($0.key, $0.value)
        }
        let follow = Step.interactive(drive, changes: try changes(pairs, cx))
        gesture = drive
        guard let crossingNode = m["crossing"] else { return [follow] }
        let passes = try crossings(crossingNode, cx.at("crossing"), over: track.duration, unit: "points") {
            drive.progress(at: $0) * distance
        }
        // The step lasts until the finger lifts or the last crossing's steps end.
        return [.parallel([follow] + passes)]
    }

    /// A `crossing: {at:, above:, below:}`'s steps, each sequence starting when `value` (a
    /// drag's translation, an animation's progress) passes `at`, sampled each millisecond of
    /// `duration`.
    func crossings(_ node: Node, _ ccx: ConfigContext, over duration: Double, unit: String, value: (Double) -> Double)
        throws -> [Step]
    {
        guard let crossing = node.mapping, let atNode = crossing["at"] else {
            throw ccx.error(node, "expected {at: \(unit), above: [steps], below: [steps]}")
        }
        try SceneFile.checkKeys(crossing, allowed: SceneFormat.crossingKeys.map(\.name), ccx)
        let at = try number(atNode, ccx.at("at"))
        var out: [Step] = []
        var past = value(0) > at
        var t = 0.0
        while t <= duration {
            let isPast = value(t) > at
            if isPast != past {
                past = isPast
                // Expanded at each crossing, so that a `let` among them says the latest side.
                let side = isPast ? "above" : "below"
                out.append(.sequence([.hold(t)] + (try crossing[side].map { try steps($0, ccx.at(side)) } ?? [])))
            }
            t += 0.001
        }
        return out
    }
}
