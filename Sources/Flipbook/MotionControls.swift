import Foundation
import Planner
import Scenes

/// What a curve editor may change of an animation param's motion, and how, as the library reads
/// the param: the parts its curve reads, and each handle's place and the edit a drag makes. A
/// page holds no curve grammar: it moves a handle, reads the number off the graph, and writes
/// it into the handle's template.
public struct MotionControls: Sendable, Hashable, Encodable {
    /// What the curve is: UIKit's spring from the param's parts, a cubic Bézier, a response
    /// spring (SwiftUI's `spring(duration:bounce:)`), or another spec, which has no handles.
    public enum Kind: String, Sendable, Hashable, Encodable { case spring, bezier, response, spec }

    /// One handle on the graph.
    public struct Handle: Sendable, Hashable, Encodable {
        /// Where it sits: (time in seconds, progress).
        public let at: [Double]
        /// The field a drag edits.
        public let key: String
        /// The value a drag writes: each `{name}` replaced by a number (`{value}`, or a Bézier's
        /// `{x1}`, `{y1}`, `{x2}`, `{y2}`).
        public let template: String
        /// The numbers the template's names have now, in the order above.
        public let values: [Double]
        /// The range a `{value}` is kept in.
        public let range: [Double]?
        /// For the bounce: (overshoot, value written) pairs by rising overshoot, between which a
        /// dragged peak's overshoot is read.
        public let byOvershoot: [[Double]]?
    }

    public let kind: Kind
    /// The param's parts the curve reads (`duration`, `dampingRatio`, `velocity`), and `curve`.
    public let reads: [String]
    /// The handles by name: `duration`, `bounce`, `p1`, `p2`.
    public let handles: [String: Handle]

    /// The controls of animation param `key` set to `animation`, whose motion is `motion`.
    init(key: String, animation: AnimationSetting, motion: Motion) {
        let spec = animation.curveSpec
        let curve = "\(key).curve"
        reads = animation.readParts + ["curve"]
        let peak = motion.samples.max { $0.progress < $1.progress }.map { [$0.time, $0.progress] }
        func bounceAt(_ end: Double) -> [Double] {
            motion.overshoot > 0.0005 ? peak ?? [end * 0.35, 1] : [end * 0.35, 1]
        }
        let table = motion.dampingByOvershoot ?? []
        if spec == "spring" {
            kind = .spring
            handles = [
                "duration": Handle(
                    at: [motion.duration, 1], key: "\(key).duration", template: "{value}", values: [animation.duration],
                    range: [0.05, 10], byOvershoot: nil),
                "bounce": Handle(
                    at: bounceAt(motion.duration), key: "\(key).dampingRatio", template: "{value}",
                    values: [animation.damping], range: [0.05, 1], byOvershoot: table),
            ]
        } else if let points = motion.controlPoints {
            kind = .bezier
            // A Bézier that names its own duration keeps it; one that runs the param's does.
            let own = animation.reads("duration") ? "" : ",duration=\(motion.duration.plainText)"
            let template = "bezier:{x1},{y1},{x2},{y2}" + own
            handles = [
                "p1": Handle(
                    at: [points[0] * motion.duration, points[1]], key: curve, template: template, values: points,
                    range: nil, byOvershoot: nil),
                "p2": Handle(
                    at: [points[2] * motion.duration, points[3]], key: curve, template: template, values: points,
                    range: nil, byOvershoot: nil),
            ]
        } else if let parts = Self.responseParts(spec), let response = parts.first(where: { $0.0 == "response" }) {
            kind = .response
            // The spec with one part made `{value}`, the others kept in their order.
            func template(_ name: String) -> String {
                let named = parts.contains { $0.0 == name } ? parts : parts + [(name, "")]
                return "response:" + named.map { "\($0.0)=\($0.0 == name ? "{value}" : $0.1)" }.joined(separator: ",")
            }
            let seconds = Double(response.1) ?? motion.duration
            let bounce = parts.first { $0.0 == "bounce" }.flatMap { Double($0.1) } ?? 0
            handles = [
                "duration": Handle(
                    at: [seconds, 1], key: curve, template: template("response"), values: [seconds], range: [0.05, 10],
                    byOvershoot: nil),
                // SwiftUI's bounce is 1 − ζ for a spring that bounces at all.
                "bounce": Handle(
                    at: bounceAt(seconds), key: curve, template: template("bounce"), values: [bounce],
                    range: [0, 0.95],
                    byOvershoot: table.map { [$0[0], ((1 - $0[1]) * 1e4).rounded() / 1e4] }),
            ]
        } else {
            kind = .spec
            handles = [:]
        }
    }

    /// A curve one click away: its label, the value the curve field takes, and what it is.
    public struct Preset: Sendable, Hashable, Encodable {
        public let label: String
        public let value: String
        public let doc: String
    }

    /// The curves one click away, UIKit's then SwiftUI's (its springs are response springs,
    /// `spring(duration: 0.5, bounce: …)` exactly).
    public static let presets: [(group: String, presets: [Preset])] = [
        (
            "UIKit",
            [
                Preset(
                    label: "spring", value: "spring",
                    doc:
                        "UIView.animate(withDuration:usingSpringWithDamping:…), from this param's duration and damping ratio"
                ),
                Preset(label: "easeIn", value: "easeIn", doc: ".curveEaseIn"),
                Preset(label: "easeOut", value: "easeOut", doc: ".curveEaseOut"),
                Preset(label: "easeInEaseOut", value: "easeInEaseOut", doc: ".curveEaseInOut"),
                Preset(label: "linear", value: "linear", doc: ".curveLinear"),
                Preset(label: "system", value: "system", doc: "the system spring: mass 3, stiffness 1000, damping 500"),
            ]
        ),
        (
            "SwiftUI",
            [
                Preset(
                    label: ".smooth", value: "response:response=0.5,bounce=0",
                    doc: ".smooth: spring(duration: 0.5, bounce: 0)"),
                Preset(
                    label: ".snappy", value: "response:response=0.5,bounce=0.15",
                    doc: ".snappy: spring(duration: 0.5, bounce: 0.15)"),
                Preset(
                    label: ".bouncy", value: "response:response=0.5,bounce=0.3",
                    doc: ".bouncy: spring(duration: 0.5, bounce: 0.3)"),
            ]
        ),
    ]

    /// A response spring's parts as written (`response:response=0.5,bounce=0.15`), or nil.
    static func responseParts(_ spec: String) -> [(String, String)]? {
        guard spec.hasPrefix("response:"), (try? Curve(spec: spec)) != nil else { return nil }
        return spec.dropFirst("response:".count).split(separator: ",").map {
            let kv = $0.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return (kv[0], kv.count > 1 ? kv[1] : "")
        }
    }
}

extension Transition {
    /// The curve editor's controls of the animation param at `key`, or nil when it is none;
    /// `motion` is its motion, when the caller has it already.
    public func motionControls(of key: String, motion known: Motion? = nil) -> MotionControls? {
        guard let animation = renderer.scene.values.animation(key), let motion = known ?? motion(of: key) else {
            return nil
        }
        return MotionControls(key: key, animation: animation, motion: motion)
    }
}
