import Foundation
import Scenes
import Yams

/// A features file: what `flipbook score` follows in one recording, in its pixels. Every
/// problem is gathered, each with its line and key, before any is reported.
///
/// ```yaml
/// screen: [0, 16, 371, 662]          # where the render's screen sits; the whole frame without
/// features:
///   - name: bar bottom                # a run of one colour down a column: where it ends
///     extent: {from: [30, 21], to: 400, colour: "#3067F4"}
///   - name: detail body               # a patch, found again as it slides
///     shift: {rect: [0, 150, 375, 180], at: 2.0, axis: y, search: 440}
///   - name: card right                # the first pixel along a row that passes a test
///     edge: {row: 430, from: 319, to: 160, where: "r > 240 and g > 240 and b > 240"}
///   - name: title top                 # down a column, any pixel 50 either side passing
///     edge: {column: 185, band: 50, from: 37, to: 80, where: "r > 200 and g > 200 and b > 200"}
///     during: [1.7, 2.9]              # only these seconds are measured
///   - name: header fade               # a rect's mean colour, from its look at 3.6 s (0 %)
///     level: {rect: [10, 20, 80, 20], from: 3.6, to: 4.8}   # to its look at 4.8 s (100 %)
/// ```
public struct FeatureFile: Sendable {
    public var screen: Crop?
    public var features: [RecordingFeature] = []

    /// No features and no screen: what a score that tracks layers alone reads.
    public init() {}

    public static func load(_ path: String) throws -> FeatureFile {
        try FeatureFile(text: ConfigDocument.readText(file: path), file: path)
    }

    public init(text: String, file: String) throws {
        var reader = Reader(file: file)
        let root = try ConfigDocument.compose(text, file: file)
        guard let top = root?.mapping else {
            throw ConfigError(
                file: file, line: root?.mark?.line, keyPath: "", message: "expected a mapping with features:")
        }
        for (key, value) in top {
            switch key.scalarText ?? "" {
            case "screen": screen = reader.rect(value, "screen")
            case "features":
                guard let list = value.sequence, !list.isEmpty else {
                    reader.problem(value, "features", "expected a list of features (- name: …), got \(value.summary)")
                    continue
                }
                for (i, node) in list.enumerated() {
                    guard let feature = reader.feature(node, at: "features[\(i)]") else { continue }
                    if features.contains(where: { $0.name == feature.name }) {
                        reader.problem(
                            node.mapping?["name"], "features[\(i)].name", "'\(feature.name)' names two features")
                    }
                    features.append(feature)
                }
            default: reader.problem(key, key.scalarText ?? "", "unknown key; expected screen or features")
            }
        }
        if top["features"] == nil { reader.problem(root, "features", "missing: the features to follow") }
        guard reader.problems.isEmpty else { throw ConfigProblems(reader.problems) }
    }

    /// The walk that collects every problem.
    private struct Reader {
        /// The kinds of feature, each a key holding its mapping.
        static let kinds = ["extent", "shift", "edge", "level"]
        let file: String
        var problems: [ConfigError] = []
        /// The largest position and the latest moment a feature may name: far past any screen
        /// and any recording, and safe to add and multiply.
        static let farthest = 1_000_000
        static let longest = 3600.0

        mutating func problem(_ node: Node?, _ key: String, _ message: String) {
            problems.append(ConfigError(file: file, line: node?.mark?.line, keyPath: key, message: message))
        }

        mutating func ints(_ node: Node?, _ key: String, count: Int, _ what: String) -> [Int]? {
            let values = node?.sequence?.compactMap { $0.scalarText.flatMap { Int($0) } }.filter {
                abs($0) <= Self.farthest
            }
            guard let values, values.count == count, node?.sequence?.count == count else {
                problem(node, key, "expected \(what), got \(node?.summary ?? "nothing")")
                return nil
            }
            return values
        }

        mutating func int(_ m: Node.Mapping, _ key: String, at: String) -> Int? {
            guard let text = m[key]?.scalarText, let v = Int(text), abs(v) <= Self.farthest else {
                problem(
                    m[key], "\(at).\(key)", "expected a whole number of pixels, got \(m[key]?.summary ?? "nothing")")
                return nil
            }
            return v
        }

        mutating func seconds(_ node: Node?, _ key: String) -> Double? {
            guard let text = node?.scalarText, let v = Double(text), v >= 0, v <= Self.longest else {
                problem(node, key, "expected seconds, 0...\(Int(Self.longest)), got \(node?.summary ?? "nothing")")
                return nil
            }
            return v
        }

        mutating func rect(_ node: Node, _ key: String) -> Crop? {
            guard let v = ints(node, key, count: 4, "[x, y, width, height] in pixels") else { return nil }
            guard v[0] >= 0, v[1] >= 0, v[2] > 0, v[3] > 0 else {
                problem(node, key, "expected a position of 0 or more and a size of at least a pixel")
                return nil
            }
            return Crop(x: v[0], y: v[1], width: v[2], height: v[3])
        }

        mutating func axis(_ m: Node.Mapping, at: String) -> RecordingFeature.Axis? {
            guard let node = m["axis"] else { return .y }
            guard let axis = node.scalarText.flatMap(RecordingFeature.Axis.init(rawValue:)) else {
                problem(node, "\(at).axis", "expected x or y, got \(node.summary)")
                return nil
            }
            return axis
        }

