import Foundation
import Geometry
import Planner
import Scenes
import Synchronization

/// A timing curve as a designer reads it: progress over time, sampled, how far it
/// overshoots, and the UIKit and Core Animation code that makes the same motion.
public struct Motion: Sendable, Hashable {
    /// How long it runs, in seconds.
    public let duration: Double
    /// (time in seconds, progress) pairs from 0 to the end, evenly spaced.
    public let samples: [Sample]
    /// The most progress passes 1, as a fraction of the distance (0 when it never overshoots).
    public let overshoot: Double
    /// The curve's canonical spec (`spring:duration=0.6,dampingRatio=1,velocity=0`).
    public let spec: String
    /// Lines of Swift that make this motion on iOS, each a complete statement.
    public let code: [String]
    /// For a cubic Bézier, its control points (x1, y1, x2, y2); nil for a spring.
    public let controlPoints: [Double]?
    /// For a spring, (overshoot, damping ratio) pairs by rising overshoot: the first overshoot
    /// each damping ratio from 1 down to 0.04, by fiftieths, gives it, its other settings
    /// kept. The curve editor turns a dragged peak into a damping ratio (or a bounce, 1 − ζ)
    /// by these.
    public let dampingByOvershoot: [[Double]]?

    public struct Sample: Sendable, Hashable {
        public let time: Double
        public let progress: Double
    }

    /// The motion of a curve spec (`easeIn:duration=0.3`, `spring:duration=0.6,dampingRatio=0.8`, …).
    public init(spec: String, samples count: Int = 121) throws {
        self.init(try Curve(spec: spec), samples: count)
    }

    init(_ curve: Curve, samples count: Int = 121) {
        duration = curve.duration
        samples = Motion.samples(of: curve, count: count)
        overshoot = max(0, (samples.map(\.progress).max() ?? 1) - 1)
        spec = curve.description
        code = Motion.code(for: curve)
        if case .bezier(let b) = curve { controlPoints = [b.x1, b.y1, b.x2, b.y2] } else { controlPoints = nil }
        dampingByOvershoot = Motion.dampingByOvershoot(curve)
    }

    /// `count` evenly spaced samples of `curve`, from 0 to its end.
    static func samples(of curve: Curve, count: Int = 121) -> [Sample] {
        let n = max(2, count)
        return (0..<n).map { i in
            let t = curve.duration * Double(i) / Double(n - 1)
            return Sample(time: t, progress: curve.progress(at: t))
        }
    }

    /// The table `dampingByOvershoot` holds: each damping ratio's spring's overshoot.
    static func dampingByOvershoot(_ curve: Curve) -> [[Double]]? {
        func spring(_ zeta: Double) -> Curve? {
            switch curve {
            case .bezier: return nil
            case .uikitSpring(let s):
                return .spring(duration: s.requestedDuration, damping: zeta, velocity: s.initialVelocity)
            case .spring(let s):
                return .spring(
                    SpringCurve(
                        mass: s.mass, stiffness: s.stiffness, damping: 2 * zeta * (s.stiffness * s.mass).squareRoot(),
                        initialVelocity: s.initialVelocity, allowsOverdamping: s.allowsOverdamping))
            }
        }
        // The spring at ζ = 1 stands for the family: every other setting is the same.
        guard let family = spring(1) else { return nil }
        if let known = tables.withLock({ $0[family] }) { return known }
        var pairs: [[Double]] = []
        for hundredths in stride(from: 100, through: 4, by: -2) {
            let zeta = Double(hundredths) / 100, c = spring(zeta)!
            // Sampled as a motion's own curve is, whose highest sample the page draws the peak at.
            let overshoot = max(0, Motion.samples(of: c).map(\.progress).max()! - 1)
            pairs.append([(overshoot * 1e4).rounded() / 1e4, zeta])
        }
        pairs.sort { $0[0] < $1[0] }
        tables.withLock {
            if $0.count >= 1_000 { $0 = [:] }
            $0[family] = pairs
        }
        return pairs
    }

    /// The tables made so far: the studio describes every curve again on each edit.
    private static let tables = Mutex<[Curve: [[Double]]]>([:])

