#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Source-over of one premultiplied pixel onto `d`: `d = s + d·(255 − sa)/255`, per channel.
@inline(__always)
func blend(_ d: UnsafeMutablePointer<UInt8>, _ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) {
    if a == 255 {
        d[0] = UInt8(truncatingIfNeeded: r)
        d[1] = UInt8(truncatingIfNeeded: g)
        d[2] = UInt8(truncatingIfNeeded: b)
        d[3] = 255
    } else if a != 0 {
        let inv = 255 - a
        d[0] = UInt8(truncatingIfNeeded: r &+ mul255(UInt32(d[0]), inv))
        d[1] = UInt8(truncatingIfNeeded: g &+ mul255(UInt32(d[1]), inv))
        d[2] = UInt8(truncatingIfNeeded: b &+ mul255(UInt32(d[2]), inv))
        d[3] = UInt8(truncatingIfNeeded: a &+ mul255(UInt32(d[3]), inv))
    } else if r | g | b != 0 {
        // Additive (a = 0, colour > 0) pixels never occur from valid premultiplied input, but
        // stay exact if they do.
        d[0] = UInt8(truncatingIfNeeded: min(255, r &+ UInt32(d[0])))
        d[1] = UInt8(truncatingIfNeeded: min(255, g &+ UInt32(d[1])))
        d[2] = UInt8(truncatingIfNeeded: min(255, b &+ UInt32(d[2])))
    }
}

/// Source-over of a premultiplied pixel scaled by `f` (coverage × opacity, 0...255).
@inline(__always)
func blendScaled(_ d: UnsafeMutablePointer<UInt8>, _ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32, _ f: UInt32) {
    if f == 255 {
        blend(d, r, g, b, a)
    } else {
        blend(d, mul255(r, f), mul255(g, f), mul255(b, f), mul255(a, f))
    }
}

/// The bilinear sample of one channel from four premultiplied taps, rounded to nearest.
@inline(__always)
func bilinear(_ p00: UInt32, _ p01: UInt32, _ p10: UInt32, _ p11: UInt32, _ fx: UInt32, _ fy: UInt32) -> UInt32 {
    let top = p00 &* (256 &- fx) &+ p01 &* fx
    let bottom = p10 &* (256 &- fx) &+ p11 &* fx
    return (top &* (256 &- fy) &+ bottom &* fy &+ 32768) >> 16
}

/// Samples pixel `tx` between source rows `r0` and `r1` with vertical weight `fy`, then
/// composites it onto `d` scaled by `f`.
@inline(__always)
func sampleAndBlend(
    _ d: UnsafeMutablePointer<UInt8>, _ r0: UnsafePointer<UInt8>, _ r1: UnsafePointer<UInt8>,
    _ tx: SampleTap, _ fy: UInt32, _ f: UInt32
) {
    let a0 = r0 + Int(tx.i0) * 4, a1 = r0 + Int(tx.i1) * 4
    let b0 = r1 + Int(tx.i0) * 4, b1 = r1 + Int(tx.i1) * 4
    let fx = UInt32(tx.f)
    let r = bilinear(UInt32(a0[0]), UInt32(a1[0]), UInt32(b0[0]), UInt32(b1[0]), fx, fy)
    let g = bilinear(UInt32(a0[1]), UInt32(a1[1]), UInt32(b0[1]), UInt32(b1[1]), fx, fy)
    let b = bilinear(UInt32(a0[2]), UInt32(a1[2]), UInt32(b0[2]), UInt32(b1[2]), fx, fy)
    let a = bilinear(UInt32(a0[3]), UInt32(a1[3]), UInt32(b0[3]), UInt32(b1[3]), fx, fy)
    blendScaled(d, r, g, b, a, f)
}

/// Source-over of one constant translucent premultiplied colour (0 < a < 255) onto `count`
/// pixels at `d`, four at a time in 16-bit lanes: every intermediate of `s + d·(255 − a)/255`
/// stays below 65,536, so this is `blend` exactly.
@inline(__always)
func blendConstantRow(_ d: UnsafeMutablePointer<UInt8>, count: Int, _ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32)
{
    let inv = SIMD16<UInt16>(repeating: UInt16(255 - a))
    let add = SIMD16<UInt16>(
        UInt16(r), UInt16(g), UInt16(b), UInt16(a), UInt16(r), UInt16(g), UInt16(b), UInt16(a),
        UInt16(r), UInt16(g), UInt16(b), UInt16(a), UInt16(r), UInt16(g), UInt16(b), UInt16(a))
    var raw = UnsafeMutableRawPointer(d)
    let end = raw + (count & ~3) * 4
    while raw < end {
        let under = widen(raw.loadUnaligned(as: SIMD16<UInt8>.self))
        raw.storeBytes(of: narrow(add &+ mul255(under, inv)), as: SIMD16<UInt8>.self)
        raw += 16
    }
    var i = count & ~3
    while i < count {
        blend(d + i * 4, r, g, b, a)
        i += 1
    }
}