        mutating func feature(_ node: Node, at: String) -> RecordingFeature? {
            guard let m = node.mapping else {
                problem(node, at, "expected a mapping: name and one of \(Self.kinds.joined(separator: ", "))")
                return nil
            }
            let kinds = Self.kinds.filter { m[$0] != nil }
            for (key, _) in m where !(["name", "during"] + Self.kinds).contains(key.scalarText ?? "") {
                problem(
                    key, "\(at).\(key.scalarText ?? "")",
                    "unknown key; expected name, \(Self.kinds.joined(separator: ", ")), during")
            }
            guard let name = m["name"]?.scalarText, !name.isEmpty else {
                problem(node, "\(at).name", "missing: every feature has a name, for the table")
                return nil
            }
            guard kinds.count == 1, let body = m[kinds[0]]?.mapping else {
                problem(node, at, "expected one of \(Self.kinds.joined(separator: ", ")), as a mapping")
                return nil
            }
            let here = "\(at).\(kinds[0])"
            var during: ClosedRange<Double>?
            if let d = m["during"] {
                let v = d.sequence?.compactMap { $0.scalarText.flatMap(Double.init) } ?? []
                guard v.count == 2, v[0] <= v[1] else {
                    problem(d, "\(at).during", "expected [from, to] in seconds, from no later than to")
                    return nil
                }
                during = v[0]...v[1]
            }
            let kind: RecordingFeature.Kind?
            switch kinds[0] {
            case "extent":
                let start = ints(body["from"], "\(here).from", count: 2, "[x, y]")
                let to = int(body, "to", at: here), axis = axis(body, at: here)
                var colour: RecordingFeature.ColourSource?
                if let hex = body["colour"]?.scalarText {
                    if hex.count == 7, hex.hasPrefix("#"), let v = Int(hex.dropFirst(), radix: 16) {
                        colour = .given(r: v >> 16, g: (v >> 8) & 255, b: v & 255)
                    } else {
                        problem(body["colour"], "\(here).colour", "expected #rrggbb, got \(hex)")
                    }
                } else if let at = body["colour-at"] {
                    let v = at.sequence?.compactMap { $0.scalarText.flatMap(Double.init) } ?? []
                    if v.count == 3, v.allSatisfy({ $0 >= 0 }), v[0] <= Double(Self.farthest),
                        v[1] <= Double(Self.farthest),
                        v[2] <= Self.longest, v[0] == v[0].rounded(), v[1] == v[1].rounded()
                    {
                        colour = .at(x: Int(v[0]), y: Int(v[1]), t: v[2])
                    } else {
                        problem(at, "\(here).colour-at", "expected [x, y, seconds]: the pixel that has the colour")
                    }
                } else {
                    problem(node, "\(here).colour", "missing: colour (#rrggbb) or colour-at ([x, y, seconds])")
                }
                let until = body["until"]?.scalarText == "true"
                kind = start.flatMap { s in
                    to.flatMap { to in
                        axis.flatMap { a in
                            colour.map { .extent(start: (s[0], s[1]), to: to, axis: a, colour: $0, until: until) }
                        }
                    }
                }
            case "shift":
                let rect = body["rect"].flatMap { self.rect($0, "\(here).rect") }
                if body["rect"] == nil { problem(node, "\(here).rect", "missing: the patch, [x, y, width, height]") }
                let at = seconds(body["at"], "\(here).at"), axis = axis(body, at: here)
                var search = int(body, "search", at: here)
                if let s = search, !(1...8192).contains(s) {
                    problem(body["search"], "\(here).search", "expected 1...8192 pixels, got \(s)")
                    search = nil
                }
                kind = rect.flatMap { r in
                    at.flatMap { t in axis.flatMap { a in search.map { .shift(rect: r, at: t, axis: a, search: $0) } } }
                }
            case "level":
                let rect = body["rect"].flatMap { self.rect($0, "\(here).rect") }
                if body["rect"] == nil { problem(node, "\(here).rect", "missing: the area, [x, y, width, height]") }
                let from = seconds(body["from"], "\(here).from"), to = seconds(body["to"], "\(here).to")
                for (key, _) in body where !["rect", "from", "to"].contains(key.scalarText ?? "") {
                    problem(key, "\(here).\(key.scalarText ?? "")", "unknown key; expected rect, from, to")
                }
                if let from, let to, from == to {
                    problem(
                        body["to"], "\(here).to",
                        "expected a moment other than from's: the level runs between two looks")
                    kind = nil
                } else {
                    kind = rect.flatMap { r in from.flatMap { f in to.map { .level(rect: r, from: f, to: $0) } } }
                }
            default:
                // Along a row (x) or down a column (y): one of the two names the line.
                let lineKey = body["column"] != nil ? "column" : "row"
                let line = int(body, lineKey, at: here), from = int(body, "from", at: here)
                let to = int(body, "to", at: here)
                if body["row"] != nil, body["column"] != nil {
                    problem(body["column"], "\(here).column", "expected row or column, not both")
                }
                var band: Int? = 0
                if body["band"] != nil {
                    band = int(body, "band", at: here)
                    if let b = band, !(0...Self.farthest / 2).contains(b) {
                        problem(body["band"], "\(here).band", "expected 0 or more pixels either side, got \(b)")
                        band = nil
                    }
                }
                for (key, _) in body
                where !["row", "column", "from", "to", "band", "where"].contains(key.scalarText ?? "") {
                    problem(
                        key, "\(here).\(key.scalarText ?? "")",
                        "unknown key; expected row or column, from, to, band, where")
                }
                var test: ColourTest?
                do { test = try ColourTest(body["where"]?.scalarText ?? "") } catch {
                    problem(body["where"] ?? node, "\(here).where", "\(error)")
                }
                let axis: RecordingFeature.Axis = lineKey == "row" ? .x : .y
                kind = line.flatMap { l in
                    from.flatMap { f in
                        to.flatMap { t in
                            band.flatMap { b in
                                test.map { .edge(line: l, axis: axis, from: f, to: t, band: b, test: $0) }
                            }
                        }
                    }
                }
            }
            return kind.map { RecordingFeature(name: name, kind: $0, during: during) }
        }
    }
}
