import Geometry

/// Something a score follows through a recording and through the render, measured the same
/// way on each side's own pixels: where a bar ends, where a patch has slid to, where a card's
/// edge is. A position is in the recording's pixels, along the feature's axis.
public struct RecordingFeature: Sendable, Equatable {
    public enum Axis: String, Sendable {
        case x, y
    }

    /// How the position is found.
    public enum Kind: Sendable, Equatable {
        /// How far a run of one colour reaches from `start` along a row (`x`) or a column (`y`)
        /// towards `to`: the first pixel past it. With `until`, the first pixel of the colour.
        case extent(start: (x: Int, y: Int), to: Int, axis: Axis, colour: ColourSource, until: Bool)
        /// The patch `rect` of the frame at `at` seconds, found again in every frame within
        /// `search` pixels along `axis`: its edge's position, to a fraction of a pixel.
        case shift(rect: Crop, at: Double, axis: Axis, search: Int)
        /// The first pixel along row `line` (axis `x`) or column `line` (axis `y`) from `from`
        /// towards `to` at which a pixel passes `test`, on the line or up to `band` pixels
        /// either side of it; none where the very first does (the edge is off screen) or none
        /// does.
        case edge(line: Int, axis: Axis, from: Int, to: Int, band: Int, test: ColourTest)
        /// How far the mean colour of `rect` has gone from the mean there at `from` seconds (0)
        /// towards the mean at `to` seconds (100): a fade's level, in per cent, where a
        /// position is none. Each side reads both colours from its own frames, so a recording
        /// and a render of different pictures still compare.
        case level(rect: Crop, from: Double, to: Double)

        public static func == (a: Kind, b: Kind) -> Bool {
            switch (a, b) {
            case let (.extent(s1, t1, a1, c1, u1), .extent(s2, t2, a2, c2, u2)):
                s1 == s2 && t1 == t2 && a1 == a2 && c1 == c2 && u1 == u2
            case let (.shift(r1, at1, a1, s1), .shift(r2, at2, a2, s2)): r1 == r2 && at1 == at2 && a1 == a2 && s1 == s2
            case let (.edge(l1, a1, f1, t1, b1, c1), .edge(l2, a2, f2, t2, b2, c2)):
                l1 == l2 && a1 == a2 && f1 == f2 && t1 == t2 && b1 == b2 && c1 == c2
            case let (.level(r1, f1, t1), .level(r2, f2, t2)): r1 == r2 && f1 == f2 && t1 == t2
            default: false
            }
        }
    }

    /// Where an extent's colour comes from: given, or read from the side measured.
    public enum ColourSource: Sendable, Equatable {
        case given(r: Int, g: Int, b: Int)
        /// The pixel at (x, y) of the frame at `t` seconds.
        case at(x: Int, y: Int, t: Double)
    }

    public var name: String
    public var kind: Kind
    /// Only frames within these seconds are measured.
    public var during: ClosedRange<Double>?

    public init(name: String, kind: Kind, during: ClosedRange<Double>? = nil) {
        self.name = name
        self.kind = kind
        self.during = during
    }

    /// Refuses a feature that reads a pixel outside a `width` × `height` frame.
    public func check(width: Int, height: Int) throws(FeatureOutside) {
        func inside(_ x: Int, _ y: Int) -> Bool { (0..<width).contains(x) && (0..<height).contains(y) }
        let fits: Bool
        switch kind {
        case .extent(let start, _, _, let colour, _):
            if case .at(let x, let y, _) = colour, !inside(x, y) {
                fits = false
            } else {
                fits = inside(start.x, start.y)
            }
        case .shift(let r, _, _, _), .level(let r, _, _):
            fits = inside(r.x, r.y) && inside(r.x + r.width - 1, r.y + r.height - 1)
        case .edge(let line, .x, let from, _, let band, _):
            fits = inside(from, line - band) && inside(from, line + band)
        case .edge(let line, .y, let from, _, let band, _):
            fits = inside(line - band, from) && inside(line + band, from)
        }
        if !fits { throw FeatureOutside(feature: name, width: width, height: height) }
    }

