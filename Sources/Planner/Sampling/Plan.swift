import Geometry

/// A scene's whole choreography: layers and their scheduled animations. It draws no pixels:
/// `sample(at:scale:)` turns a moment into a flat draw list. The same plan and time always
/// give the same list, and every time can be sampled on its own, in any order or in parallel.
public struct Plan: Sendable {
    public let canvas: Size
    public let layers: [Layer]
    public let duration: Double
    /// Per layer, per property: animations in the order they take over (start, then schedule).
    private let tracks: [[LayerProperty: [PropertyAnimation]]]

    init(canvas: Size, layers: [Layer], animations: [PropertyAnimation], duration: Double) {
        self.canvas = canvas
        self.layers = layers
        self.duration = duration
        var tracks = [[LayerProperty: [PropertyAnimation]]](repeating: [:], count: layers.count)
        let ordered = animations.sorted { ($0.start, $0.order) < ($1.start, $1.order) }
        for var a in ordered {
            // An animation starts from whatever is showing when it starts (UIKit's
            // beginFromCurrentState), which the ones before it decide.
            let i = a.change.layer.index
            a.from = Plan.value(
                tracks[i][a.change.property] ?? [], initial: layers[i].initial.value(of: a.change.property), at: a.start
            )
            tracks[i][a.change.property, default: []].append(a)
        }
        self.tracks = tracks
    }

    /// The layer called `name`.
    public func layer(named name: String) -> LayerID? {
        layers.firstIndex { $0.name == name }.map(LayerID.init)
    }

    /// A layer's presentation state at `t` seconds.
    public func state(of layer: LayerID, at t: Double) -> LayerState {
        var s = layers[layer.index].initial
        for (property, track) in tracks[layer.index] {
            s.set(property, Plan.value(track, initial: s.value(of: property), at: t))
        }
        return s
    }

    /// The value a track shows at `t`: the latest animation that has started governs.
    private static func value(_ track: [PropertyAnimation], initial: AnimatableValue, at t: Double) -> AnimatableValue {
        guard let a = track.last(where: { $0.start <= t }) else { return initial }
        return (a.from ?? initial).interpolated(to: a.change.value, a.progress(at: t))
    }
}
