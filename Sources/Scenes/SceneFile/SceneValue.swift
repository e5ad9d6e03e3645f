import Geometry
import Planner

/// A value in a scene file: what a param holds and what an expression computes.
public enum SceneValue: Sendable, Hashable, CustomStringConvertible {
    case number(Double)
    case flag(Bool)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case color(Color)
    case curve(Curve)
    case text(String)
    /// A YAML list before it is given a shape: [x, y] is a point or a size, [x, y, w, h] a rect.
    case list([SceneValue])

    /// What kind of value this is, for errors.
    public var kind: String {
        switch self {
        case .number: return "a number"
        case .flag: return "a flag"
        case .point: return "a point"
        case .size: return "a size"
        case .rect: return "a rect"
        case .color: return "a colour"
        case .curve: return "a curve"
        case .text: return "text"
        case .list(let items): return "a list of \(items.count)"
        }
    }

    public var description: String {
        switch self {
        case .number(let v): return v.plainText
        case .flag(let f): return f ? "true" : "false"
        case .point(let p): return "[\(p.x.plainText), \(p.y.plainText)]"
        case .size(let s): return "[\(s.width.plainText), \(s.height.plainText)]"
        case .rect(let r):
            return "[\(r.minX.plainText), \(r.minY.plainText), \(r.width.plainText), \(r.height.plainText)]"
        case .color(let c): return c.description
        case .curve(let c): return c.description
        case .text(let s): return s
        case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        }
    }

    func number() throws -> Double {
        if case .number(let v) = self { return v }
        throw ExpressionError("expected a number, got \(kind) (\(self))")
    }

    func flag() throws -> Bool {
        if case .flag(let f) = self { return f }
        throw ExpressionError("expected true or false, got \(kind) (\(self))")
    }

    private func numbers(_ count: Int, _ what: String) throws -> [Double] {
        guard case .list(let items) = self, items.count == count else {
            throw ExpressionError("expected \(what), got \(kind) (\(self))")
        }
        return try items.map { try $0.number() }
    }

    func point() throws -> Point {
        if case .point(let p) = self { return p }
        if case .size(let s) = self { return Point(x: s.width, y: s.height) }
        let v = try numbers(2, "a point [x, y]")
        return Point(x: v[0], y: v[1])
    }

    func size() throws -> Size {
        if case .size(let s) = self { return s }
        if case .point(let p) = self { return Size(width: p.x, height: p.y) }
        let v = try numbers(2, "a size [width, height]")
        return Size(width: v[0], height: v[1])
    }

    func rect() throws -> Rect {
        if case .rect(let r) = self { return r }
        let v = try numbers(4, "a rect [x, y, width, height]")
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    func color() throws -> Color {
        if case .color(let c) = self { return c }
        if case .text(let s) = self, let c = Color(hex: s) { return c }
        throw ExpressionError("expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", got \(kind) (\(self))")
    }

    func curve() throws -> Curve {
        switch self {
        case .curve(let c): return c
        case .text(let spec):
            do { return try Curve(spec: spec) } catch { throw ExpressionError("\(error)") }
        default:
            throw ExpressionError(
                "expected a curve (an animation param, a spec such as 'easeIn:duration=0.3', or spring(…)), got \(kind)"
            )
        }
    }

    /// A field of a point, size or rect (`frame.midY`, `size.width`), or of a canvas-like size.
    func field(_ name: String) throws -> SceneValue {
        switch (self, name) {
        case (.point(let p), "x"): return .number(p.x)
        case (.point(let p), "y"): return .number(p.y)
        case (.size(let s), "width"): return .number(s.width)
        case (.size(let s), "height"): return .number(s.height)
        case (.rect(let r), _):
            switch name {
            case "x", "minX": return .number(r.minX)
            case "y", "minY": return .number(r.minY)
            case "width": return .number(r.width)
            case "height": return .number(r.height)
            case "midX": return .number(r.midX)
            case "midY": return .number(r.midY)
            case "maxX": return .number(r.maxX)
            case "maxY": return .number(r.maxY)
            case "center": return .point(r.center)
            case "origin": return .point(r.origin)
            case "size": return .size(r.size)
            default: break
            }
        default: break
        }
        let fields: String
        switch self {
        case .point: fields = "x, y"
        case .size: fields = "width, height"
        case .rect: fields = "x, y, width, height, minX, minY, midX, midY, maxX, maxY, center, origin, size"
        default: fields = "none"
        }
        throw ExpressionError("\(kind) has no field '\(name)'; its fields: \(fields)")
    }
}

/// A problem in an expression or a value; the interpreter adds the file, line and key.
struct ExpressionError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