    /// The statements that make `curve` on iOS, the exact equivalents first.
    static func code(for curve: Curve) -> [String] {
        func n(_ v: Double) -> String {
            let r = (v * 10_000).rounded() / 10_000
            return r.plainText
        }
        switch curve {
        case .uikitSpring(let s):
            let d = n(s.requestedDuration), z = n(s.requestedDampingRatio), v = n(s.initialVelocity)
            return [
                "UIView.animate(withDuration: \(d), delay: 0, usingSpringWithDamping: \(z), initialSpringVelocity: \(v), options: [], animations: { /* changes */ })",
                "UIViewPropertyAnimator(duration: \(d), timingParameters: UISpringTimingParameters(dampingRatio: \(z), initialVelocity: CGVector(dx: \(v), dy: \(v))))",
                "// Core Animation, the spring UIKit fits to \(d) s:",
                "let spring = CASpringAnimation(keyPath: \"position\"); spring.mass = 1; spring.stiffness = \(n(s.stiffness)); spring.damping = \(n(s.damping)); spring.initialVelocity = \(v); spring.duration = \(d)",
            ]
        case .spring(let s):
            if s == SpringCurve.system {
                return [
                    "// UIKit's system spring (animation curve 7: modal presentation, navigation push), 0.5 s:",
                    "let spring = CASpringAnimation(keyPath: \"position\"); spring.mass = 3; spring.stiffness = 1000; spring.damping = 500; spring.duration = 0.5",
                ]
            }
            let settles = abs(s.duration - s.settlingDuration) < 0.0005
            var lines = [
                "let spring = CASpringAnimation(keyPath: \"position\"); spring.mass = \(n(s.mass)); spring.stiffness = \(n(s.stiffness)); spring.damping = \(n(s.damping)); spring.initialVelocity = \(n(s.initialVelocity)); spring.duration = \(settles ? "spring.settlingDuration" : n(s.duration))"
            ]
            let parameters =
                "UISpringTimingParameters(mass: \(n(s.mass)), stiffness: \(n(s.stiffness)), damping: \(n(s.damping)), initialVelocity: CGVector(dx: \(n(s.initialVelocity)), dy: \(n(s.initialVelocity))))"
            if settles {
                lines.append(
                    "UIViewPropertyAnimator(duration: 0, timingParameters: \(parameters))  // runs its settling duration"
                )
            } else {
                lines.append(
                    "// \(parameters) runs its settling duration (\(n(s.settlingDuration)) s), not \(n(s.duration)) s")
            }
            return lines
        case .bezier(let b):
            let d = n(b.duration)
            let named: [(CubicBezier, String, String, String)] = [
                (.linear, ".curveLinear", ".linear", ".linear"), (.easeIn, ".curveEaseIn", ".easeIn", ".easeIn"),
                (.easeOut, ".curveEaseOut", ".easeOut", ".easeOut"),
                (.easeInEaseOut, ".curveEaseInOut", ".easeInOut", ".easeInEaseOut"),
            ]
            let same = { (a: CubicBezier) in a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2 }
            if let (_, option, uikit, ca) = named.first(where: { same($0.0) }) {
                return [
                    "UIView.animate(withDuration: \(d), delay: 0, options: [\(option)], animations: { /* changes */ })",
                    "UIViewPropertyAnimator(duration: \(d), curve: \(uikit), animations: { /* changes */ })",
                    "CAMediaTimingFunction(name: \(ca))  // with animation.duration = \(d)",
                ]
            }
            if same(.default) {
                return ["CAMediaTimingFunction(name: .default)  // with animation.duration = \(d)"]
            }
            let p1 = "CGPoint(x: \(n(b.x1)), y: \(n(b.y1)))", p2 = "CGPoint(x: \(n(b.x2)), y: \(n(b.y2)))"
            return [
                "UIViewPropertyAnimator(duration: \(d), timingParameters: UICubicTimingParameters(controlPoint1: \(p1), controlPoint2: \(p2)))",
                "CAMediaTimingFunction(controlPoints: \(n(b.x1)), \(n(b.y1)), \(n(b.x2)), \(n(b.y2)))  // with animation.duration = \(d)",
            ]
        }
    }
}

extension Transition {
    /// The motion of the animation or curve param at `key` as this transition has it, or nil
    /// when that param is neither.
    public func motion(of key: String) -> Motion? {
        let values = renderer.scene.values
        if let a = values.animation(key) { return Motion(a.curve) }
        guard renderer.scene.params.contains(where: { $0.key == key && $0.kind == .curve }),
            let spec = values.text(of: key), let curve = try? Curve(spec: spec)
        else { return nil }
        return Motion(curve)
    }
}
