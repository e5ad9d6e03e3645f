import Geometry

extension BitmapView {
    /// Draws the `source` rect of a snapshot (in its pixels) into the `destination` rect (in
    /// this view's pixels), at any fractional position and scale, with an opacity and a clip.
    ///
    /// Bilinear filtering on the mip level whose remaining downscale is at most 2x. Fast paths,
    /// each exactly equal to `ReferenceRaster.draw`: an unscaled, pixel-aligned opaque draw is
    /// a row copy; an aligned translucent one a per-pixel blend without filtering; an unscaled
    /// draw aligned across but between rows (vertical motion) a 16-bit-lane row lerp; any
    /// other span is sampled separably (rows mixed in 16-bit lanes, then columns). Spans that
    /// do not replace what is under them composite four pixels at a time (`blendScaledRow`).
    /// Pixels in `hidden` are left as they are (later draws paint over them opaquely).
    ///
    /// With an `overlay`, each row of its rect that the draw touches gets the overlay's colour
    /// composited over it as soon as the row is drawn, while it is still in cache: the same
    /// bytes as a fill of those pixels after the draw, without a second pass over the frame.
    /// Returns the rect so overlaid (hidden pixels in it excepted), for the fill to skip; empty
    /// when there is none.
    @discardableResult
    public func draw(
        _ texture: Texture, from source: Rect, to destination: Rect, opacity: UInt8 = 255, clip: Clip = .none,
        hidden: Occlusion = .none, overlay: Overlay? = nil
    ) -> PixelRect {
        guard opacity > 0, !source.isEmpty, !destination.isEmpty else { return .zero }
        let cover = ShapeCoverage(destination, radiusX: 0, radiusY: 0)
        let clipCover = clip.coverage
        var b = cover.pixelBounds.intersection(bounds)
        if let c = clipCover { b = b.intersection(c.pixelBounds) }
        let bands = hidden.bands(in: b)
        if bands.isEmpty { return .zero }
        let tint = overlay.map { $0.rect.intersection(b) } ?? .zero
        let (tr, tg, tb, ta) =
            overlay.map { o in (UInt32(o.color.r), UInt32(o.color.g), UInt32(o.color.b), UInt32(o.color.a)) } ?? (
                0, 0, 0, 0
            )

        let map = SampleMapping(texture: texture, source: source, destination: destination)
        let level = texture.levels[map.level]
        let o = UInt32(opacity)
        var taps = [SampleTap]()
        taps.reserveCapacity(b.width)
        for x in b.x..<b.maxX { taps.append(map.x.tap(x)) }
        let firstColumn = taps[0].i0
        var contiguous = true
        for (k, t) in taps.enumerated() where t.f != 0 || t.i0 != firstColumn + Int32(k) {
            contiguous = false
            break
        }
        let copies = contiguous && o == 255 && texture.isOpaque
        let srcRowBytes = level.rowBytes

        // Opaque samples at full opacity replace what is under them, as `blend` does at a = 255.
        let opaqueSource = o == 255 && texture.isOpaque
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: b.width * 4)
        defer { scratch.deallocate() }
        // Taps stay inside the level, so a span never touches more than its width.
        let sumCount = contiguous ? 16 : level.width * 4 + 16
        let sums = UnsafeMutablePointer<UInt16>.allocate(capacity: sumCount)
        // The column mix reads one sum past a clamped last tap, at weight 0: keep it defined.
        sums.initialize(repeating: 0, count: sumCount)
        defer { sums.deallocate() }
        let weights = contiguous ? [] : columnWeights(taps)
        level.pixels.withUnsafeBufferPointer { src in
            let base = src.baseAddress!
            taps.withUnsafeBufferPointer { tx in
                weights.withUnsafeBufferPointer { wx in
                    for band in bands {
                        for y in band.rows {
                            let ty = map.y.tap(y)
                            let r0 = base + Int(ty.i0) * srcRowBytes, r1 = base + Int(ty.i1) * srcRowBytes
                            let fy = UInt32(ty.f)
                            let p = row(y)
                            let interior = interiorSpan(cover, clipCover, y, b)
                            for run in band.runs {
                                let span = clamped(interior, to: run)
                                for x in run.lowerBound..<span.lo { edgePixel(x) }
                                let n = span.hi - span.lo
                                if n > 0 && contiguous {
                                    let s = r0 + Int(firstColumn + Int32(span.lo - b.x)) * 4
                                    if fy == 0 {
                                        if copies {
                                            (p + span.lo * 4).update(from: s, count: n * 4)
                                        } else {
                                            blendScaledRow(p + span.lo * 4, s, count: n, o)
                                        }
                                    } else {
                                        // Unscaled and aligned across, between two rows: sample the
                                        // span at once, then copy or composite it.
                                        let t = r1 + Int(firstColumn + Int32(span.lo - b.x)) * 4
                                        if copies {
                                            verticalSampleRow(p + span.lo * 4, s, t, count: n, fy: fy)
                                        } else {
                                            verticalSampleRow(scratch, s, t, count: n, fy: fy)
                                            blendScaledRow(p + span.lo * 4, scratch, count: n, o)
                                        }
                                    }
                                } else if n > 0 {
                                    // Scaled: sample the span separably, then store or composite it.
                                    let spanTaps = UnsafeBufferPointer(rebasing: tx[(span.lo - b.x)..<(span.hi - b.x)])
                                    let target = opaqueSource ? p + span.lo * 4 : scratch
                                    separableSampleRow(
                                        target, r0, r1, taps: spanTaps, weights: wx.baseAddress! + (span.lo - b.x),
                                        fy: fy, sums: sums)
                                    if !opaqueSource { blendScaledRow(p + span.lo * 4, scratch, count: n, o) }
                                }
                                for x in span.hi..<run.upperBound { edgePixel(x) }
                            }
                            if !tint.isEmpty && y >= tint.y && y < tint.maxY {
                                for run in band.runs {
                                    let lo = max(run.lowerBound, tint.x), hi = min(run.upperBound, tint.maxX)
                                    if hi > lo { blendConstantRow(p + lo * 4, count: hi - lo, tr, tg, tb, ta) }
                                }
                            }

                            @inline(__always) func edgePixel(_ x: Int) {
                                var cov = cover.coverage(x, y)
                                if let c = clipCover, cov != 0 { cov = mul255(cov, c.coverage(x, y)) }
                                if cov == 0 { return }
                                sampleAndBlend(p + x * 4, r0, r1, tx[x - b.x], fy, mul255(UInt32(cov), o))
                            }
                        }
                    }
                }
            }
        }
        return tint
    }
}

/// A flat translucent colour composited over part of a snapshot draw, as a fill of whole
/// pixels after it would be (see `BitmapView.draw`): a card's tint over its photo.
public struct Overlay: Sendable, Equatable {
    /// The colour with its opacity applied; its alpha is strictly between 0 and 255.
    public var color: PremultipliedColor
    /// The pixels it covers fully.
    public var rect: PixelRect

    public init(color: PremultipliedColor, rect: PixelRect) {
        precondition(color.a > 0 && color.a < 255, "an overlay is translucent")
        self.color = color
        self.rect = rect
    }
}
