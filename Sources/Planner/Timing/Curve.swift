import Geometry

/// A timing curve as configs and the command line name it: a Bézier, a UIKit spring fitted to
/// a duration, a Core Animation spring, or UIKit's system spring.
public enum Curve: Sendable, Hashable, CustomStringConvertible {
    case bezier(CubicBezier)
    case uikitSpring(UIKitSpring)
    case spring(SpringCurve)

    public var timing: any TimingCurve {
        switch self {
        case .bezier(let b): return b
        case .uikitSpring(let s): return s
        case .spring(let s): return s
        }
    }

    public func progress(at t: Double) -> Double { timing.progress(at: t) }
    public var duration: Double { timing.duration }

    /// `UIView.animate(withDuration:…, usingSpringWithDamping:, initialSpringVelocity:)`.
    public static func spring(duration: Double, damping: Double, velocity: Double = 0) -> Curve {
        .uikitSpring(UIKitSpring(duration: duration, dampingRatio: damping, initialVelocity: velocity))
    }

    /// A Bézier timing over `duration` seconds.
    public static func bezier(_ b: CubicBezier, duration: Double) -> Curve { .bezier(b.with(duration: duration)) }

    public static let system = Curve.spring(.system)

    /// The same curve with another duration (springs fitted by UIKit are refitted; Core
    /// Animation springs keep their physics and only move their cut-off).
    public func with(duration: Double) -> Curve {
        switch self {
        case .bezier(let b): return .bezier(b.with(duration: duration))
        case .uikitSpring(let s):
            return .spring(duration: duration, damping: s.requestedDampingRatio, velocity: s.initialVelocity)
        case .spring(let s):
            return .spring(
                SpringCurve(
                    mass: s.mass, stiffness: s.stiffness, damping: s.damping, initialVelocity: s.initialVelocity,
                    allowsOverdamping: s.allowsOverdamping, duration: duration))
        }
    }

    /// The same curve starting with another velocity (for springs released from a gesture).
    public func with(velocity: Double) -> Curve {
        switch self {
        case .bezier: return self
        case .uikitSpring(let s):
            return .spring(duration: s.requestedDuration, damping: s.requestedDampingRatio, velocity: velocity)
        case .spring(let s):
            return .spring(
                SpringCurve(
                    mass: s.mass, stiffness: s.stiffness, damping: s.damping, initialVelocity: velocity,
                    allowsOverdamping: s.allowsOverdamping, duration: s.duration))
        }
    }

    /// The canonical spec, which `init(spec:)` reads back.
    public var description: String {
        switch self {
        case .bezier(let b):
            for (name, preset) in CurveGrammar.namedBeziers
            where preset.x1 == b.x1 && preset.y1 == b.y1 && preset.x2 == b.x2 && preset.y2 == b.y2 {
                return "\(name):duration=\(b.duration.plainText)"
            }
            return
                "bezier:\(b.x1.plainText),\(b.y1.plainText),\(b.x2.plainText),\(b.y2.plainText),duration=\(b.duration.plainText)"
        case .uikitSpring(let s):
            return
                "spring:duration=\(s.requestedDuration.plainText),dampingRatio=\(s.requestedDampingRatio.plainText),velocity=\(s.initialVelocity.plainText)"
        case .spring(let s):
            if s == SpringCurve.system { return "system" }
            return
                "caspring:mass=\(s.mass.plainText),stiffness=\(s.stiffness.plainText),damping=\(s.damping.plainText),velocity=\(s.initialVelocity.plainText),duration=\(s.duration.plainText)"
        }
    }
}
