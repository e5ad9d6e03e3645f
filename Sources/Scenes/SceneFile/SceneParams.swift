import Foundation
import Geometry
import Planner
import Yams

/// A scene's settings and param values, by dotted key path: what a config file changes.
public struct SceneParams: Sendable, Hashable {
    public var settings: SceneSettings
    var values: [String: ParamValue] = [:]

    enum ParamValue: Sendable, Hashable {
        case number(Double)
        case integer(Int)
        case flag(Bool)
        case text(String)
        case color(Color)
        case rect(Rect)
        case point(Point)
        case animation(AnimationSetting)
    }

    subscript(number key: String) -> Double {
        get { if case .number(let v)? = values[key] { return v } else { return 0 } }
        set { values[key] = .number(newValue) }
    }
    subscript(integer key: String) -> Int {
        get { if case .integer(let v)? = values[key] { return v } else { return 0 } }
        set { values[key] = .integer(newValue) }
    }
    subscript(flag key: String) -> Bool {
        get { if case .flag(let v)? = values[key] { return v } else { return false } }
        set { values[key] = .flag(newValue) }
    }
    subscript(text key: String) -> String {
        get { if case .text(let v)? = values[key] { return v } else { return "" } }
        set { values[key] = .text(newValue) }
    }
    subscript(color key: String) -> Color {
        get { if case .color(let v)? = values[key] { return v } else { return .clear } }
        set { values[key] = .color(newValue) }
    }
    subscript(rect key: String) -> Rect {
        get { if case .rect(let v)? = values[key] { return v } else { return .zero } }
        set { values[key] = .rect(newValue) }
    }
    subscript(point key: String) -> Point {
        get { if case .point(let v)? = values[key] { return v } else { return .zero } }
        set { values[key] = .point(newValue) }
    }
    subscript(animation key: String) -> AnimationSetting {
        get { if case .animation(let v)? = values[key] { return v } else { return AnimationSetting(duration: 1) } }
        set { values[key] = .animation(newValue) }
    }

    /// The value of the param at `key`, as expressions see it (an animation is its curve).
    func value(_ key: String) -> SceneValue? {
        switch values[key] {
        case .number(let v)?: return .number(v)
        case .integer(let v)?: return .number(Double(v))
        case .flag(let v)?: return .flag(v)
        case .text(let v)?: return .text(v)
        case .color(let v)?: return .color(v)
        case .rect(let v)?: return .rect(v)
        case .point(let v)?: return .point(v)
        case .animation(let a)?: return .curve(a.curve)
        case nil:
            // An animation's parts are params too: `present.duration`.
            let parts = key.split(separator: ".")
            guard parts.count > 1, case .animation(let a)? = values[parts.dropLast().joined(separator: ".")] else {
                return nil
            }
            if let part = AnimationPart(named: String(parts.last!)) { return .number(a[keyPath: part.keyPath]) }
            return parts.last! == AnimationPart.curve ? .text(a.curveSpec) : nil
        }
    }
}

/// What shape an image param must have, which fixes its pixels per point.
enum ImageShape: Sendable, Hashable {
    /// The whole canvas, at any scale.
    case screen
    /// Width and height in points (expressions), at any scale.
    case points(width: String, height: String)
    /// Any size, at this many pixels per point.
    case free(pixelsPerPoint: Double)
}

/// A param's declaration beyond its config field: what the plan needs to know of it, and
/// what a tool that edits it shows (its type, doc, range and place in the file).
struct ParamDeclaration: Sendable, Hashable {
    enum Check: Sendable, Hashable { case none, insideCanvas }
    var key: String
    var kind: SceneParamKind
    var doc: String
    /// The declared range, or the type's own (seconds: 0...60) when none is declared.
    var range: ClosedRange<Double>?
    var declaresRange = false
    var choices: [String] = []
    var shape: ImageShape?
    var check: Check = .none
    /// The line it is declared on.
    var line: Int?
}
