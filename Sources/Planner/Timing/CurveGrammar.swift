import Foundation

/// Reads curve specs:
///
/// ```
/// linear | easeIn | easeOut | easeInEaseOut | default        [:duration=S]   (S: 0.3, 0.3s or 300ms)
/// bezier:X1,Y1,X2,Y2                                        [,duration=S]
/// spring:duration=S,dampingRatio=Z[,velocity=V]             UIKit's fit to a duration
/// caspring:mass=M,stiffness=K,damping=C[,velocity=V][,duration=S]   Core Animation
/// response:response=S[,bounce=B][,velocity=V]               response/bounce spring
/// system                                                    mass 3, stiffness 1000, damping 500, 0.5 s
/// ```
enum CurveGrammar {
    /// The Béziers a spec names, by the names a canonical spec writes.
    static let namedBeziers: [(String, CubicBezier)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInEaseOut", .easeInEaseOut),
        ("default", .default),
    ]
    /// Other names read for them (UIKit's option's spelling), never written.
    static let bezierAliases: [(String, CubicBezier)] = [("easeInOut", .easeInEaseOut)]

    static let expected =
        "one of linear, easeIn, easeOut, easeInEaseOut, default (each with optional :duration=S), "
        + "bezier:x1,y1,x2,y2[,duration=S], spring:duration=S,dampingRatio=Z[,velocity=V], "
        + "caspring:mass=M,stiffness=K,damping=C[,velocity=V][,duration=S], response:response=S[,bounce=B][,velocity=V], system"

    /// The longest a curve may run, its settling included: far past any transition, and short
    /// enough that a spring that never settles (no damping, a huge velocity, a tiny stiffness)
    /// is an error here, not an endless render.
    static let maximumDuration = 60.0

    static func parse(_ spec: String) throws -> Curve {
        let curve = try parseUnchecked(spec)
        guard curve.duration.isFinite, curve.duration <= maximumDuration else {
            let lasts = curve.duration.isFinite ? "runs \(String(format: "%.3g", curve.duration)) s" : "never settles"
            throw PlanError.curveSpec(
                spec: spec,
                problem:
                    "\(lasts); a curve runs at most \(Int(maximumDuration)) s (more damping or stiffness, less velocity, or a shorter duration)"
            )
        }
        return curve
    }

    private static func parseUnchecked(_ spec: String) throws -> Curve {
        let trimmed = spec.trimmingCharacters(in: .whitespaces)
        let (name, rest) = split(trimmed)
        func fail(_ problem: String) -> PlanError { .curveSpec(spec: spec, problem: problem) }

        if name == "system" {
            guard rest.isEmpty else { throw fail("system takes no parameters") }
            return .system
        }
        if let (_, preset) = (namedBeziers + bezierAliases).first(where: { $0.0 == name }) {
            let p = try parameters(rest, allowed: ["duration"], spec: spec)
            return .bezier(preset.with(duration: try positive(p["duration"] ?? 1, "duration", spec)))
        }
        switch name {
        case "bezier":
            let items = rest.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let numbers = items.filter { !$0.contains("=") }
            guard numbers.count == 4,
                let v = Optional(numbers.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }), v.count == 4,
                v.allSatisfy(\.isFinite)
            else { throw fail("expected four numbers, bezier:x1,y1,x2,y2, with x1 and x2 in 0...1") }
            guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
                throw fail("x1 = \(v[0]) and x2 = \(v[2]) must be in 0...1, so that time only moves forward")
            }
            let p = try parameters(
                items.filter { $0.contains("=") }.joined(separator: ","), allowed: ["duration"], spec: spec)
            return .bezier(
                CubicBezier(v[0], v[1], v[2], v[3], duration: try positive(p["duration"] ?? 1, "duration", spec)))
        case "spring":
            // UIKit's damping ratio, `dampingRatio`; `damping` is its former name here (in
            // `caspring:` it is Core Animation's coefficient).
            let p = try parameters(
                rest, allowed: ["duration", "dampingRatio", "damping", "velocity"], required: ["duration"], spec: spec)
            if p["dampingRatio"] != nil && p["damping"] != nil {
                throw fail("dampingRatio and damping are two spellings of one value; give one")
            }
            guard let ratio = p["dampingRatio"] ?? p["damping"] else {
                throw fail("missing dampingRatio; expected spring:duration=S,dampingRatio=Z[,velocity=V]")
            }
            let duration = try positive(p["duration"]!, "duration", spec)
            let damping = try positive(ratio, "dampingRatio", spec)
            return .spring(duration: duration, damping: damping, velocity: p["velocity"] ?? 0)
        case "caspring":
            let p = try parameters(
                rest, allowed: ["mass", "stiffness", "damping", "velocity", "duration"],
                required: ["mass", "stiffness", "damping"], spec: spec)
            let mass = try positive(p["mass"]!, "mass", spec),
                stiffness = try positive(p["stiffness"]!, "stiffness", spec)
            guard p["damping"]! >= 0 else { throw fail("damping = \(p["damping"]!) must be 0 or more") }
            return .spring(
                SpringCurve(
                    mass: mass, stiffness: stiffness, damping: p["damping"]!, initialVelocity: p["velocity"] ?? 0,
                    duration: try p["duration"].map { try positive($0, "duration", spec) }))
        case "response":
            let p = try parameters(
                rest, allowed: ["response", "bounce", "velocity"], required: ["response"], spec: spec)
            let bounce = p["bounce"] ?? 0
            guard bounce > -1 && bounce < 1 else { throw fail("bounce = \(bounce) must be in (-1, 1)") }
            return .spring(
                .response(
                    try positive(p["response"]!, "response", spec), bounce: bounce, initialVelocity: p["velocity"] ?? 0)
            )
        default:
            throw fail("unknown curve '\(name)'; expected \(expected)")
        }
    }

    private static func split(_ s: String) -> (String, String) {
        guard let colon = s.firstIndex(of: ":") else { return (s, "") }
        return (String(s[..<colon]), String(s[s.index(after: colon)...]))
    }

    private static func parameters(_ text: String, allowed: [String], required: [String] = [], spec: String) throws
        -> [String: Double]
    {
        var out: [String: Double] = [:]
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw PlanError.curveSpec(
                    spec: spec, problem: "'\(item)' is not name=value; expected \(allowed.joined(separator: ", "))")
            }
            guard allowed.contains(parts[0]) else {
                throw PlanError.curveSpec(
                    spec: spec, problem: "unknown parameter '\(parts[0])'; expected \(allowed.joined(separator: ", "))")
            }
            let durations = ["duration", "response"]
            guard let v = durations.contains(parts[0]) ? SecondsText.parse(parts[1]) : Double(parts[1]), v.isFinite
            else {
                throw PlanError.curveSpec(
                    spec: spec,
                    problem:
                        "\(parts[0]) = '\(parts[1])' is not a number\(durations.contains(parts[0]) ? " of seconds (0.3, 0.3s or 300ms)" : "")"
                )
            }
            out[parts[0]] = v
        }
        for name in required where out[name] == nil {
            throw PlanError.curveSpec(
                spec: spec, problem: "missing \(name); expected \(required.map { "\($0)=…" }.joined(separator: ","))")
        }
        return out
    }

    private static func positive(_ v: Double, _ name: String, _ spec: String) throws -> Double {
        guard v > 0 else { throw PlanError.curveSpec(spec: spec, problem: "\(name) = \(v) must be more than 0") }
        return v
    }
}

extension Curve {
    /// Parses a curve spec (see `CurveGrammar`); errors say what was expected.
    public init(spec: String) throws {
        self = try CurveGrammar.parse(spec)
    }
}
