import Foundation
import Geometry
import Planner
import Yams

/// One documented setting of a scene's config: how to read it from YAML into `Root`, and
/// how to print its current value. The same list reads files and prints `flipbook config`.
public struct ConfigField<Root> {
    enum Kind {
        case leaf(read: (inout Root, Node, ConfigContext) throws -> Void, show: (Root) -> String)
        case section([ConfigField<Root>])
    }

    public let key: String
    public let doc: String
    let kind: Kind
    /// Former spellings of `key`, still read, never written (`FormerNames`).
    var aliases: [String] { FormerNames.of[key] ?? [] }

    /// A group of settings under one key.
    public static func section(_ key: String, _ doc: String, _ fields: [ConfigField<Root>]) -> ConfigField {
        ConfigField(key: key, doc: doc, kind: .section(fields))
    }

    /// A setting read from one node by `read`, which returns its value or throws, and shown by `show`.
    private static func leaf<Value>(
        _ key: String, _ path: WritableKeyPath<Root, Value>, _ doc: String, show: @escaping (Value) -> String,
        read: @escaping (Node, ConfigContext, Root) throws -> Value
    ) -> ConfigField {
        ConfigField(
            key: key, doc: doc,
            kind: .leaf(
                read: { root, node, cx in root[keyPath: path] = try read(node, cx, root) },
                show: { show($0[keyPath: path]) }))
    }

    /// A number in `range`.
    public static func number(
        _ key: String, _ path: WritableKeyPath<Root, Double>, _ range: ClosedRange<Double>, _ doc: String
    ) -> ConfigField {
        number(key, path, range, doc, parse: { Double($0).flatMap { $0.isFinite ? $0 : nil } }, what: "a number")
    }

    /// A duration in `range`, in seconds: `0.3`, `0.3s` or `300ms` (see `SecondsText`).
    public static func seconds(
        _ key: String, _ path: WritableKeyPath<Root, Double>, _ range: ClosedRange<Double>, _ doc: String
    ) -> ConfigField {
        number(key, path, range, doc, parse: SecondsText.parse, what: "seconds (0.3, 0.3s or 300ms)")
    }

    private static func number(
        _ key: String, _ path: WritableKeyPath<Root, Double>, _ range: ClosedRange<Double>, _ doc: String,
        parse: @escaping (String) -> Double?, what: String
    ) -> ConfigField {
        let span = "\(range.lowerBound.plainText)...\(range.upperBound.plainText)"
        return leaf(key, path, doc, show: \.plainText) { node, cx, _ in
            guard let v = node.scalarText.flatMap(parse) else { throw cx.expected("\(what) in \(span)", node) }
            guard range.contains(v) else { throw cx.error(node, "\(v.plainText) is out of range; expected \(span)") }
            return v
        }
    }

    /// A whole number in `range`.
    public static func integer(
        _ key: String, _ path: WritableKeyPath<Root, Int>, _ range: ClosedRange<Int>, _ doc: String
    ) -> ConfigField {
        let span = "\(range.lowerBound)...\(range.upperBound)"
        return leaf(key, path, doc, show: { "\($0)" }) { node, cx, _ in
            guard let v = node.scalarText.flatMap({ Int($0) }) else {
                throw cx.expected("a whole number in \(span)", node)
            }
            guard range.contains(v) else { throw cx.error(node, "\(v) is out of range; expected \(span)") }
            return v
        }
    }

    /// A file path (relative paths resolve against the config file's folder).
    public static func path(_ key: String, _ path: WritableKeyPath<Root, String>, _ doc: String) -> ConfigField {
        leaf(key, path, doc, show: quoted) { node, cx, _ in
            guard let text = node.scalarText, !text.isEmpty else { throw cx.expected("a file path", node) }
            return cx.resolve(text)
        }
    }

    /// One of a few names.
    public static func choice(
        _ key: String, _ path: WritableKeyPath<Root, String>, _ options: @escaping (Root) -> [String], _ doc: String
    ) -> ConfigField {
        leaf(key, path, doc, show: { $0 }) { node, cx, root in
            let names = options(root)
            guard let text = node.scalarText, names.contains(text) else {
                throw cx.expected("one of \(names.joined(separator: ", "))", node)
            }
            return text
        }
    }

    /// A colour, "#RRGGBB" or "#RRGGBBAA".
    public static func color(_ key: String, _ path: WritableKeyPath<Root, Color>, _ doc: String) -> ConfigField {
        leaf(key, path, doc, show: { quoted($0.description) }) { node, cx, _ in
            guard let c = node.scalarText.flatMap({ Color(hex: $0) }) else {
                throw cx.expected("a colour \"#RRGGBB\" or \"#RRGGBBAA\"", node)
            }
            return c
        }
    }

    /// A rect in points, [x, y, width, height].
    public static func rect(_ key: String, _ path: WritableKeyPath<Root, Rect>, _ doc: String) -> ConfigField {
        leaf(
            key, path, doc,
            show: { "[\($0.minX.plainText), \($0.minY.plainText), \($0.width.plainText), \($0.height.plainText)]" }
        ) {
            node, cx, _ in
            guard let v = numbers(node, count: 4), v[2] >= 0, v[3] >= 0 else {
                throw cx.expected("[x, y, width, height] in points, with width and height not negative", node)
            }
            return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        }
    }

    /// true or false.
    public static func flag(_ key: String, _ path: WritableKeyPath<Root, Bool>, _ doc: String) -> ConfigField {
        leaf(key, path, doc, show: { $0 ? "true" : "false" }) { node, cx, _ in
            guard let v = node.scalarText.flatMap({ ["true": true, "false": false][$0] }) else {
                throw cx.expected("true or false", node)
            }
            return v
        }
    }