    /// The part of a `width` × `height` frame the feature reads, in any frame and at the moments
    /// it takes a colour or a look from: all a score keeps of each frame. A shift's part runs
    /// past its search by two coarse pixels and starts and ends on the coarse grid, so that
    /// the coarse search reads the whole frame's reduction.
    func region(width: Int, height: Int) -> PixelRect {
        let frame = PixelRect(x: 0, y: 0, width: width, height: height)
        func span(_ a: Int, _ b: Int) -> ClosedRange<Int> { min(a, b)...max(a, b) }
        func rect(x: ClosedRange<Int>, y: ClosedRange<Int>) -> PixelRect {
            PixelRect(x: x.lowerBound, y: y.lowerBound, width: x.count, height: y.count)
        }
        switch kind {
        case .extent(let start, let to, let axis, let colour, _):
            let end = max(0, min(to, (axis == .y ? height : width) - 1))
            var r =
                axis == .y
                ? rect(x: start.x...start.x, y: span(start.y, end)) : rect(x: span(start.x, end), y: start.y...start.y)
            if case .at(let x, let y, _) = colour { r = r.union(PixelRect(x: x, y: y, width: 1, height: 1)) }
            return r.intersection(frame)
        case .edge(let line, let axis, let from, let to, let band, _):
            let end = max(0, min(to, (axis == .x ? width : height) - 1))
            let along = span(from, end), across = line - band...line + band
            return (axis == .x ? rect(x: along, y: across) : rect(x: across, y: along)).intersection(frame)
        case .level(let r, _, _):
            return PixelRect(x: r.x, y: r.y, width: r.width, height: r.height).intersection(frame)
        case .shift(let r, _, let axis, let search):
            let k = Self.coarse, reach = search + 2 * k + 2
            func grid(_ low: Int, _ high: Int, _ limit: Int) -> ClosedRange<Int> {
                let a = max(0, low / k * k - (low < 0 ? k : 0))
                let b = min(limit, (high + k - 1) / k * k + k)
                return a...max(a, b - 1)
            }
            let xs = axis == .x ? grid(r.x - reach, r.x + r.width + reach, width) : grid(r.x, r.x + r.width, width)
            let ys = axis == .y ? grid(r.y - reach, r.y + r.height + reach, height) : grid(r.y, r.y + r.height, height)
            return rect(x: xs, y: ys).intersection(frame)
        }
    }

    /// The seconds of the frames it takes a colour or a look from, besides those it measures.
    var moments: [Double] {
        switch kind {
        case .extent(_, _, _, .at(_, _, let t), _): [t]
        case .extent, .edge: []
        case .shift(_, let at, _, _): [at]
        case .level(_, let from, let to): [from, to]
        }
    }

    /// Whether it may read a frame shown from `start` to `end` seconds, `margin` either side:
    /// the frame is in its seconds, or within 0.6 s of a moment it takes a colour or a look from
    /// (a moment's frame is the one shown at the capture step nearest it).
    func mayRead(from start: Double, to end: Double, margin: Double) -> Bool {
        guard let during else { return true }
        let shown = start - margin...max(start, end) + margin
        return shown.overlaps(during) || moments.contains { shown.overlaps($0 - 0.6...$0 + 0.6) }
    }

    /// Whether the feature's figures are per cent (a level) rather than pixels.
    public var isLevel: Bool {
        if case .level = kind { true } else { false }
    }

    /// A mark for the feature found at `position`: a short line across its axis there (a line
    /// over a level's rect), to see where it was measured.
    public func mark(at position: Double) -> PixelRect {
        let p = Int(position.rounded()) - 1, reach = 14
        switch kind {
        case .extent(let start, _, .y, _, _): return PixelRect(x: start.x - reach, y: p, width: 2 * reach, height: 3)
        case .extent(let start, _, .x, _, _): return PixelRect(x: p, y: start.y - reach, width: 3, height: 2 * reach)
        case .shift(let r, _, .y, _): return PixelRect(x: r.x, y: p, width: r.width, height: 3)
        case .shift(let r, _, .x, _): return PixelRect(x: p, y: r.y, width: 3, height: r.height)
        case .edge(let line, .x, _, _, let band, _):
            return PixelRect(x: p, y: line - band - reach, width: 3, height: 2 * (band + reach))
        case .edge(let line, .y, _, _, let band, _):
            return PixelRect(x: line - band - reach, y: p, width: 2 * (band + reach), height: 3)
        case .level(let r, _, _): return PixelRect(x: r.x, y: r.y - 3, width: r.width, height: 3)
        }
    }

