import Foundation
import Testing
import TestSupport
@testable import Planner

@Suite("Timing curves: UIKit's and Core Animation's own math")
struct CurveTests {
    @Test(
        "UIKit spring fit matches the reference test vectors (k and c within 1e-3)",
        arguments: [
            (0.5, 1.0, 18.4668, 341.024, 36.934), (0.5, 0.7, 19.6793, 387.275, 27.551),
            (0.5, 0.5, 25.4338, 646.878, 25.434),
            (0.35, 1.0, 26.3812, 695.967, 52.762), (3.0, 0.25, .nan, 54.8336, 3.7025),
        ])
    func referenceVectors(duration: Double, damping: Double, omega: Double, k: Double, c: Double) {
        let s = UIKitSpring(duration: duration, dampingRatio: damping)
        #expect(abs(s.stiffness - k) < 1e-3)
        #expect(abs(s.damping - c) < 1e-3)
        if !omega.isNaN { #expect(abs(s.naturalFrequency - omega) < 1e-4) }
    }

    @Test("With zero velocity the fit lands on the closed forms within 1e-4")
    func closedForms() {
        for zeta in stride(from: 0.05, through: 1.0, by: 0.05) {
            for t in stride(from: 0.1, through: 2.0, by: 0.1) {
                let s = UIKitSpring(duration: t, dampingRatio: zeta)
                let expected =
                    zeta >= 1 ? 9.233413 / t : log(zeta / (0.001 * (1 - zeta * zeta).squareRoot())) / (zeta * t)
                #expect(abs(s.naturalFrequency - expected) / expected < 1e-4, "ζ \(zeta) T \(t)")
            }
        }
    }

    @Test("Damping above 1 behaves as 1; duration clamps to 0.01...10")
    func clamps() {
        #expect(
            UIKitSpring(duration: 0.6, dampingRatio: 3).stiffness
                == UIKitSpring(duration: 0.6, dampingRatio: 1).stiffness)
        #expect(
            UIKitSpring(duration: 20, dampingRatio: 1).stiffness == UIKitSpring(duration: 10, dampingRatio: 1).stiffness
        )
    }

    @Test("The fitted envelope equals ε at T for any damping, duration and velocity in ±5")
    func envelopeAtDuration() {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<300 {
            let zeta = Double.random(in: 0.05...1, using: &rng), t = Double.random(in: 0.05...5, using: &rng)
            let v = Double.random(in: -5...5, using: &rng)
            let w = UIKitSpring(duration: t, dampingRatio: zeta, initialVelocity: v).naturalFrequency
            #expect(w.isFinite && w > 0)
            let envelope =
                zeta < 1
                ? abs((zeta * w - v) / (w * (1 - zeta * zeta).squareRoot())) * exp(-zeta * w * t)
                : abs((1 + (w - v) * t) * exp(-w * t))
            #expect(abs(envelope - 0.001) < 1e-6, "ζ \(zeta) T \(t) v \(v) ω0 \(w) envelope \(envelope)")
        }
    }

    @Test("Spring starts at 0 with slope v, and snaps to 1 at its duration")
    func springShape() {
        let s = UIKitSpring(duration: 0.6, dampingRatio: 0.7, initialVelocity: 2)
        #expect(s.progress(at: 0) == 0)
        #expect(abs(s.spring.velocity(at: 0) - 2) < 1e-3)
        #expect(s.progress(at: 0.6) == 1)
        #expect(s.progress(at: 0.5999) != 1)
    }

    @Test(
        "Overshoot with v = 0 is e^(−πζ/√(1−ζ²)): 4.6% at 0.7, 16.3% at 0.5, none at 1",
        arguments: [(0.7, 0.046), (0.5, 0.163), (1.0, 0.0)])
    func overshoot(zeta: Double, expected: Double) {
        let s = SpringCurve(mass: 1, stiffness: 400, damping: 2 * zeta * 20, duration: 5)
        let peak = stride(from: 0.0, to: 3, by: 0.0005).map { s.position(at: $0) }.max()! - 1
        #expect(abs(peak - expected) < 0.001)
    }

    @Test("System spring (3, 1000, 500) over 0.5 s matches the reference samples")
    func systemSpring() {
        let samples: [(Double, Double)] = [
            (0.05, 0.2322), (0.10, 0.5448), (0.15, 0.7583), (0.20, 0.8793), (0.25, 0.9420),
            (0.30, 0.9729), (0.35, 0.9876), (0.40, 0.9944), (0.4999, 0.9989),
        ]
        for (t, f) in samples { #expect(abs(Curve.system.progress(at: t) - f) < 5e-5, "t \(t)") }
        #expect(Curve.system.duration == 0.5)
        #expect(Curve.system.progress(at: 0.5) == 1)
    }

    @Test(
        "Core Animation settling durations: 0.3, 0.6 and 1.6 s, quantized to 0.1 s",
        arguments: [(1.0, 0.3), (3.0, 0.6), (30.0, 1.6)])
    func settling(mass: Double, expected: Double) {
        #expect(abs(SpringCurve(mass: mass, stiffness: 1000, damping: 500).settlingDuration - expected) < 1e-9)
    }

    @Test("Underdamped settling is the envelope's time to 0.001")
    func underdampedSettling() {
        let s = SpringCurve(mass: 1, stiffness: 100, damping: 10)
        let w0 = 10.0, zeta = 0.5, wd = w0 * (0.75).squareRoot(), b = zeta * w0 / wd
        #expect(abs(s.settlingDuration - log((1 + b) / 0.001) / (zeta * w0)) < 1e-12)
    }

    @Test("Response/bounce spring: k = (2π/response)², c = 4πζ/response")
    func responseSpring() {
        let s = SpringCurve.response(0.5, bounce: 0.2)
        #expect(abs(s.stiffness - pow(2 * .pi / 0.5, 2)) < 1e-9)
        #expect(abs(s.damping - 4 * .pi * 0.8 / 0.5) < 1e-9)
        let over = SpringCurve.response(0.5, bounce: -0.5)
        #expect(abs(over.dampingRatio - 2) < 1e-9)
        #expect(over.allowsOverdamping)
        #expect(over.position(at: 0.05) < SpringCurve.response(0.5).position(at: 0.05))
    }

    @Test(
        "Béziers agree with a dense independent inversion within 1e-7",
        arguments: ["easeIn", "easeOut", "easeInEaseOut", "default", "bezier:0.3,1.4,0.6,-0.2"])
    func bezier(spec: String) throws {
        guard case .bezier(let b) = try Curve(spec: spec) else {
            Issue.record("not a bezier")
            return
        }
        func point(_ t: Double) -> (Double, Double) {
            let u = 1 - t
            return (
                3 * u * u * t * b.x1 + 3 * u * t * t * b.x2 + t * t * t,
                3 * u * u * t * b.y1 + 3 * u * t * t * b.y2 + t * t * t
            )
        }
        for x in stride(from: 0.0, through: 1.0, by: 0.01) {
            var lo = 0.0, hi = 1.0
            for _ in 0..<200 {
                let mid = (lo + hi) / 2
                if point(mid).0 < x { lo = mid } else { hi = mid }
            }
            #expect(abs(b.value(atFraction: x) - point((lo + hi) / 2).1) < 1e-7)
        }
    }

    @Test(
        "Specs parse, and print back to themselves",
        arguments: [
            "spring:duration=0.6,dampingRatio=0.7,velocity=0", "spring:duration=0.6,damping=0.7,velocity=0",
            "bezier:0.42,0,1,1,duration=1", "easeIn:duration=0.4",
            "system",
            "caspring:mass=1,stiffness=100,damping=10,velocity=0,duration=1.5",
        ])
    func specRoundTrip(spec: String) throws {
        let curve = try Curve(spec: spec)
        #expect(try Curve(spec: curve.description) == curve)
    }

    @Test(
        "Bad specs say what was expected",
        arguments: [
            ("sprung:duration=1", "unknown curve 'sprung'; expected one of linear"),
            ("spring:duration=0.6", "missing dampingRatio"),
            ("spring:duration=0.6,damping=0.7,dampingRatio=0.7", "two spellings of one value"),
            (
                "spring:duration=0.6,damping=0.7,speed=2",
                "unknown parameter 'speed'; expected duration, dampingRatio, damping, velocity"
            ),
            ("bezier:0.4,0,1", "expected four numbers"), ("bezier:1.5,0,1,1", "must be in 0...1"),
            ("spring:duration=-1,damping=1", "duration = -1.0 must be more than 0"),
            ("caspring:mass=1,stiffness=x,damping=1", "is not a number"),
        ])
    func badSpecs(spec: String, message: String) {
        do {
            _ = try Curve(spec: spec)
            Issue.record("\(spec) parsed")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test("The promo's measured expand: the 0.6 s damping-1 spring crosses 0.5 by 0.11 s and 0.98 by 0.41 s")
    func promoExpand() {
        let s = Curve.spring(duration: 0.6, damping: 1)
        #expect(s.progress(at: 0.10) < 0.5 && s.progress(at: 0.11) > 0.5)
        #expect(s.progress(at: 0.41) > 0.98)
    }

    @Test(
        "Springs that never settle, or settle after a minute, are errors, not endless renders",
        arguments: [
            ("caspring:mass=1,stiffness=100,damping=0", "never settles"),
            ("caspring:mass=1,stiffness=100,damping=10,velocity=1e308", "never settles"),
            ("caspring:mass=1e9,stiffness=1,damping=1", "runs 1.38e+10 s"),
            ("caspring:mass=1,stiffness=1e-9,damping=1", "runs 1e+04 s"),
            ("response:response=100,bounce=0.99", "runs 1.1e+04 s"),
            ("spring:duration=1e300,damping=1", "runs 1e+300 s"),
            ("easeIn:duration=61", "runs 61 s"),
        ])
    func unsettled(spec: String, problem: String) {
        #expect { _ = try Curve(spec: spec) } throws: { "\($0)".contains(problem) && "\($0)".contains("at most 60 s") }
    }
}

@Suite("Durations as people write them, and nothing else")
struct SecondsTextTests {
    @Test(
        "Decimal seconds with an optional unit; hexadecimal floats, inf and nan are not durations",
        arguments: [
            ("0.3", 0.3), ("0.3s", 0.3), ("300ms", 0.3), (".5", 0.5), ("5e-1", 0.5), ("-1", -1.0), ("0x1p-1s", nil),
            ("0x1p-1", nil), ("inf", nil), ("nan", nil), ("1e", nil), ("1..2", nil), ("", nil),
        ] as [(String, Double?)])
    func parse(text: String, seconds: Double?) {
        #expect(SecondsText.parse(text) == seconds)
    }
}