    /// A point in points, [x, y].
    public static func point(_ key: String, _ path: WritableKeyPath<Root, Point>, _ doc: String) -> ConfigField {
        leaf(key, path, doc, show: { "[\($0.x.plainText), \($0.y.plainText)]" }) { node, cx, _ in
            guard let v = numbers(node, count: 2) else { throw cx.expected("[x, y] in points", node) }
            return Point(x: v[0], y: v[1])
        }
    }

    /// A list of `count` finite numbers, or nil.
    private static func numbers(_ node: Node, count: Int) -> [Double]? {
        guard let items = node.sequence, items.count == count else { return nil }
        let v = items.compactMap { $0.scalarText.flatMap(Double.init) }
        return v.count == count && v.allSatisfy(\.isFinite) ? v : nil
    }

    /// A curve spec (see `Curve(spec:)`).
    public static func curve(_ key: String, _ path: WritableKeyPath<Root, String>, _ doc: String) -> ConfigField {
        leaf(key, path, doc, show: quoted) { node, cx, _ in
            guard let text = node.scalarText else { throw cx.expected("a curve spec", node) }
            do { _ = try Curve(spec: text) } catch { throw cx.error(node, "\(error)") }
            return text
        }
    }

    /// An animation: a UIKit spring (duration, dampingRatio, velocity) or any curve spec.
    public static func animation(_ key: String, _ path: WritableKeyPath<Root, AnimationSetting>, _ doc: String)
        -> ConfigField
    {
        section(
            key, doc,
            AnimationPart.allCases.map { part in
                part == .duration
                    ? .seconds(part.name, path.appending(path: part.keyPath), part.range, part.doc)
                    : .number(part.name, path.appending(path: part.keyPath), part.range, part.doc)
            }
                + [
                    leaf(
                        AnimationPart.curve, path.appending(path: \.curveSpec),
                        "spring, or a curve spec: linear, easeIn, easeOut, easeInEaseOut, default, bezier:x1,y1,x2,y2, system, caspring:…",
                        show: { $0 }
                    ) { node, cx, _ in
                        guard let text = node.scalarText else { throw cx.expected("a curve name or spec", node) }
                        if text != "spring" {
                            do { _ = try Curve(spec: text) } catch { throw cx.error(node, "\(error)") }
                        }
                        return text
                    }
                ])
    }
}

extension ConfigField {
    /// Reads `node` into `root` as this field's value (a section reads a mapping).
    func apply(_ node: Node, to root: inout Root, context: ConfigContext) throws {
        switch kind {
        case .leaf(let read, _):
            try read(&root, node, context)
        case .section(let children):
            guard let m = node.mapping else {
                throw context.error(
                    node, "expected a mapping of \(children.map(\.key).joined(separator: ", ")), got \(node.summary)")
            }
            try ConfigDocument.apply(m, fields: children, to: &root, context: context)
        }
    }
}

/// An animation as configs give it; `curve` resolves it.
public struct AnimationSetting: Sendable, Hashable {
    public var duration: Double
    public var damping: Double = 1
    public var velocity: Double = 0
    /// "spring" (UIKit's, from duration, damping and velocity) or a curve spec.
    public var curveSpec: String = "spring"

    /// The numeric parts its curve reads: UIKit's spring all three, a named Bézier its
    /// duration, a spec that gives its own numbers (or the system spring) none.
    public var readParts: [String] { AnimationPart.allCases.map(\.name).filter(reads) }

    public init(duration: Double, damping: Double = 1, velocity: Double = 0, curve: String = "spring") {
        self.duration = duration
        self.damping = damping
        self.velocity = velocity
        self.curveSpec = curve
    }

    /// Whether setting `part` (`duration`, `dampingRatio`, `velocity`) moves the curve: a
    /// Bézier reads no damping or velocity, and a spec that gives its own numbers reads none.
    public func reads(_ part: String) -> Bool {
        guard let part = AnimationPart(named: part) else { return true }
        var other = self
        // Another value than this one, inside the part's range.
        other[keyPath: part.keyPath] = self[keyPath: part.keyPath] == 0.5 ? 0.6 : 0.5
        return other.curve != curve
    }

    /// The timing curve. A named Bézier runs for `duration`; a full spec keeps its own.
    public var curve: Curve {
        if curveSpec == "spring" { return .spring(duration: duration, damping: damping, velocity: velocity) }
        let parsed = (try? Curve(spec: curveSpec)) ?? .spring(duration: duration, damping: damping, velocity: velocity)
        if case .bezier = parsed, !curveSpec.contains("duration=") { return parsed.with(duration: duration) }
        return parsed
    }
}

/// Where a config is being read from, for errors and relative paths.
struct ConfigContext {
    var file: String
    /// Relative paths are read from here ("" is the working directory).
    var folder: String
    var path: [String]

    func error(_ node: Node, _ message: String) -> ConfigError {
        ConfigError(file: file, line: node.mark?.line, keyPath: path.joined(separator: "."), message: message)
    }

    /// "expected WHAT, got VALUE".
    func expected(_ what: String, _ node: Node) -> ConfigError { error(node, "expected \(what), got \(node.summary)") }

    /// A path from the config, relative to the config file's folder.
    func resolve(_ text: String) -> String {
        if text.hasPrefix("/") || folder.isEmpty { return text }
        return (folder as NSString).appendingPathComponent(text)
    }
}

extension Node {
    /// The scalar's text, or nil for a mapping or sequence.
    package var scalarText: String? { scalar?.string }

    /// A short description for errors: the value, or what kind of node it is.
    package var summary: String {
        if let s = scalarText { return "'\(s)'" }
        if mapping != nil { return "a mapping" }
        if sequence != nil { return "a list" }
        return "nothing"
    }
}

func quoted(_ s: String) -> String { "\"\(s)\"" }
