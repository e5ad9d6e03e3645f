/// Exact nearest-colour search over a palette of up to 256 opaque RGB entries, in squared
/// RGB distance (the error PSNR measures), ties going to the lower index.
///
/// RGB space is cut into 32³ cells of 8 levels a side. A cell's candidate list, built the
/// first time a colour lands in it, keeps every entry that can be nearest to some point of
/// the cell: those whose distance to the cell's box is at most the smallest farthest-corner
/// distance of any entry. Each list is sorted by the entry's distance to the cell's box, a
/// lower bound on its distance to any colour in the cell, so a lookup stops at the first entry
/// whose bound exceeds the best distance found: no later one can be nearer, or tie. A lookup
/// then measures a few of its listed entries instead of 256. In front of the cells sits a
/// memo of the last answer per hash slot of the colour: UI frames repeat colours far beyond
/// runs, so it answers most lookups. Not thread-safe: each remapping band owns one.
final class NearestColour {
    /// Searchable entries as (r, g, b, palette index), packed for the inner loop.
    private let entries: UnsafeMutablePointer<SIMD4<Int32>>
    private let count: Int
    /// One bit per cell, set once its candidate list is built; `cellStart` and `cellCount`
    /// are read only behind it, so they need no initialising (a fresh search is 4 KB to
    /// clear instead of 192).
    private let built: UnsafeMutablePointer<UInt64>
    /// Where a cell's candidates start in `candidates`, and how many there are.
    private let cellStart: UnsafeMutablePointer<Int32>
    private let cellCount: UnsafeMutablePointer<UInt16>
    /// Candidate lists, each candidate `near² << 8 | position in entries`, ascending (`near²`,
    /// the squared distance to the cell's box, is below 2¹⁸); at most 256 per cell.
    private var candidates: UnsafeMutablePointer<UInt32>
    private var used = 0, capacity = 16384
    /// Per-entry squared distance terms for each cell coordinate on each axis, entries
    /// contiguous so that a cell's sums over all entries vectorize: `[axis][coordinate][entry]`,
    /// `count` rounded up to a multiple of 8 (the padding is never listed).
    private let nearTerms: UnsafeMutablePointer<Int32>
    private let farTerms: UnsafeMutablePointer<Int32>
    private let lanes: Int
    /// Scratch for a cell's near sums.
    private let nearScratch: UnsafeMutablePointer<Int32>
    /// 4,096 slots, 32 KB, which stays in L1: a frame's changed pixels repeat few colours, so
    /// a larger memo answers hardly more lookups.
    static let memoBits = 12
    static var memoSlots: Int { 1 << memoBits }
    /// The colour (`r << 16 | g << 8 | b`) each slot answers for; never a colour before use.
    private let memoKey: UnsafeMutablePointer<UInt32>
    /// That colour's `distance << 8 | palette index`.
    private let memoValue: UnsafeMutablePointer<UInt32>

    /// `palette` is RGB triples; entries with `usable[i] == false` are never returned.
    init(palette: [UInt8], usable: [Bool]) {
        let searchable = (0..<(palette.count / 3)).filter { usable[$0] }
        count = searchable.count
        entries = .allocate(capacity: max(1, count))
        for (k, i) in searchable.enumerated() {
            entries[k] = SIMD4(Int32(palette[i * 3]), Int32(palette[i * 3 + 1]), Int32(palette[i * 3 + 2]), Int32(i))
        }
        memoKey = .allocate(capacity: Self.memoSlots)
        memoKey.initialize(repeating: UInt32.max, count: Self.memoSlots)
        memoValue = .allocate(capacity: Self.memoSlots)
        built = .allocate(capacity: 32768 / 64)
        built.initialize(repeating: 0, count: 32768 / 64)
        cellStart = .allocate(capacity: 32768)
        cellCount = .allocate(capacity: 32768)
        candidates = .allocate(capacity: capacity)
        lanes = max(8, (count + 7) & ~7)
        nearTerms = .allocate(capacity: 3 * 32 * lanes)
        farTerms = .allocate(capacity: 3 * 32 * lanes)
        nearScratch = .allocate(capacity: lanes)
        // Padding lanes get a far-off coordinate: their terms exceed any bound, so they are
        // never listed and never set a cell's bound.
        let values = UnsafeMutablePointer<Int32>.allocate(capacity: lanes)
        defer { values.deallocate() }
        for axis in 0..<3 {
            for e in 0..<lanes { values[e] = e < count ? entries[e][axis] : 4096 }
            for c in 0..<32 {
                let near = nearTerms + (axis * 32 + c) * lanes, far = farTerms + (axis * 32 + c) * lanes
                let lo = Int32(c) << 3, hi = lo + 7
                // Branch-free, so that the loop runs in SIMD lanes.
                for e in 0..<lanes {
                    let v = values[e]
                    let d = max(lo - v, 0, v - hi), f = max(v - lo, hi - v)
                    near[e] = d &* d
                    far[e] = f &* f
                }
            }
        }
    }

