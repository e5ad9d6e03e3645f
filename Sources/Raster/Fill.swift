import Geometry

extension BitmapView {
    /// Fills a shape with a colour at an opacity, anti-aliased, inside an optional clip.
    ///
    /// Rows are split into edge pixels (per-pixel coverage) and an interior span whose coverage
    /// is 255: an opaque interior becomes a row fill, a translucent one (an overlay) a constant
    /// blend four pixels at a time. Both give exactly what `ReferenceRaster.fill` gives.
    /// Pixels in `hidden` are left as they are (later draws paint over them opaquely).
    public func fill(
        _ shape: Shape, color: PremultipliedColor, opacity: UInt8 = 255, clip: Clip = .none, hidden: Occlusion = .none
    ) {
        if opacity == 0 || color.packed == 0 { return }
        let cover = ShapeCoverage(shape)
        let clipCover = clip.coverage
        var b = cover.pixelBounds.intersection(bounds)
        if let c = clipCover { b = b.intersection(c.pixelBounds) }
        let bands = hidden.bands(in: b)
        if bands.isEmpty { return }

        let o = Int(opacity)
        let inner = color.scaled(by: o)
        let word = inner.packed.littleEndian
        let (cr, cg, cb, ca) = (UInt32(color.r), UInt32(color.g), UInt32(color.b), UInt32(color.a))
        let (ir, ig, ib, ia) = (UInt32(inner.r), UInt32(inner.g), UInt32(inner.b), UInt32(inner.a))

        for band in bands {
            for y in band.rows {
                let p = row(y)
                let span = interiorSpan(cover, clipCover, y, b)
                for run in band.runs {
                    let (lo, hi) = clamped(span, to: run)
                    for x in run.lowerBound..<lo { edgePixel(x) }
                    if ia == 255 {
                        UnsafeMutableRawPointer(p + lo * 4).bindMemory(to: UInt32.self, capacity: hi - lo)
                            .update(repeating: word, count: hi - lo)
                    } else if ia != 0 {
                        blendConstantRow(p + lo * 4, count: hi - lo, ir, ig, ib, ia)
                    } else if (ir | ig | ib) != 0 {
                        var d = p + lo * 4
                        for _ in lo..<hi {
                            blend(d, ir, ig, ib, ia)
                            d += 4
                        }
                    }
                    for x in hi..<run.upperBound { edgePixel(x) }
                }

                @inline(__always) func edgePixel(_ x: Int) {
                    var cov = cover.coverage(x, y)
                    if let c = clipCover, cov != 0 { cov = mul255(cov, c.coverage(x, y)) }
                    if cov == 0 { return }
                    blendScaled(p + x * 4, cr, cg, cb, ca, UInt32(mul255(cov, o)))
                }
            }
        }
    }
}

/// The columns of row `y`, inside `bounds`, where both the shape and the clip cover fully.
@inline(__always)
func interiorSpan(_ cover: ShapeCoverage, _ clip: ShapeCoverage?, _ y: Int, _ bounds: PixelRect) -> (lo: Int, hi: Int) {
    var (lo, hi) = cover.interior(row: y)
    if let c = clip {
        let ci = c.interior(row: y)
        lo = max(lo, ci.lo)
        hi = min(hi, ci.hi)
    }
    lo = min(max(lo, bounds.x), bounds.maxX)
    hi = max(min(hi, bounds.maxX), lo)
    return (lo, hi)
}

/// The part of an interior span inside a visible run, as a run of its own (empty when they do
/// not meet); the run's other columns are edge pixels.
@inline(__always)
func clamped(_ span: (lo: Int, hi: Int), to run: Range<Int>) -> (lo: Int, hi: Int) {
    let lo = min(max(span.lo, run.lowerBound), run.upperBound)
    return (lo, max(min(span.hi, run.upperBound), lo))
}
