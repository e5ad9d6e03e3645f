import Geometry

/// Pixels that later draws paint opaquely, so nothing drawn under them can show. A fill or a
/// snapshot draw given an `Occlusion` skips those pixels and leaves them as they are.
///
/// Only pixels that a later draw covers fully (coverage 255) with an opaque colour at full
/// opacity belong here. Source-over at alpha 255 replaces what is under it, so such a pixel's
/// final value is that draw's sample alone: skipping what lies under it changes no byte.
public struct Occlusion: Sendable, Equatable {
    /// The hidden pixels, as rects that may overlap.
    public private(set) var rects: [PixelRect]

    /// Nothing is hidden.
    public static let none = Occlusion(rects: [])

    public init(rects: [PixelRect]) {
        self.rects = []
        for r in rects { insert(r) }
    }

    /// Hides `rect` too. A rect inside one already held adds nothing and is dropped, so that
    /// row bands stay few.
    public mutating func insert(_ rect: PixelRect) {
        if rect.isEmpty || rects.contains(where: { $0.contains(rect) }) { return }
        rects.removeAll { rect.contains($0) }
        rects.append(rect)
    }

    /// The visible pixels of `bounds`: bands of whole rows, each with the column runs that show
    /// in all of its rows, top to bottom and left to right. Empty when all of `bounds` is hidden.
    func bands(in bounds: PixelRect) -> [VisibleBand] {
        if bounds.isEmpty { return [] }
        let inside = rects.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        if inside.isEmpty { return [VisibleBand(rows: bounds.y..<bounds.maxY, runs: [bounds.x..<bounds.maxX])] }
        // Between two consecutive edges the same rects cover every row, so the runs are constant.
        var edges = Set([bounds.y, bounds.maxY])
        for r in inside {
            edges.insert(r.y)
            edges.insert(r.maxY)
        }
        let ys = edges.sorted()
        var bands: [VisibleBand] = []
        for (top, bottom) in zip(ys, ys.dropFirst()) {
            let covering = inside.filter { $0.y <= top && $0.maxY >= bottom }.sorted { $0.x < $1.x }
            var runs: [Range<Int>] = []
            var x = bounds.x
            for r in covering {
                if r.x > x { runs.append(x..<r.x) }
                x = max(x, r.maxX)
            }
            if x < bounds.maxX { runs.append(x..<bounds.maxX) }
            if runs.isEmpty { continue }
            if let last = bands.last, last.rows.upperBound == top, last.runs == runs {
                bands[bands.count - 1].rows = last.rows.lowerBound..<bottom
            } else {
                bands.append(VisibleBand(rows: top..<bottom, runs: runs))
            }
        }
        return bands
    }
}

/// Rows that share the same visible column runs.
struct VisibleBand: Equatable {
    var rows: Range<Int>
    var runs: [Range<Int>]
}

extension Shape {
    /// Every pixel a fill of this shape can touch.
    public var pixelBounds: PixelRect { ShapeCoverage(self).pixelBounds }

    /// Rects of pixels this shape covers fully (coverage 255), by the raster's own fixed-point
    /// rules: what a fill of it with an opaque colour at full opacity hides.
    public var solidPixelRects: [PixelRect] { ShapeCoverage(self).solidPixelRects }
}

extension Clip {
    /// Every pixel this clip lets through at all; nil when it clips nothing.
    public var pixelBounds: PixelRect? { coverage?.pixelBounds }

    /// Rects of pixels this clip lets through whole (coverage 255); nil when it clips nothing.
    public var solidPixelRects: [PixelRect]? { coverage?.solidPixelRects }
}

extension ShapeCoverage {
    /// Rects of pixels whose coverage is certainly 255.
    ///
    /// A straight-sided rect gives its whole pixels. With corners there are up to three: the
    /// band between the top and bottom corners (every pixel centre there has dy = 0, so no
    /// corner applies), the band between the left and right ones, and, for circular corners,
    /// the rect inset by k ≥ r·(1 − 1/√2) + 1/256 px, whose pixel centres lie at most
    /// (r − k − ½)·√2 ≤ r − ½ px from an arc centre: coverage `r − d + ½` reaches a whole pixel.
    var solidPixelRects: [PixelRect] {
        func pixels(_ left: Int, _ top: Int, _ right: Int, _ bottom: Int) -> PixelRect {
            let px0 = ceilDiv(left, 256), py0 = ceilDiv(top, 256)
            let px1 = floorDiv(right, 256), py1 = floorDiv(bottom, 256)
            return PixelRect(x: px0, y: py0, width: max(0, px1 - px0), height: max(0, py1 - py0))
        }
        if rx == 0 { return [pixels(x0, y0, x1, y1)].filter { !$0.isEmpty } }
        var rects = [pixels(x0, y0 + ry, x1, y1 - ry), pixels(x0 + rx, y0, x1 - rx, y1)]
        if rx == ry {
            // 0.292894 > 1 − 1/√2 = 0.2928932…: rounding up keeps the inset on the safe side.
            let k = Int((Double(rx) * 0.292894).rounded(.up)) + 1
            rects.append(pixels(x0 + k, y0 + k, x1 - k, y1 - k))
        }
        return rects.filter { !$0.isEmpty }
    }
}