/// The vertical bilinear sample of `count` pixels between rows `r0` and `r1` with weight
/// `fy` (1...255), for unscaled draws that are pixel-aligned across: with no horizontal
/// weight, `bilinear` reduces to `(p0·(256 − fy) + p1·fy + 128) >> 8`, which fits 16-bit
/// lanes. Writes premultiplied pixels to `out`.
@inline(__always)
func verticalSampleRow(
    _ out: UnsafeMutablePointer<UInt8>, _ r0: UnsafePointer<UInt8>, _ r1: UnsafePointer<UInt8>, count: Int, fy: UInt32
) {
    let w1 = SIMD16<UInt16>(repeating: UInt16(fy)), w0 = SIMD16<UInt16>(repeating: UInt16(256 - fy))
    let a = UnsafeRawPointer(r0), b = UnsafeRawPointer(r1), o = UnsafeMutableRawPointer(out)
    var i = 0
    while i + 4 <= count {
        let p0 = widen(a.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<UInt8>.self))
        let p1 = widen(b.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<UInt8>.self))
        let v = (p0 &* w0 &+ p1 &* w1 &+ 128) &>> 8
        o.storeBytes(of: narrow(v), toByteOffset: i * 4, as: SIMD16<UInt8>.self)
        i += 4
    }
    while i < count {
        for c in 0..<4 {
            out[i * 4 + c] = UInt8((UInt32(r0[i * 4 + c]) * (256 - fy) + UInt32(r1[i * 4 + c]) * fy + 128) >> 8)
        }
        i += 1
    }
}

/// Bilinear samples for a run of destination columns, separably: first the two source rows
/// are mixed by `fy` into 16-bit sums (`S = p0·(256 − fy) + p1·fy` ≤ 65,280, no rounding), 16
/// lanes at a time, over the source columns the taps touch; then each column mixes its two
/// sums by `fx` and rounds once. The sum of the four weighted taps is the same integer as in
/// `bilinear`, so the samples are exactly its. Writes premultiplied pixels to `out`.
///
/// Sums are stored biased, `S − 32,768` as `Int16` (the top bit flipped), so that the column
/// mix is one `pmaddwd` (16-bit signed pairs multiplied and added into 32 bits): with
/// `w0 + w1 = 256`, `(S0 − 32,768)·w0 + (S1 − 32,768)·w1 = S0·w0 + S1·w1 − 8,388,608`, which
/// the rounding constant puts back. `weights` holds each column's `(w0, w1)` four times,
/// interleaved as the taps' channels are (`columnWeights`).
@inline(__always)
func separableSampleRow(
    _ out: UnsafeMutablePointer<UInt8>, _ r0: UnsafePointer<UInt8>, _ r1: UnsafePointer<UInt8>,
    taps: UnsafeBufferPointer<SampleTap>, weights: UnsafePointer<SIMD8<Int16>>, fy: UInt32,
    sums: UnsafeMutablePointer<UInt16>
) {
    guard let firstTap = taps.first, let lastTap = taps.last else { return }
    let first = Int(min(firstTap.i0, lastTap.i0)), last = Int(max(firstTap.i1, lastTap.i1))
    // Taps are monotonic for a positive scale, so the first and last bound them all.
    let channels = (last - first + 1) * 4
    let w1 = SIMD16<UInt16>(repeating: UInt16(fy)), w0 = SIMD16<UInt16>(repeating: UInt16(256 - fy))
    let bias = SIMD16<UInt16>(repeating: 0x8000)
    let a = UnsafeRawPointer(r0 + first * 4), b = UnsafeRawPointer(r1 + first * 4), s = UnsafeMutableRawPointer(sums)
    var c = 0
    while c + 16 <= channels {
        let p0 = widen(a.loadUnaligned(fromByteOffset: c, as: SIMD16<UInt8>.self))
        let p1 = widen(b.loadUnaligned(fromByteOffset: c, as: SIMD16<UInt8>.self))
        s.storeBytes(of: (p0 &* w0 &+ p1 &* w1) ^ bias, toByteOffset: c * 2, as: SIMD16<UInt16>.self)
        c += 16
    }
    while c < channels {
        sums[c] = UInt16(UInt32(r0[first * 4 + c]) * (256 - fy) + UInt32(r1[first * 4 + c]) * fy) ^ 0x8000
        c += 1
    }
    columnMix(out, UnsafeRawPointer(sums), taps: taps, first: first, weights: weights)
}

