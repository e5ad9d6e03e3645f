import Foundation

/// Core Animation's spring (`CASpringAnimation`), evaluated in closed form with time in
/// seconds, not rescaled to the duration.
///
/// ζ < 1 is the underdamped oscillator; ζ ≥ 1 uses the critically damped form with ω0 unless
/// `allowsOverdamping` (only the response/bounce initializers set it), exactly as QuartzCore
/// does. Velocity is in "whole distance per second", positive toward the target.
public struct SpringCurve: TimingCurve, Hashable {
    public let mass: Double
    public let stiffness: Double
    public let damping: Double
    public let initialVelocity: Double
    public let allowsOverdamping: Bool
    public var duration: Double

    /// A spring that runs for `duration` seconds (nil: its settling duration).
    public init(
        mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0,
        allowsOverdamping: Bool = false, duration: Double? = nil
    ) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.allowsOverdamping = allowsOverdamping
        self.duration = 0
        self.duration = duration ?? settlingDuration
    }

    /// ω0 = √(k/m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// ζ = c / (2√(k·m)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    public func progress(at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        return position(at: t)
    }

    /// The closed form with no cut-off.
    public func position(at t: Double) -> Double {
        let w0 = naturalFrequency, zeta = dampingRatio, v = initialVelocity
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v) / wd
            return 1 - exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        }
        if zeta > 1 && allowsOverdamping {
            let r = w0 * (zeta * zeta - 1).squareRoot()
            let fast = (v - zeta * w0 + r) / (2 * r)
            let slow = 1 - fast
            return 1 - (fast * exp(-(zeta * w0 + r) * t) + slow * exp(-(zeta * w0 - r) * t))
        }
        return 1 - (1 + (w0 - v) * t) * exp(-w0 * t)
    }

    /// The progress velocity (per second) at `t`, by central difference of the closed form.
    public func velocity(at t: Double) -> Double {
        let h = 1e-6
        return (position(at: t + h) - position(at: max(0, t - h))) / (t + h - max(0, t - h))
    }

    /// Core Animation's `settlingDuration` (`durationForEpsilon(0.001)`): for ζ < 1 the
    /// envelope's time to reach ε; otherwise the first 0.1 s grid time after which |1 − f|
    /// stays under ε for more than a second of samples.
    public var settlingDuration: Double {
        let epsilon = 0.001
        let w0 = naturalFrequency, zeta = dampingRatio
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - initialVelocity) / wd
            return max(0, log((1 + abs(b)) / epsilon) / (zeta * w0))
        }
        var candidate: Double? = nil
        var step = 0
        while step < 100_000 {
            let t = Double(step) / 10
            if abs(1 - position(at: t)) < epsilon {
                if let c = candidate {
                    if t - c > 1.0 { return c }
                } else {
                    candidate = t
                }
            } else {
                candidate = nil
            }
            step += 1
        }
        return candidate ?? 10_000
    }

    /// UIKit's default system spring (animation curve 7, modal presentation, navigation push):
    /// mass 3, stiffness 1000, damping 500, run for 0.5 s whatever duration was asked.
    public static let system = SpringCurve(mass: 3, stiffness: 1000, damping: 500, duration: 0.5)

    /// `UISpringTimingParameters(dampingRatio:response:)` and SwiftUI's `Spring(duration:bounce:)`:
    /// m = 1, k = (2π/response)², c = 4πζ/response, with ζ = 1 − bounce (bounce ≥ 0) or
    /// 1/(1 + bounce) (bounce < 0, overdamped). Runs for its settling duration.
    public static func response(_ response: Double, bounce: Double = 0, initialVelocity: Double = 0) -> SpringCurve {
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        let k = pow(2 * Double.pi / response, 2)
        let c = 4 * Double.pi * zeta / response
        return SpringCurve(mass: 1, stiffness: k, damping: c, initialVelocity: initialVelocity, allowsOverdamping: true)
    }
}
