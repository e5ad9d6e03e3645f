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
        spring = SpringCurve(mass: 1, stiffness: w0 * w0, damping: 2 * zeta * w0, initialVelocity: initialVelocity, duration: duration)
    }

    public var duration: Double { requestedDuration }
    public var stiffness: Double { spring.stiffness }
    public var damping: Double { spring.damping }
    public var naturalFrequency: Double { spring.naturalFrequency }

    public func progress(at t: Double) -> Double { spring.progress(at: t) }

    /// 12 Newton steps from ω0 = 5/T on the envelope condition, derivative taken analytically.
    static func fitNaturalFrequency(duration t: Double, dampingRatio zeta: Double, velocity v: Double) -> Double {
        let epsilon = 0.001
        var w = 5 / t
        for _ in 0..<12 {
            let f: Double, df: Double
            if zeta < 1 {
                let s = (1 - zeta * zeta).squareRoot()
                let e = exp(-zeta * w * t)
                // g(w) = (ζw − v)/(w·s) · e^(−ζwT), compared by magnitude with ε.
                let a = (zeta * w - v) / (w * s)
                let sign: Double = a < 0 ? -1 : 1
                f = sign * a * e - epsilon
                let da = v / (w * w * s)
                df = sign * (da * e + a * e * (-zeta * t))
            } else {
                let e = exp(-w * t)
                let target = w < v ? -epsilon : epsilon
                f = (1 + (w - v) * t) * e - target
                df = t * e - (1 + (w - v) * t) * t * e
            }
            if df == 0 { break }
            w -= f / df
        }
        return w
    }
}
