import Foundation
import Geometry
import Planner
import Yams

/// A scene file's steps, phases and poses, turned into the planner's steps.
extension SceneInterpreter {
    /// A list of steps; phases are spliced in place, as if their steps were written there.
    func steps(_ list: [SceneStep]) throws -> [Step] {
        var out: [Step] = []
        for item in list { out += try step(item) }
        return out
    }

    func step(_ s: SceneStep) throws -> [Step] {
        expandedSteps += 1
        guard expandedSteps <= Self.maximumSteps else {
            throw error(
                s.node, s.path,
                "the storyboard expands to more than \(Self.maximumSteps) steps; phases that call phases multiply them")
        }
        switch s.body {
        case .phase(let name, let node, let arguments): return try callPhase(name, arguments, node, s.path)
        case .hold(let e):
            let d = try number(e)
            guard d >= -Self.roundingSlack else { throw error(e, "\(d.plainText) s: a hold is 0 seconds or more") }
            return [.hold(max(0, d))]
        case .set(let changes): return [.set(try self.changes(changes))]
        case .animate(let curveExpr, let delayExpr, let changes, let crossing):
            let curve = try value(curveExpr) { try $0.curve() }
            let written = try delayExpr.map { try number($0) } ?? 0
            let delay = max(0, written)
            if let delayExpr, written < -Self.roundingSlack {
                throw error(delayExpr, "\(written.plainText) s: a delay is 0 seconds or more")
            }
            let animate = Step.animate(curve, delay: delay, changes: try self.changes(changes))
            guard let crossing else { return [animate] }
            // The animation's own progress, from its delay on: a spring's passes 1 and comes back.
            let passes = try crossings(crossing, over: delay + curve.duration) { curve.progress(at: $0 - delay) }
            return [.parallel([animate] + passes)]
        case .parallel(let list), .sequence(let list):
            // An item that expands to no step (an `if` not taken, a `let`) adds nothing.
            let children = try list.compactMap { item -> Step? in
                let s = try step(item)
                return s.isEmpty ? nil : s.count == 1 ? s[0] : .sequence(s)
            }
            if case .parallel = s.body { return [.parallel(children)] }
            return [.sequence(children)]
        case .drag(let gesture, let changes, let crossing): return try drag(gesture, changes, crossing)
        case .if(let test, let then, let otherwise):
            return try steps((try value(test) { try $0.flag() } ? then : otherwise) ?? [])
        case .let(let bindings):
            try bind(bindings)
            return []
        case .require(let test, let message):
            if !(try value(test) { try $0.flag() }) {
                let text =
                    try message.map { try interpolating($0.text, $0.node, $0.path) } ?? "requires \(test.node.summary)"
                throw SceneError.invalid(key: "storyboard", message: text)
            }
            return []
        }
    }

    private func callPhase(_ name: String, _ given: SceneArguments?, _ node: Node, _ path: [String]) throws -> [Step] {
        guard let phase = model.phases[name] else {
            throw error(
                node, path,
                "no step or phase '\(name)'; steps: \(StepKind.names.joined(separator: ", ")); phases: \(model.phases.isEmpty ? "none" : model.phases.names.joined(separator: ", "))"
            )
        }
        let scope = try arguments(phase.parameters, given: given, of: "phase \(name)", at: node, path)
        return try expand("phase \(name)", scope: scope, at: node, path) { try steps(phase.steps) }
    }

    // MARK: Changes and poses

    /// `layer.property: value` changes (and `pose:` entries), in the file's order.
    func changes(_ list: [SceneChange]) throws -> [Change] {
        var out: [Change] = []
        for change in list {
            switch change {
            case .poses(let calls): for call in calls { out += try pose(call) }
            case .property(let raw, let keyNode, let v):
                let key = try interpolating(raw, keyNode, v.path)
                let dot = key.lastIndex(of: ".")!
                let layerName = String(key[..<dot]), property = String(key[key.index(after: dot)...])
                guard let id = layerIDs[layerName] else {
                    throw error(
                        keyNode, v.path,
                        "no layer '\(layerName)'; layers: \(layerIDs.sorted { $0.value.index < $1.value.index }.map(\.key).joined(separator: ", "))"
                    )
                }
                guard let changed = SceneProperty(name: property) else {
                    throw error(
                        keyNode, v.path,
                        "no property '\(property)'; expected one of \(SceneFormat.properties.map(\.name).joined(separator: ", "))"
                    )
                }
                guard case .layer(let property) = changed else {
                    out += Change.frame(id, try value(v) { try $0.rect() })
                    continue
                }
                let changedTo: AnimatableValue =
                    switch property {
                    case .center, .contentOffset: .point(try value(v) { try $0.point() })
                    case .size: .size(try value(v) { try $0.size() })
                    case .scale, .alpha, .cornerRadius, .z: .number(try number(v))
                    case .background: .color(try value(v) { try $0.color() })
                    case .hidden: .flag(try value(v) { try $0.flag() })
                    }
                out.append(Change(id, property, changedTo))
            }
        }
        return out
    }

