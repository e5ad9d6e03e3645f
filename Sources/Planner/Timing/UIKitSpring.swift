import Foundation

/// `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:…)`, with
/// UIKit's own fit of the spring to the duration (`parametersOfSpringAnimation`):
///
/// 1. ζ is clamped to [1.19e−7, 1] (so ζ > 1 behaves as 1) and T to [0.01, 10].
/// 2. ω0 takes exactly 12 Newton steps from 5/T on "the envelope at T equals ε = 0.001":
///    ζ < 1: |(ζω0 − v)/(ω0·√(1−ζ²))|·e^(−ζω0·T) = ε; ζ = 1: (1 + (ω0 − v)·T)·e^(−ω0·T) = ±ε.
/// 3. The result is a Core Animation spring with m = 1, k = ω0², c = 2ζω0, the same velocity,
///    that runs for T and then snaps to 1.
public struct UIKitSpring: TimingCurve, Hashable {
    public let requestedDuration: Double
    public let requestedDampingRatio: Double
    public let initialVelocity: Double
    /// The Core Animation spring UIKit builds.
    public let spring: SpringCurve

    public init(duration: Double, dampingRatio: Double, initialVelocity: Double = 0) {
        requestedDuration = duration
        requestedDampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
        let zeta = min(max(dampingRatio, 1.19e-7), 1)
        let t = min(max(duration, 0.01), 10)
        let w0 = UIKitSpring.fitNaturalFrequency(duration: t, dampingRatio: zeta, velocity: initialVelocity)
        spring = SpringCurve(
            mass: 1, stiffness: w0 * w0, damping: 2 * zeta * w0, initialVelocity: initialVelocity, duration: duration)
    }

    public var duration: Double { requestedDuration }
    public var stiffness: Double { spring.stiffness }
    public var damping: Double { spring.damping }
    public var naturalFrequency: Double { spring.naturalFrequency }

    public func progress(at t: Double) -> Double { spring.progress(at: t) }

    /// 12 Newton steps from ω0 = 5/T on the envelope condition, as UIKit takes them.
    ///
    /// With an initial velocity toward the target the envelope's coefficient (ζω0 − v) can
    /// cross zero, and sources disagree on the derivative UIKit uses there; where the 12 steps
    /// leave the root (a non-finite or non-positive ω0, or an envelope off ε by more than
    /// 1e−9), the largest root is found by bracketing instead: the stiffest spring whose
    /// envelope has fallen to ε at T. Where Newton converges, both give the same root.
    static func fitNaturalFrequency(duration t: Double, dampingRatio zeta: Double, velocity v: Double) -> Double {
        let epsilon = 0.001
        var w = 5 / t
        for _ in 0..<12 {
            let f = envelope(w, t, zeta, v) - epsilon
            let df = envelopeSlope(w, t, zeta, v)
            if df == 0 || !df.isFinite { break }
            w -= f / df
        }
        if w.isFinite && w > 0 && abs(envelope(w, t, zeta, v) - epsilon) < 1e-9 { return w }
        return largestRoot(t, zeta, v, epsilon) ?? 5 / t
    }

    /// The envelope at T: |(ζω − v)/(ω·√(1−ζ²))|·e^(−ζωT) for ζ < 1, |1 + (ω − v)T|·e^(−ωT) for ζ = 1.
    static func envelope(_ w: Double, _ t: Double, _ zeta: Double, _ v: Double) -> Double {
        if zeta < 1 {
            return abs((zeta * w - v) / (w * (1 - zeta * zeta).squareRoot())) * exp(-zeta * w * t)
        }
        return abs(1 + (w - v) * t) * exp(-w * t)
    }

    /// d(envelope)/dω, analytically.
    static func envelopeSlope(_ w: Double, _ t: Double, _ zeta: Double, _ v: Double) -> Double {
        if zeta < 1 {
            let s = (1 - zeta * zeta).squareRoot()
            let a = (zeta * w - v) / (w * s)
            let sign: Double = a < 0 ? -1 : 1
            return sign * exp(-zeta * w * t) * (v / (w * w * s) - zeta * t * a)
        }
        let inner = 1 + (w - v) * t
        let sign: Double = inner < 0 ? -1 : 1
        return sign * exp(-w * t) * (t - inner * t)
    }

    /// The largest ω where the envelope crosses ε from above, by a log-spaced scan and bisection.
    static func largestRoot(_ t: Double, _ zeta: Double, _ v: Double, _ epsilon: Double) -> Double? {
        var hi = 1e4 / t
        var previous = envelope(hi, t, zeta, v) - epsilon
        var w = hi
        while w > 1e-6 {
            let next = w / 1.02
            let f = envelope(next, t, zeta, v) - epsilon
            if f > 0 && previous <= 0 {
                var lo = next
                hi = w
                for _ in 0..<200 {
                    let mid = (lo + hi) / 2
                    if envelope(mid, t, zeta, v) - epsilon > 0 { lo = mid } else { hi = mid }
                }
                return (lo + hi) / 2
            }
            previous = f
            w = next
        }
        return nil
    }
}
