import Foundation
import Geometry
import Planner
import Scenes

/// When each layer moves, and what each param changes: what a timeline shows and what dragging
/// one of its edges edits. Found from plans alone (no pixels), by changing each param the
/// storyboard reads a little and planning again, so that it holds for any scene file, whatever
/// expressions tie its params to its steps.
extension Transition {
    /// One property of one layer, with the spans of the storyboard's time it animates in.
    public struct Track: Sendable, Hashable {
        public let layer: String
        /// The property's name, as scene files write it (`position`, `alpha`, `background`, `z`).
        public let property: String
        /// Each animation's start and the moment it comes to rest, in seconds (a `set` starts
        /// and ends at once).
        public let spans: [ClosedRange<Double>]
    }

    /// Every animated property of every layer, in the layer tree's order.
    public var tracks: [Track] {
        let plan = renderer.plan
        var order: [String] = []
        var spans: [String: [ClosedRange<Double>]] = [:]
        var names: [String: (String, String)] = [:]
        for s in plan.spans {
            let id = "\(s.layer.index).\(s.property.rawValue)"
            if spans[id] == nil {
                order.append(id)
                names[id] = (plan.layers[s.layer.index].name, s.property.rawValue)
            }
            spans[id, default: []].append(s.start...max(s.start, s.end))
        }
        return order.map { Track(layer: names[$0]!.0, property: names[$0]!.1, spans: spans[$0]!) }
    }

    /// What the params this storyboard reads change in it.
    public struct Influence: Sendable, Hashable {
        /// For each of `phases`: the param whose value lengthens it one for one (a hold's
        /// seconds, an animation's `duration`), or nil when none does.
        public let phaseLengthKeys: [String?]
        /// For each param the storyboard reads, by key: the layers it changes, in the layer
        /// tree's order: their look at the start, or how they animate (a param that only moves
        /// animations in time, a hold, changes none).
        public let layersMoved: [String: [String]]
        /// For each param the storyboard reads, by key: the phases it shapes, by name, in order
        /// (their length, or what they show at the same point of them).
        public let phasesShaped: [String: [String]]
    }

    /// What each param the storyboard reads changes: its value is moved a little (a number by
    /// a step inside its range, a flag or a choice to another, a colour to another) and the
    /// storyboard planned again; a param that fails to plan so is left out.
    public func influence() -> Influence {
        let plan = renderer.plan
        let phases = renderer.phases
        var lengthKeys = [[String]](repeating: [], count: phases.count)
        // The names of the phases whose length each key changes at all: a sequence played
        // twice (two cards opened alike) is one phase, by name.
        var reach: [String: Set<String>] = [:]
        // The keys that are an animation's duration: they change how the phase moves, where a
        // hold only moves it in time.
        var animating = Set<String>()
        var moved: [String: [String]] = [:]
        var shaped: [String: Set<Int>] = [:]
        for p in parameters where p.isRead {
            for (key, assignment, step) in Self.nudges(of: p) {
                guard
                    let changed = try? renderer.scene.setting([assignment]).scenePlan(sizes: renderer.imageSizes)
                else { continue }
                if changed.phases.count == phases.count {
                    for (i, (was, now)) in zip(phases, changed.phases).enumerated()
                    where !Self.drawsAlike(plan, (was.start, was.end), changed.plan, (now.start, now.end)) {
                        shaped[p.key, default: []].insert(i)
                    }
                }
                if let step, changed.phases.count == phases.count {
                    for (i, (was, now)) in zip(phases, changed.phases).enumerated() {
                        let grew = (now.end - now.start) - (was.end - was.start)
                        if abs(grew) > 1e-9 { reach[key, default: []].insert(was.name) }
                        if abs(grew - step) < 1e-6 { lengthKeys[i].append(key) }
                    }
                }
                if p.kind == .animation { animating.insert(key) }
                let layers = plan.layers.indices.filter { !plan.drawsAlike(layerAt: $0, in: changed.plan) }
                moved[p.key, default: []].append(contentsOf: layers.map { plan.layers[$0].name })
            }
            if let layers = moved[p.key] {
                var seen = Set<String>()
                moved[p.key] = layers.filter { seen.insert($0).inserted }
            }
        }
        // Of several params that lengthen a phase: one that changes no phase of another name;
        // of those, an animation's duration (what the phase's end shows is its motion ending),
        // then one named like it (`present` for a phase `present`); then the first in the file.
        let chosen = zip(phases, lengthKeys).map { phase, keys -> String? in
            let named = { (key: String) in key.split(separator: ".").first.map(String.init) == phase.name }
            let alone = keys.filter { reach[$0] == [phase.name] }
            let moving = alone.filter(animating.contains)
            return moving.first(where: named) ?? moving.first ?? alone.first(where: named) ?? alone.first
                ?? keys.first(where: named) ?? keys.first
        }
        var shapedNames: [String: [String]] = [:]
        for (key, indices) in shaped {
            var seen = Set<String>()
            shapedNames[key] = indices.sorted().map { phases[$0].name }.filter { seen.insert($0).inserted }
        }
        return Influence(phaseLengthKeys: chosen, layersMoved: moved, phasesShaped: shapedNames)
    }