    private func pose(_ call: ScenePoseCall) throws -> [Change] {
        guard let pose = model.poses[call.name] else {
            throw error(
                call.node, call.path,
                "no pose \(call.node.summary); poses: \(model.poses.isEmpty ? "none" : model.poses.names.joined(separator: ", "))"
            )
        }
        let scope = try arguments(
            pose.parameters, given: call.arguments, of: "pose \(call.name)", at: call.node, call.path)
        return try expand("pose \(call.name)", scope: scope, at: call.node, call.path) { try changes(pose.changes) }
    }

    // MARK: Drags

    /// A move's easing: a Bézier named or spelt out (`easeOut`, `bezier:x1,y1,x2,y2`), or an
    /// expression that gives one (a phase's argument, a curve param), so a phase can take the
    /// finger's profile from each storyboard.
    private func moveEasing(_ e: SceneExpr) throws -> CubicBezier {
        if case .bezier(let b)? = try? Curve(spec: e.text) { return b }
        guard case .bezier(let b) = try value(e, { try $0.curve() }) else {
            throw error(
                e,
                "expected a Bézier easing (linear, easeIn, easeOut, easeInEaseOut, default, bezier:x1,y1,x2,y2); a spring has no fixed shape to move a finger along"
            )
        }
        return b
    }

    /// `drag: {gesture}` with changes: they follow the finger's progress; a `crossing` runs
    /// steps at each moment the drag passes a point, sampled every millisecond.
    private func drag(_ d: SceneDrag, _ changes: [SceneChange], _ crossing: SceneCrossing?) throws -> [Step] {
        var track = GestureTrack(pressAt: try value(d.from) { try $0.point() })
        for move in d.moves {
            switch move {
            case .hold(let e): track = track.holding(for: max(0, try number(e)))
            case .move(let byExpr, let over, let easing):
                let by = try value(byExpr) { try $0.point() }
                let curve = try easing.map { try moveEasing($0) } ?? .linear
                track = track.dragging(by: by.x, by.y, over: try number(over), easing: curve)
            }
        }
        if let r = d.release { track = track.releasing(velocity: try value(r) { try $0.point() }) }
        guard track.duration <= SceneInterpreter.maximumDuration else {
            throw error(
                d.movesNode,
                "the finger is down for \(track.duration.plainText) s; at most \(SceneInterpreter.maximumDuration.plainText) s"
            )
        }
        let axisText = Axis(rawValue: d.axis.text) != nil ? d.axis.text : try value(d.axis) { $0.description }
        guard let axis = Axis(rawValue: axisText) else { throw error(d.axis, "expected x or y, got '\(axisText)'") }
        let distance = try number(d.distance)
        guard distance != 0 else { throw error(d.distance, "a drag's distance cannot be 0") }
        var mapping = GestureDrive.Mapping.linear
        if let band = d.rubberBand {
            let dimension = try number(band)
            guard dimension > 0 else { throw error(band, "the rubber band's dimension must be more than 0") }
            mapping = .rubberBand(dimension: dimension)
        }
        var range = 0.0...1.0
        if let r = d.range {
            let p = try value(r) { try $0.point() }
            guard p.x <= p.y else { throw error(r, "expected [low, high] with low ≤ high") }
            range = p.x...p.y
        }
        let drive = GestureDrive(track: track, axis: axis, distance: distance, mapping: mapping, range: range)
        let follow = Step.interactive(drive, changes: try self.changes(changes))
        gesture = drive
        guard let crossing else { return [follow] }
        let passes = try crossings(crossing, over: track.duration) { drive.progress(at: $0) * distance }
        // The step lasts until the finger lifts or the last crossing's steps end.
        return [.parallel([follow] + passes)]
    }

    /// A `crossing: {at:, above:, below:}`'s steps, each sequence starting when `value` (a
    /// drag's translation, an animation's progress) passes `at`, sampled each millisecond of
    /// `duration`.
    func crossings(_ crossing: SceneCrossing, over duration: Double, value: (Double) -> Double) throws -> [Step] {
        let at = try number(crossing.at)
        var out: [Step] = []
        var past = value(0) > at
        var t = 0.0
        while t <= duration {
            let isPast = value(t) > at
            if isPast != past {
                past = isPast
                // Expanded at each crossing, so that a `let` among them says the latest side.
                let side = isPast ? crossing.above : crossing.below
                out.append(.sequence([.hold(t)] + (try steps(side ?? []))))
            }
            t += 0.001
        }
        return out
    }
}
