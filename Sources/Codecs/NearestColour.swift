/// Exact nearest-colour search over a palette of up to 256 opaque RGB entries, in squared
/// RGB distance (the error PSNR measures), ties going to the lower index.
///
/// RGB space is cut into 16³ cells of 16 levels a side. A cell's candidate list, built the
/// first time a colour lands in it, keeps every entry that can be nearest to some point of
/// the cell: those whose distance to the cell's box is at most the smallest farthest-corner
/// distance of any entry. A lookup then measures a handful of entries instead of 256. Not
/// thread-safe: each remapping band owns one.
struct NearestColour {
    private let r: [Int32], g: [Int32], b: [Int32]
    /// The palette index of each searchable entry.
    private let index: [UInt8]
    /// Where a cell's candidates start in `candidates`, or -1 before the cell is first used.
    private var cellStart = [Int32](repeating: -1, count: 4096)
    private var cellCount = [UInt16](repeating: 0, count: 4096)
    private var candidates: [UInt8] = []

    /// `palette` is RGB triples; entries with `usable[i] == false` are never returned.
    init(palette: [UInt8], usable: [Bool]) {
        var r: [Int32] = [], g: [Int32] = [], b: [Int32] = [], index: [UInt8] = []
        for i in 0..<(palette.count / 3) where usable[i] {
            r.append(Int32(palette[i * 3]))
            g.append(Int32(palette[i * 3 + 1]))
            b.append(Int32(palette[i * 3 + 2]))
            index.append(UInt8(i))
        }
        (self.r, self.g, self.b, self.index) = (r, g, b, index)
        candidates.reserveCapacity(4096)
    }

    var isEmpty: Bool { index.isEmpty }

    /// The palette index nearest to (red, green, blue), each 0...255, and its squared distance.
    @inline(__always)
    mutating func nearest(_ red: Int32, _ green: Int32, _ blue: Int32) -> (index: UInt8, distance: Int32) {
        let cell = Int((red >> 4) << 8 | (green >> 4) << 4 | (blue >> 4))
        if cellStart[cell] < 0 { build(cell) }
        let start = Int(cellStart[cell]), end = start + Int(cellCount[cell])
        var best = Int32.max, bestAt = 0
        candidates.withUnsafeBufferPointer { c in
            r.withUnsafeBufferPointer { r in
                g.withUnsafeBufferPointer { g in
                    b.withUnsafeBufferPointer { b in
                        for k in start..<end {
                            let e = Int(c[k])
                            let dr = red - r[e], dg = green - g[e], db = blue - b[e]
                            let d = dr * dr + dg * dg + db * db
                            if d < best { best = d; bestAt = e }
                        }
                    }
                }
            }
        }
        return (index[bestAt], best)
    }

    /// Lists the entries that can be nearest to some colour in `cell`.
    private mutating func build(_ cell: Int) {
        let lo = (Int32(cell >> 8) << 4, Int32(cell >> 4 & 15) << 4, Int32(cell & 15) << 4)
        let hi = (lo.0 + 15, lo.1 + 15, lo.2 + 15)
        func axis(_ v: Int32, _ lo: Int32, _ hi: Int32) -> (near: Int32, far: Int32) {
            let near = v < lo ? lo - v : (v > hi ? v - hi : 0)
            return (near, max(abs(v - lo), abs(v - hi)))
        }
        var nearD = [Int32](repeating: 0, count: r.count)
        var bound = Int32.max
        for e in 0..<r.count {
            let ar = axis(r[e], lo.0, hi.0), ag = axis(g[e], lo.1, hi.1), ab = axis(b[e], lo.2, hi.2)
            nearD[e] = ar.near * ar.near + ag.near * ag.near + ab.near * ab.near
            bound = min(bound, ar.far * ar.far + ag.far * ag.far + ab.far * ab.far)
        }
        cellStart[cell] = Int32(candidates.count)
        for e in 0..<r.count where nearD[e] <= bound { candidates.append(UInt8(e)) }
        cellCount[cell] = UInt16(candidates.count - Int(cellStart[cell]))
    }
}