#if arch(x86_64)
    /// The column mix of `separableSampleRow`, two pixels at a time in SSE2. A tap's two sums
    /// are adjacent (i1 is i0 or i0 + 1; where it is i0, w1 is 0), so one 16-byte load holds
    /// both; interleaving its halves pairs each channel's two sums for `pmaddwd`.
    @inline(__always)
    private func columnMix(
        _ out: UnsafeMutablePointer<UInt8>, _ sums: UnsafeRawPointer, taps: UnsafeBufferPointer<SampleTap>, first: Int,
        weights: UnsafePointer<SIMD8<Int16>>
    ) {
        let rounding = _mm_set1_epi32(8_388_608 + 32768)
        let w = UnsafeRawPointer(weights)
        @inline(__always) func sample(_ k: Int) -> __m128i {
            let v = sums.loadUnaligned(fromByteOffset: (Int(taps[k].i0) - first) * 8, as: __m128i.self)
            let pairs = _mm_unpacklo_epi16(v, _mm_unpackhi_epi64(v, v))
            let weight = w.loadUnaligned(fromByteOffset: k * 16, as: __m128i.self)
            return _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(pairs, weight), rounding), 16)
        }
        let d = UnsafeMutableRawPointer(out)
        var k = 0
        while k + 2 <= taps.count {
            let words = _mm_packs_epi32(sample(k), sample(k + 1))
            d.storeBytes(of: _mm_cvtsi128_si64(_mm_packus_epi16(words, words)), toByteOffset: k * 4, as: Int64.self)
            k += 2
        }
        if k < taps.count {
            let words = _mm_packs_epi32(sample(k), sample(k))
            d.storeBytes(of: _mm_cvtsi128_si32(_mm_packus_epi16(words, words)), toByteOffset: k * 4, as: Int32.self)
        }
    }
#else
    /// The column mix of `separableSampleRow`, one channel at a time: the plain form of the SSE2
    /// path, for other architectures. It reads each tap's weight from the tap itself; `weights`
    /// is there so that both paths have one signature.
    @inline(__always)
    private func columnMix(
        _ out: UnsafeMutablePointer<UInt8>, _ sums: UnsafeRawPointer, taps: UnsafeBufferPointer<SampleTap>, first: Int,
        weights: UnsafePointer<SIMD8<Int16>>
    ) {
        let biased = sums.assumingMemoryBound(to: UInt16.self)
        for k in 0..<taps.count {
            let base = (Int(taps[k].i0) - first) * 4
            let w0 = 256 - UInt32(taps[k].f), w1 = UInt32(taps[k].f)
            for c in 0..<4 {
                let s0 = UInt32(biased[base + c] ^ 0x8000), s1 = UInt32(biased[base + 4 + c] ^ 0x8000)
                out[k * 4 + c] = UInt8((s0 * w0 + s1 * w1 + 32768) >> 16)
            }
        }
    }
#endif

/// Each tap's column weights for `separableSampleRow`: `(256 − f, f)`, four times.
func columnWeights(_ taps: [SampleTap]) -> [SIMD8<Int16>] {
    taps.map { t in
        let w0 = Int16(256 - t.f), w1 = Int16(t.f)
        return SIMD8<Int16>(w0, w1, w0, w1, w0, w1, w0, w1)
    }
}

/// Bytes to 16-bit lanes. Written lane by lane so that it inlines and LLVM turns it into
/// unpack instructions; the stdlib's `init(truncatingIfNeeded:)` stays an out-of-line call
/// here, on the raster's hottest path.
@inline(__always)
func widen(_ v: SIMD16<UInt8>) -> SIMD16<UInt16> {
    var r = SIMD16<UInt16>()
    for i in 0..<16 { r[i] = UInt16(v[i]) }
    return r
}

/// The low byte of each 16-bit lane (every value stored is already 0...255).
@inline(__always)
func narrow(_ v: SIMD16<UInt16>) -> SIMD16<UInt8> {
    var r = SIMD16<UInt8>()
    for i in 0..<16 { r[i] = UInt8(truncatingIfNeeded: v[i]) }
    return r
}

/// `mul255` on 16-bit lanes: for a, b in 0...255 every intermediate stays below 65,536.
@inline(__always)
func mul255(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>) -> SIMD16<UInt16> {
    let t = a &* b &+ 128
    return (t &+ (t &>> 8)) &>> 8
}

/// `blendScaled` of `count` premultiplied pixels at `src` onto `d`, each scaled by `f`, four
/// at a time in 16-bit lanes. For valid premultiplied pixels (no channel above alpha) the
/// formula `s + d·(255 − sa)/255` is `blend`'s every case: a = 255 replaces, a = 0 keeps.
@inline(__always)
func blendScaledRow(_ d: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt8>, count: Int, _ f: UInt32) {
    let factor = SIMD16<UInt16>(repeating: UInt16(f)), full = SIMD16<UInt16>(repeating: 255)
    let raw = UnsafeMutableRawPointer(d), from = UnsafeRawPointer(src)
    var i = 0
    while i + 4 <= count {
        var s = widen(from.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<UInt8>.self))
        if f != 255 { s = mul255(s, factor) }
        let a = SIMD16<UInt16>(
            s[3], s[3], s[3], s[3], s[7], s[7], s[7], s[7],
            s[11], s[11], s[11], s[11], s[15], s[15], s[15], s[15])
        let under = widen(raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<UInt8>.self))
        raw.storeBytes(of: narrow(s &+ mul255(under, full &- a)), toByteOffset: i * 4, as: SIMD16<UInt8>.self)
        i += 4
    }
    while i < count {
        let q = src + i * 4
        blendScaled(d + i * 4, UInt32(q[0]), UInt32(q[1]), UInt32(q[2]), UInt32(q[3]), f)
        i += 1
    }
}