    /// Whether plan `a` during `was` and plan `b` during `now` (the same phase, perhaps moved or
    /// stretched) are as long and draw the same at a dozen points through them.
    private static func drawsAlike(
        _ a: Plan, _ was: (start: Double, end: Double), _ b: Plan, _ now: (start: Double, end: Double)
    ) -> Bool {
        let (wasLength, nowLength) = (was.end - was.start, now.end - now.start)
        guard abs(wasLength - nowLength) < 1e-9 else { return false }
        return (0..<12).allSatisfy { k in
            let f = Double(k) / 12
            return a.sample(at: was.start + wasLength * f, scale: 1).commands
                == b.sample(at: now.start + nowLength * f, scale: 1).commands
        }
    }

    /// The assignments that move `p` a little: each with the key it sets and, for a length in
    /// seconds (a `seconds` param, an animation's duration), how much longer it makes it.
    private static func nudges(of p: Parameter) -> [(key: String, assignment: String, step: Double?)] {
        func number(_ key: String, _ value: Double, by step: Double, in range: ClosedRange<Double>?) -> (
            String, String, Double
        ) {
            let up = range.map { value + step <= $0.upperBound } ?? true
            let d = up ? step : -step
            return (key, "\(key)=\((value + d).plainText)", d)
        }
        switch p.kind {
        case .animation:
            guard let a = p.animation else { return [] }
            let key = "\(p.key).duration"
            return [number(key, a.duration, by: 0.05, in: AnimationPart.duration.range)]
        case .seconds:
            guard let v = Double(p.value) else { return [] }
            return [number(p.key, v, by: 0.05, in: p.range)]
        case .number:
            guard let v = Double(p.value) else { return [] }
            let (key, assignment, _) = number(p.key, v, by: max(0.01, abs(v) * 0.05), in: p.range)
            return [(key, assignment, nil)]
        case .integer:
            guard let v = Double(p.value) else { return [] }
            let (key, assignment, _) = number(p.key, v, by: 1, in: p.range)
            return [(key, assignment, nil)]
        case .flag:
            return [(p.key, "\(p.key)=\(p.value == "true" ? "false" : "true")", nil)]
        case .choice:
            guard let other = p.choices.first(where: { $0 != p.value }) else { return [] }
            return [(p.key, "\(p.key)=\(other)", nil)]
        case .color:
            let other = p.value.uppercased().contains("FF00FF") ? "#00FF00" : "#FF00FF"
            return [(p.key, "\(p.key)=\(other)", nil)]
        case .rect, .point:
            // One point to the right: the first number of `[x, y, …]`.
            let parts = p.value.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: ",")
            guard let x = parts.first.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else { return [] }
            let moved = ["\((x + 1).plainText)"] + parts.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            return [(p.key, "\(p.key)=[\(moved.joined(separator: ", "))]", nil)]
        case .curve:
            let other = p.value == "linear" ? "easeInOut" : "linear"
            return [(p.key, "\(p.key)=\(other)", nil)]
        case .image, .path:
            return []
        }
    }
}
