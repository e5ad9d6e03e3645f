import Geometry

/// How an interactive step turns a gesture into progress.
public struct GestureDrive: Sendable, Hashable {
    public enum Mapping: Sendable, Hashable {
        /// progress = translation / distance: UIViewPropertyAnimator's linear scrub.
        case linear
        /// The translation passes through the rubber band (viewport `dimension`) first.
        case rubberBand(dimension: Double)
    }

    public var track: GestureTrack
    public var axis: Axis
    /// The translation (points, signed) that makes progress 1.
    public var distance: Double
    public var mapping: Mapping
    /// Progress is clamped to this range.
    public var range: ClosedRange<Double>

    public init(
        track: GestureTrack, axis: Axis, distance: Double, mapping: Mapping = .linear,
        range: ClosedRange<Double> = 0...1
    ) {
        self.track = track
        self.axis = axis
        self.distance = distance
        self.mapping = mapping
        self.range = range
    }

    /// Progress `t` seconds after touch-down.
    public func progress(at t: Double) -> Double {
        var moved = axis.of(track.translation(at: t))
        if case .rubberBand(let dimension) = mapping { moved = ScrollPhysics.rubberBand(moved, dimension: dimension) }
        return min(max(moved / distance, range.lowerBound), range.upperBound)
    }

    /// Progress at lift.
    public var releaseProgress: Double { progress(at: track.duration) }

    /// The lift velocity as a spring's initial velocity toward `target` progress: progress per
    /// second divided by the progress still to go (UIKit's "whole distance per second").
    public func releaseVelocity(toward target: Double) -> Double {
        let remaining = target - releaseProgress
        guard abs(remaining) > 1e-9 else { return 0 }
        let progressPerSecond = axis.of(track.velocityAtRelease) / distance
        return progressPerSecond / remaining
    }
}

/// A piece of choreography. Steps nest like UIKit's animation calls: a block animates
/// several properties with one curve; blocks chain on completion (`sequence`) or run together
/// (`parallel`); `hold` waits; an interactive step follows a gesture.
public indirect enum Step: Sendable, Hashable {
    /// `UIView.animate(withDuration:delay:…) { changes }`: every change on one curve.
    case animate(Curve, delay: Double, changes: [Change])
    /// Changes applied at once, with no animation.
    case set([Change])
    /// Nothing happens for a while.
    case hold(Double)
    /// Each step starts when the one before it completes.
    case sequence([Step])
    /// The steps start together; the group lasts as long as the longest.
    case parallel([Step])
    /// The changes follow a gesture's progress (linear scrub), for as long as the finger is down.
    case interactive(GestureDrive, changes: [Change])

    /// An animation block with no delay.
    public static func animate(_ curve: Curve, _ changes: [Change]) -> Step {
        .animate(curve, delay: 0, changes: changes)
    }

    /// How long the step takes, until its last animation comes to rest.
    public var duration: Double {
        switch self {
        case .animate(let curve, let delay, _): return delay + curve.duration
        case .set: return 0
        case .hold(let d): return d
        case .sequence(let steps): return steps.reduce(0) { $0 + $1.duration }
        case .parallel(let steps): return steps.map(\.duration).max() ?? 0
        case .interactive(let drive, _): return drive.track.duration
        }
    }

    /// The step's animations, with absolute start times.
    func schedule(at start: Double, into out: inout [PropertyAnimation]) {
        switch self {
        case .animate(let curve, let delay, let changes):
            for c in changes {
                out.append(PropertyAnimation(change: c, start: start + delay, source: .curve(curve), order: out.count))
            }
        case .set(let changes):
            for c in changes {
                out.append(PropertyAnimation(change: c, start: start, source: .instant, order: out.count))
            }
        case .hold:
            break
        case .sequence(let steps):
            var t = start
            for s in steps {
                s.schedule(at: t, into: &out)
                t += s.duration
            }
        case .parallel(let steps):
            for s in steps { s.schedule(at: start, into: &out) }
        case .interactive(let drive, let changes):
            for c in changes {
                out.append(PropertyAnimation(change: c, start: start, source: .gesture(drive), order: out.count))
            }
        }
    }
}

/// One property's animation with an absolute start.
public struct PropertyAnimation: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        case curve(Curve)
        case instant
        case gesture(GestureDrive)
    }

    public var change: Change
    public var start: Double
    public var source: Source
    /// Scheduling order, which breaks ties between equal start times (later wins).
    public var order: Int
    /// The value it starts from; resolved to the presentation value at `start`.
    public var from: AnimatableValue? = nil

    /// Progress `t` seconds after the plan starts (0 before `start`).
    public func progress(at t: Double) -> Double {
        let local = t - start
        switch source {
        case .curve(let curve): return curve.progress(at: local)
        case .instant: return local >= 0 ? 1 : 0
        case .gesture(let drive): return drive.progress(at: max(0, local))
        }
    }
}
