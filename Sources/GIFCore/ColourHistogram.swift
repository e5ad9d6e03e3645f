/// The distinct colours of a frame's changed pixels, each with how many pixels have it: what a
/// palette is refined against.
///
/// A k-means (Lloyd) step over pixels searches the palette once per pixel; over this table it
/// searches once per colour, and UI frames repeat colours heavily (a few thousand to tens of
/// thousands of distinct colours in a million pixels). So every changed pixel can count in
/// every step, for one hashing pass over the crop.
///
/// Open addressing, keyed by `r << 16 | g << 8 | b` (`colourSlot`), doubling at half load.
/// The steps sum in integers, so the order of the slots does not matter: the result depends
/// on the pixels alone.
package final class ColourHistogram {
    /// `key + 1` per slot (0 marks an empty one), and the pixel count.
    private var keys: UnsafeMutablePointer<UInt32>
    private var counts: UnsafeMutablePointer<UInt32>
    /// The table has `2^bits` slots.
    private var bits = 12
    private var mask: Int { (1 << bits) - 1 }
    /// Distinct colours held.
    package private(set) var distinct = 0

    /// Counts the opaque RGBA pixels at `pixels` whose `importance` is not 0 (all of them when
    /// `importance` is nil).
    package init(pixels: UnsafePointer<UInt8>, count: Int, importance: UnsafePointer<UInt8>?) {
        let slots = 1 << bits
        keys = .allocate(capacity: slots)
        keys.initialize(repeating: 0, count: slots)
        counts = .allocate(capacity: slots)
        var lastKey = UInt32.max, run: UInt32 = 0
        for i in 0..<count where importance.map({ $0[i] != 0 }) ?? true {
            let key = UInt32(pixels[i * 4]) << 16 | UInt32(pixels[i * 4 + 1]) << 8 | UInt32(pixels[i * 4 + 2])
            // Flat UI runs of one colour cost one table visit each.
            if key == lastKey {
                run += 1
                continue
            }
            if run > 0 { add(lastKey, run) }
            lastKey = key
            run = 1
        }
        if run > 0 { add(lastKey, run) }
    }

    deinit {
        keys.deallocate()
        counts.deallocate()
    }

    private func add(_ key: UInt32, _ n: UInt32) {
        var slot = colourSlot(key, bits: bits)
        while true {
            let held = keys[slot]
            if held == key &+ 1 {
                counts[slot] &+= n
                return
            }
            if held == 0 { break }
            slot = (slot + 1) & mask
        }
        keys[slot] = key &+ 1
        counts[slot] = n
        distinct += 1
        if distinct * 2 > mask { grow() }
    }

    private func grow() {
        let oldKeys = keys, oldCounts = counts, oldSlots = mask + 1
        bits += 1
        keys = .allocate(capacity: mask + 1)
        keys.initialize(repeating: 0, count: mask + 1)
        counts = .allocate(capacity: mask + 1)
        for s in 0..<oldSlots where oldKeys[s] != 0 {
            var slot = colourSlot(oldKeys[s] &- 1, bits: bits)
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[s]
            counts[slot] = oldCounts[s]
        }
        oldKeys.deallocate()
        oldCounts.deallocate()
    }

    /// One Lloyd step: every usable entry of `palette` (RGB triples) moves to the rounded mean
    /// of the colours nearest to it, weighted by their counts; an entry nothing is nearest to
    /// stays. Returns false when no entry moved.
    package func lloydStep(_ palette: inout [UInt8], usable: [Bool]) -> Bool {
        let nearest = NearestColour(palette: palette, usable: usable)
        if nearest.isEmpty || distinct == 0 { return false }
        var sums = [Int](repeating: 0, count: usable.count * 4)
        sums.withUnsafeMutableBufferPointer { sums in
            for s in 0...mask where keys[s] != 0 {
                let key = keys[s] &- 1, n = Int(counts[s])
                let r = Int32(key >> 16), g = Int32((key >> 8) & 255), b = Int32(key & 255)
                let e = Int(nearest.search(r, g, b).index) * 4
                sums[e] += Int(r) * n
                sums[e + 1] += Int(g) * n
                sums[e + 2] += Int(b) * n
                sums[e + 3] += n
            }
        }
        var moved = false
        for e in 0..<usable.count where usable[e] && sums[e * 4 + 3] > 0 {
            let n = sums[e * 4 + 3]
            for c in 0..<3 {
                let mean = UInt8((sums[e * 4 + c] + n / 2) / n)
                if palette[e * 3 + c] != mean { moved = true }
                palette[e * 3 + c] = mean
            }
        }
        return moved
    }
}