    deinit {
        entries.deallocate()
        memoKey.deallocate()
        memoValue.deallocate()
        built.deallocate()
        cellStart.deallocate()
        cellCount.deallocate()
        candidates.deallocate()
        nearTerms.deallocate()
        farTerms.deallocate()
        nearScratch.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The palette index nearest to (red, green, blue), each 0...255, and its squared distance.
    @inline(__always)
    func nearest(_ red: Int32, _ green: Int32, _ blue: Int32) -> (index: UInt8, distance: Int32) {
        let key = UInt32(bitPattern: red << 16 | green << 8 | blue)
        let slot = colourSlot(key, bits: Self.memoBits)
        if memoKey[slot] == key {
            let v = memoValue[slot]
            return (UInt8(truncatingIfNeeded: v), Int32(bitPattern: v >> 8))
        }
        let found = search(red, green, blue)
        memoKey[slot] = key
        memoValue[slot] = UInt32(bitPattern: found.distance) << 8 | UInt32(found.index)
        return found
    }

    /// The nearest entry without the memo, for callers that never ask for a colour twice
    /// (a histogram's distinct colours), where the memo would only cost its stores.
    @inline(__always)
    func search(_ red: Int32, _ green: Int32, _ blue: Int32) -> (index: UInt8, distance: Int32) {
        let cell = Int((red >> 3) << 10 | (green >> 3) << 5 | (blue >> 3))
        if built[cell >> 6] & (1 << UInt64(cell & 63)) == 0 { build(cell) }
        var c = candidates + Int(cellStart[cell])
        let end = c + Int(cellCount[cell])
        let target = SIMD4(red, green, blue, 0)
        // The best so far as `distance << 8 | position`: entries come by bound, not index, and
        // positions follow palette indices, so one branch-free minimum takes the nearest entry
        // and, on a tie, the lower index (a compare-and-branch here is mispredicted often).
        var best = Int32.max
        while c < end {
            let packed = c.pointee
            if Int32(bitPattern: packed >> 8) > best >> 8 { break }
            let e = Int(packed & 255)
            var d = entries[e] &- target
            d[3] = 0
            best = min(best, (d &* d).wrappedSum() << 8 | Int32(e))
            c += 1
        }
        return (UInt8(truncatingIfNeeded: entries[Int(best & 255)][3]), best >> 8)
    }

    /// Lists the entries that can be nearest to some colour in `cell`.
    private func build(_ cell: Int) {
        let (cr, cg, cb) = (cell >> 10, cell >> 5 & 31, cell & 31)
        let nr = nearTerms + cr * lanes, ng = nearTerms + (32 + cg) * lanes, nb = nearTerms + (64 + cb) * lanes
        let fr = farTerms + cr * lanes, fg = farTerms + (32 + cg) * lanes, fb = farTerms + (64 + cb) * lanes
        // Eight entries at a time: the sums and the smallest far² in SIMD lanes.
        var bound = SIMD8<Int32>(repeating: Int32.max)
        var e = 0
        while e < lanes {
            let far = load8(fr + e) &+ load8(fg + e) &+ load8(fb + e)
            bound = pointwiseMin(bound, far)
            (UnsafeMutableRawPointer(nearScratch + e)).storeBytes(
                of: load8(nr + e) &+ load8(ng + e) &+ load8(nb + e), as: SIMD8<Int32>.self)
            e += 8
        }
        let limit = bound.min()
        if used + count > capacity {
            capacity = max(capacity * 2, used + count)
            let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
            grown.update(from: candidates, count: used)
            candidates.deallocate()
            candidates = grown
        }
        // Every entry is written and only the listed ones kept, without a branch to mispredict
        // (the capacity check above leaves room for all `count`); then the list, tens of
        // entries, is sorted by insertion. Keys are distinct, so the order is any sort's.
        let start = used
        for e in 0..<count {
            candidates[used] = UInt32(truncatingIfNeeded: nearScratch[e]) << 8 | UInt32(e)
            used &+= nearScratch[e] <= limit ? 1 : 0
        }
        for i in (start + 1)..<max(start + 1, used) {
            let key = candidates[i]
            var at = i
            while at > start && candidates[at - 1] > key {
                candidates[at] = candidates[at - 1]
                at -= 1
            }
            candidates[at] = key
        }
        cellStart[cell] = Int32(start)
        cellCount[cell] = UInt16(used - start)
        built[cell >> 6] |= 1 << UInt64(cell & 63)
    }

    @inline(__always)
    private func load8(_ p: UnsafeMutablePointer<Int32>) -> SIMD8<Int32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int32>.self)
    }
}

/// A hash slot in a table of `2^bits` slots for a colour `r << 16 | g << 8 | b`: multiplicative
/// (Fibonacci) hashing, whose top bits spread neighbouring colours far apart.
@inline(__always)
func colourSlot(_ key: UInt32, bits: Int) -> Int {
    Int((key &* 2_654_435_761) >> (32 - UInt32(bits)))
}
