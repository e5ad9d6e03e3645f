import Geometry

/// A shape the raster fills or clips to: a rect, a rounded rect or an ellipse, in pixels.
public enum Shape: Hashable, Sendable {
    case rect(Rect)
    case roundedRect(Rect, radius: Double)
    case ellipse(Rect)
}

/// Where a draw may paint: everywhere, inside a rect, or inside an anti-aliased rounded rect.
public enum Clip: Hashable, Sendable {
    case none
    case rect(Rect)
    case roundedRect(Rect, radius: Double)

    var coverage: ShapeCoverage? {
        switch self {
        case .none: return nil
        case .rect(let r): return ShapeCoverage(r, radiusX: 0, radiusY: 0)
        case .roundedRect(let r, let radius): return ShapeCoverage(r, radiusX: radius, radiusY: radius)
        }
    }
}

/// The anti-aliased coverage of an axis-aligned rect with elliptical corners, in integer fixed
/// point (1/256 px), so that every machine computes the same 0...255 value for every pixel.
///
/// Coverage is the exact area for straight edges; in a corner it is the distance to the corner's
/// arc, `radius − distance + ½ px`, clamped to the pixel (exact integer square root for circular
/// corners; a first-order distance for elliptical ones, computed with IEEE basic operations only).
struct ShapeCoverage {
    let x0: Int, y0: Int, x1: Int, y1: Int
    let rx: Int, ry: Int

    init(_ rect: Rect, radiusX: Double, radiusY: Double) {
        x0 = fixed(rect.minX)
        y0 = fixed(rect.minY)
        x1 = max(x0, fixed(rect.maxX))
        y1 = max(y0, fixed(rect.maxY))
        let crx = min(max(0, fixed(radiusX)), (x1 - x0) / 2)
        let cry = min(max(0, fixed(radiusY)), (y1 - y0) / 2)
        if crx > 0 && cry > 0 {
            rx = crx
            ry = cry
        } else {
            rx = 0
            ry = 0
        }
    }

    init(_ shape: Shape) {
        switch shape {
        case .rect(let r): self.init(r, radiusX: 0, radiusY: 0)
        case .roundedRect(let r, let radius): self.init(r, radiusX: radius, radiusY: radius)
        case .ellipse(let r): self.init(r, radiusX: r.width / 2, radiusY: r.height / 2)
        }
    }

    /// The pixels the shape touches at all.
    var pixelBounds: PixelRect {
        let px0 = floorDiv(x0, 256), py0 = floorDiv(y0, 256)
        let px1 = ceilDiv(x1, 256), py1 = ceilDiv(y1, 256)
        return PixelRect(x: px0, y: py0, width: px1 - px0, height: py1 - py0)
    }

    /// The covered fraction of pixel (x, y), 0...255.
    @inline(__always)
    func coverage(_ x: Int, _ y: Int) -> Int {
        let hx = clamp256(min(x1, (x + 1) << 8) - max(x0, x << 8))
        let vy = clamp256(min(y1, (y + 1) << 8) - max(y0, y << 8))
        var area = hx * vy
        if area == 0 { return 0 }
        if rx > 0 {
            let cx = x << 8 + 128, cy = y << 8 + 128
            let dx = cx < x0 + rx ? x0 + rx - cx : (cx > x1 - rx ? cx - (x1 - rx) : 0)
            let dy = cy < y0 + ry ? y0 + ry - cy : (cy > y1 - ry ? cy - (y1 - ry) : 0)
            if dx > 0 && dy > 0 {
                area = min(area, cornerCoverage(dx, dy) << 8)
            }
        }
        return (area * 255 + 32768) >> 16
    }

    /// Coverage (0...256) of a pixel whose centre is (dx, dy) from a corner's arc centre.
    @inline(__always)
    private func cornerCoverage(_ dx: Int, _ dy: Int) -> Int {
        if rx == ry {
            return clamp256(rx - isqrt(dx * dx + dy * dy) + 128)
        }
        let a = Double(rx), b = Double(ry)
        let nx = Double(dx) / a, ny = Double(dy) / b
        let implicit = nx * nx + ny * ny - 1
        let gx = nx / a, gy = ny / b
        let distance = implicit / (2 * (gx * gx + gy * gy).squareRoot())
        return clamp256(Int((128 - distance).rounded(.down)))
    }

    /// Columns of row `y` whose coverage is certainly 255: `lo ..< hi`, empty when `lo >= hi`.
    ///
    /// In a corner row the span reaches past the arc centres by `reach`: a pixel centre at
    /// (dx, dy) from a circular arc's centre has coverage `r − isqrt(dx² + dy²) + ½ px`, which
    /// is a whole pixel when `dx² + dy² ≤ (r − ½ px)²`, so for `dx ≤ isqrt((r − ½ px)² − dy²)`.
    /// (Elliptical corners stop at the arc centres.) Without it a large circle would be drawn
    /// almost entirely through the per-pixel edge path.
    @inline(__always)
    func interior(row y: Int) -> (lo: Int, hi: Int) {
        let vy = clamp256(min(y1, (y + 1) << 8) - max(y0, y << 8))
        if vy < 256 { return (0, 0) }
        var lo = ceilDiv(x0, 256), hi = floorDiv(x1, 256)
        if rx > 0 {
            let cy = y << 8 + 128
            if cy < y0 + ry || cy > y1 - ry {
                var reach = 0
                if rx == ry {
                    let dy = cy < y0 + ry ? y0 + ry - cy : cy - (y1 - ry)
                    let r = rx - 128
                    if r > 0 && dy <= r { reach = isqrt(r * r - dy * dy) }
                }
                lo = max(lo, ceilDiv(x0 + rx - reach - 128, 256))
                hi = min(hi, floorDiv(x1 - rx + reach - 128, 256) + 1)
            }
        }
        return (lo, hi)
    }
}

/// A coordinate in 1/256 px, saturated far outside any canvas (2^21 px) so that NaN and huge
/// values cannot trap: the sum of two squared differences of saturated values stays within
/// 2^61, so the corner distances cannot overflow either.
@inline(__always)
func fixed(_ v: Double) -> Int {
    let s = v * 256
    if !(s > -0x1p29) { return -1 << 29 }
    if !(s < 0x1p29) { return 1 << 29 }
    return Int(s.rounded())
}

@inline(__always) func clamp256(_ v: Int) -> Int { v < 0 ? 0 : (v > 256 ? 256 : v) }
@inline(__always) func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
@inline(__always) func ceilDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? (a + b - 1) / b : -((-a) / b) }

/// The integer square root, floor(√n), exact for every n up to 2^52.
@inline(__always)
func isqrt(_ n: Int) -> Int {
    if n <= 0 { return 0 }
    var s = Int(Double(n).squareRoot())
    while s * s > n { s -= 1 }
    while (s + 1) * (s + 1) <= n { s += 1 }
    return s
}
