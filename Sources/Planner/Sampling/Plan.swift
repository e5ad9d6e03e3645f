import Geometry

/// A scene's whole choreography: layers and their scheduled animations. It draws no pixels:
/// `sample(at:scale:)` turns a moment into a flat draw list. The same plan and time always
/// give the same list, and every time can be sampled on its own, in any order or in parallel.
///
/// A plan shows what the screen shows: a change made at `t` (a step's set or animation)
/// appears `presentationLatency` later, already that far into its animation, as Core
/// Animation's does: the render server evaluates an animation for the refresh it draws. A
/// gesture has no animation to evaluate: each refresh shows where the app put the content
/// when it read the finger, `presentationLatency` before, so a drag starts without a jump and
/// trails the finger. Changes at 0 are the storyboard's starting state and show at once.
public struct Plan: Sendable {
    /// How long after a change is made the screen first shows it: two display refreshes at
    /// 60 Hz, since the render server draws a commit during the refresh after it and the
    /// display shows that drawing at the next.
    public static let presentationLatency = 2.0 / 60
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
                tracks[i][a.change.property] ?? [], initial: layers[i].initial.value(of: a.change.property),
                at: a.start,
                latency: 0)
            tracks[i][a.change.property, default: []].append(a)
        }
        self.tracks = tracks
    }

    /// One property's animation on one layer, as a span of the storyboard's time: from its
    /// start until it comes to rest (a `set` is a span of no length).
    public struct Span: Sendable, Hashable {
        public let layer: LayerID
        public let property: LayerProperty
        public let start: Double
        public let end: Double
    }

    /// Every animation of every layer's properties, layer by layer in the tree's order, each
    /// property's in the order they take over.
    public var spans: [Span] {
        tracks.enumerated().flatMap { i, track in
            LayerProperty.allCases.flatMap { property in
                (track[property] ?? []).map { a in
                    let length: Double
                    switch a.source {
                    case .curve(let curve): length = curve.duration
                    case .instant: length = 0
                    case .gesture(let drive): length = drive.track.duration
                    }
                    return Span(layer: LayerID(index: i), property: property, start: a.start, end: a.start + length)
                }
            }
        }
    }

    /// Whether `other` draws the layer at `index` (of `layers`) as this plan does, whenever it
    /// does: the same initial state, and the same animations of every property from the same
    /// values, each maybe starting at another time.
    public func drawsAlike(layerAt index: Int, in other: Plan) -> Bool {
        guard index < other.layers.count, layers[index] == other.layers[index] else { return false }
        func untimed(_ track: [LayerProperty: [PropertyAnimation]]) -> [LayerProperty: [PropertyAnimation]] {
            track.mapValues {
                $0.map {
                    var a = $0
                    a.start = 0
                    return a
                }
            }
        }
        return untimed(tracks[index]) == untimed(other.tracks[index])
    }

    /// The layer called `name`.
    public func layer(named name: String) -> LayerID? {
        layers.firstIndex { $0.name == name }.map(LayerID.init)
    }

    /// A layer's state on screen at `t` seconds.
    public func state(of layer: LayerID, at t: Double) -> LayerState {
        state(of: layer, at: t, latency: Plan.presentationLatency)
    }

    /// A layer's state as the app reads it at `t` (UIKit's presentation layer): every change
    /// from the moment it is made, before the screen shows it.
    public func modelState(of layer: LayerID, at t: Double) -> LayerState {
        state(of: layer, at: t, latency: 0)
    }

    private func state(of layer: LayerID, at t: Double, latency: Double) -> LayerState {
        var s = layers[layer.index].initial
        for (property, track) in tracks[layer.index] {
            s.set(property, Plan.value(track, initial: s.value(of: property), at: t, latency: latency))
        }
        return s
    }

    /// The value a track shows at `t`: the latest animation made at least `latency` before
    /// (or at 0) governs, at its progress at `t`, or a gesture's at `t - latency`. Each
    /// animation starts from the value made when it starts (`latency` 0: UIKit reads the
    /// presentation layer, which runs ahead of the screen).
    private static func value(_ track: [PropertyAnimation], initial: AnimatableValue, at t: Double, latency: Double)
        -> AnimatableValue
    {
        guard let a = track.last(where: { $0.start <= 0 || $0.start <= t - latency }) else { return initial }
        let progress: Double
        if case .gesture = a.source { progress = a.progress(at: t - latency) } else { progress = a.progress(at: t) }
        return (a.from ?? initial).interpolated(to: a.change.value, progress)
    }
}
