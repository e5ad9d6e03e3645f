import Geometry

/// The types a scene file's param can have: the key that holds its default. Each is declared
/// once, with its doc and the options it takes; the reader's switch over them is exhaustive,
/// and the reference and the JSON Schema read this list.
public enum SceneParamKind: String, Sendable, Hashable, CaseIterable {
    case number, seconds, integer, flag, color, rect, point, animation, curve, image, path, choice

    /// What its value is, for the reference.
    public var doc: String {
        switch self {
        case .number: "a number; `range: [low, high]`"
        case .seconds: "a duration: `0.3`, `0.3s` or `300ms`; `range` (in seconds) defaults to [0, 60]"
        case .integer: "a whole number; `range: [low, high]`"
        case .flag: "true or false"
        case .color: "\"#RRGGBB\" or \"#RRGGBBAA\""
        case .rect: "[x, y, width, height] in points; `inside: canvas` requires it on screen"
        case .point: "[x, y] in points"
        case .animation:
            "{duration, dampingRatio, velocity, curve}: a UIKit spring (`dampingRatio` is UIKit's ratio, formerly `damping`), or any curve spec in `curve`"
        case .curve: "a curve spec, such as easeIn:duration=0.3 or caspring:mass=1,stiffness=200,damping=20"
        case .image:
            "a PNG path, relative to the file; `shape: screen` (the whole canvas), `[width, height]` in points, or `free` (with `pixelsPerPoint`); any scale"
        case .path: "any file path, relative to the file"
        case .choice: "one of the names in `of: [a, b]`"
        }
    }

    /// The options it takes besides `doc`.
    public var options: [String] {
        switch self {
        case .number, .seconds, .integer: ["range"]
        case .rect: ["inside"]
        case .image: ["shape", "pixelsPerPoint"]
        case .choice: ["of"]
        default: []
        }
    }
}

/// One param as its scene file declares it, for tools that show and edit params: its key
/// path, type, one-line doc, range and the section it sits in.
public struct SceneParamInfo: Sendable, Hashable {
    /// The dotted key path, as `--set` and configs name it (`present`, `timing.listHold`).
    public let key: String
    public let kind: SceneParamKind
    public let doc: String
    /// The values it accepts: the declared range, or the type's own; nil for types without one.
    public let range: ClosedRange<Double>?
    /// Whether the file declares the range (otherwise it is the type's whole range).
    public let declaresRange: Bool
    /// For a choice: the names allowed.
    public let choices: [String]
    /// The 1-based line of its declaration.
    public let line: Int?
}

/// A section of params: a mapping with a doc that groups them.
public struct SceneParamSection: Sendable, Hashable {
    /// The dotted key path of the section (`timing`, `pull`).
    public let key: String
    public let doc: String
}

extension SceneFile {
    /// Every param the file declares, in the file's order.
    public var params: [SceneParamInfo] {
        declarations.map {
            SceneParamInfo(
                key: $0.key, kind: $0.kind, doc: $0.doc, range: $0.range, declaresRange: $0.declaresRange,
                choices: $0.choices, line: $0.line)
        }
    }
}

extension SceneParams {
    /// The value of the param at `key` as YAML text (an animation is its mapping), or nil
    /// when there is none: what `flipbook config` prints for it.
    public func text(of key: String) -> String? {
        switch values[key] {
        case .number(let v)?: return v.plainText
        case .integer(let v)?: return "\(v)"
        case .flag(let v)?: return v ? "true" : "false"
        case .text(let v)?: return v
        case .color(let v)?: return v.description
        case .rect(let r)?:
            return "[\(r.minX.plainText), \(r.minY.plainText), \(r.width.plainText), \(r.height.plainText)]"
        case .point(let p)?: return "[\(p.x.plainText), \(p.y.plainText)]"
        case .animation(let a)?:
            return
                "{duration: \(a.duration.plainText), dampingRatio: \(a.damping.plainText), velocity: \(a.velocity.plainText), curve: \(a.curveSpec)}"
        case nil: return nil
        }
    }

    /// The animation at `key`, if that param is one.
    public func animation(_ key: String) -> AnimationSetting? {
        if case .animation(let a)? = values[key] { return a }
        return nil
    }

    /// Why a value at `keyPath` changes nothing, when it is a part of an animation its curve
    /// does not read (`expand.dampingRatio` of an ease-in); nil when it does change something.
    public func unreadPart(_ keyPath: String) -> String? {
        guard let dot = keyPath.lastIndex(of: ".") else { return nil }
        let parent = String(keyPath[..<dot]), part = String(keyPath[keyPath.index(after: dot)...])
        guard let animation = animation(parent), !animation.reads(part) else { return nil }
        let spring = part == "duration" ? "" : " (\(parent).curve=spring makes it UIKit's spring)"
        return
            "\(parent) runs the curve \(animation.curveSpec), which reads no \(part), so this changes nothing\(spring)"
    }
}
