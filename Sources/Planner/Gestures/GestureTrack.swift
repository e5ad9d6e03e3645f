import Geometry

/// A scripted touch: where the finger is over time, from touch-down to lift, and how fast it
/// was moving when it lifted. Times are seconds from touch-down.
public struct GestureTrack: Sendable, Hashable {
    /// One stretch of the track: the finger moves from `from` to `to` over `duration`, eased.
    public struct Segment: Sendable, Hashable {
        public var start: Double
        public var duration: Double
        public var from: Point
        public var to: Point
        public var easing: CubicBezier
    }

    public private(set) var segments: [Segment] = []
    public let origin: Point
    /// The velocity at lift in points per second; nil takes the last segment's end velocity.
    public var releaseVelocity: Point?

    /// A touch that goes down at `origin` (and stays there until moved).
    public init(pressAt origin: Point) {
        self.origin = origin
    }

    /// How long the finger is down.
    public var duration: Double { segments.last.map { $0.start + $0.duration } ?? 0 }
    var end: Point { segments.last?.to ?? origin }

    /// Moves the finger by (dx, dy) over `duration` seconds with an easing (linear by default,
    /// as a steady drag).
    public func dragging(by dx: Double, _ dy: Double, over duration: Double, easing: CubicBezier = .linear)
        -> GestureTrack
    {
        var copy = self
        let from = end
        copy.segments.append(
            Segment(
                start: self.duration, duration: max(0, duration), from: from,
                to: Point(x: from.x + dx, y: from.y + dy), easing: easing))
        return copy
    }

    /// Keeps the finger still for `duration` seconds.
    public func holding(for duration: Double) -> GestureTrack { dragging(by: 0, 0, over: duration) }

    /// Lifts the finger with an explicit velocity (points per second).
    public func releasing(velocity: Point) -> GestureTrack {
        var copy = self
        copy.releaseVelocity = velocity
        return copy
    }

    /// The finger's position `t` seconds after touch-down (held at the ends).
    public func position(at t: Double) -> Point {
        guard let last = segments.last else { return origin }
        if t >= last.start + last.duration { return last.to }
        for s in segments where t < s.start + s.duration {
            if t <= s.start { return s.from }
            let p = s.duration > 0 ? s.easing.value(atFraction: (t - s.start) / s.duration) : 1
            return Point(x: lerp(s.from.x, s.to.x, p), y: lerp(s.from.y, s.to.y, p))
        }
        return last.to
    }

    /// How far the finger has moved since touch-down.
    public func translation(at t: Double) -> Point {
        let p = position(at: t)
        return Point(x: p.x - origin.x, y: p.y - origin.y)
    }

    /// The velocity at lift, points per second.
    public var velocityAtRelease: Point {
        if let releaseVelocity { return releaseVelocity }
        guard let s = segments.last, s.duration > 0 else { return .zero }
        let k = s.easing.endSlope / s.duration
        return Point(x: (s.to.x - s.from.x) * k, y: (s.to.y - s.from.y) * k)
    }
}

/// An axis of motion.
public enum Axis: String, Sendable, Hashable {
    case x, y

    public func of(_ p: Point) -> Double { self == .x ? p.x : p.y }
}