    /// A pixel is the extent's colour when no channel differs by more than this many levels.
    static let colourTolerance = 28
    /// The RMS difference, in levels, past which a patch is not the one looked for.
    static let matchLimit = 24.0
    /// A shift is first searched in frames reduced by this factor.
    static let coarse = 4
}

/// A test of a pixel's colour: linear inequalities over its red, green and blue levels, all of
/// which hold (`r - b > 50`, `r < 220`, `g >= 240`).
public struct ColourTest: Sendable, Equatable, CustomStringConvertible {
    /// `r·R + g·G + b·B + constant > 0` (or `>= 0`).
    struct Inequality: Sendable, Equatable {
        var r = 0, g = 0, b = 0, constant = 0
        var orEqual = false

        func holds(_ p: (r: Int, g: Int, b: Int)) -> Bool {
            let v = r * p.r + g * p.g + b * p.b + constant
            return orEqual ? v >= 0 : v > 0
        }
    }

    var inequalities: [Inequality]
    /// As written.
    public let description: String

    /// Reads `text`: inequalities joined by `and`, each two sums of terms (`2g`, `r`, `40`)
    /// compared by `>`, `<`, `>=` or `<=`; anything else throws, saying what was expected.
    public init(_ text: String) throws(ColourTestError) {
        description = text
        inequalities = []
        let parts = text.components(separatedBy: " and ")
        for part in parts {
            let ops = [">=", "<=", ">", "<"]
            guard let op = ops.first(where: { part.contains($0) }) else {
                throw ColourTestError(text: part, expected: "a comparison: >, <, >= or <=")
            }
            let sides = part.components(separatedBy: op)
            guard sides.count == 2 else { throw ColourTestError(text: part, expected: "one comparison") }
            let left = try Self.sum(sides[0]), right = try Self.sum(sides[1])
            // Written as greater-than: a > b is a − b > 0; a < b is b − a > 0.
            let (big, small) = op.hasPrefix(">") ? (left, right) : (right, left)
            inequalities.append(
                Inequality(
                    r: big[0] - small[0], g: big[1] - small[1], b: big[2] - small[2], constant: big[3] - small[3],
                    orEqual: op.count == 2))
        }
    }

    /// A sum's coefficients of r, g, b and its constant.
    private static func sum(_ text: String) throws(ColourTestError) -> [Int] {
        var out = [0, 0, 0, 0]
        var sign = 1
        var term = ""
        func flush() throws(ColourTestError) {
            guard !term.isEmpty else { return }
            let channel = term.last.flatMap { "rgb".firstIndex(of: $0) }.map {
                "rgb".distance(from: "rgb".startIndex, to: $0)
            }
            let digits = channel == nil ? term : String(term.dropLast())
            guard let k = digits.isEmpty ? 1 : Int(digits) else {
                throw ColourTestError(text: text, expected: "terms such as 2g, r or 40")
            }
            out[channel ?? 3] += sign * k
            term = ""
        }
        var sawTerm = false
        for ch in text where ch != " " {
            if ch == "+" || ch == "-" {
                try flush()
                sign = ch == "-" ? -1 : 1
            } else {
                term.append(ch)
                sawTerm = true
            }
        }
        try flush()
        guard sawTerm else { throw ColourTestError(text: text, expected: "a sum of terms such as r - b or 220") }
        return out
    }

    func passes(_ p: (r: Int, g: Int, b: Int)) -> Bool { inequalities.allSatisfy { $0.holds(p) } }
}

/// A colour test that does not read.
public struct ColourTestError: Error, Equatable, CustomStringConvertible {
    public var text: String
    public var expected: String
    public var description: String { "'\(text)': expected \(expected)" }
}

/// A feature that reads outside the recording's frame.
public struct FeatureOutside: Error, Equatable, CustomStringConvertible {
    public var feature: String
    public var width: Int
    public var height: Int
    public var description: String {
        "feature '\(feature)' reads a pixel outside the recording's \(width)x\(height) frame; its positions are in the recording's pixels"
    }
}
