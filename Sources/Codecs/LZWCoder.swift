import Dispatch

/// GIF's LZW image data for one frame: codes from `minCodeSize + 1` to 12 bits, greedy
/// longest match, and a clear code when the table reaches 4095 entries, exactly as giflib
/// codes it, or (`deferredClear`) only once a full table stops paying.
///
/// The image can be cut into bands of rows. Each band starts from a fresh table after a clear
/// code, so bands are coded in parallel and the bytes do not depend on the thread count. The
/// encoder codes whole frames: fresh tables cost bytes, and lossy choices only pay under the
/// table the file is written with.
/// With a `LossyMatch`, a pixel may take another colour close enough to its source when that
/// lets the current string grow (gifsicle's `--lossy` idea, judged against the source pixels
/// rather than the already quantized ones).
enum LZWCoder {
    /// The image data as GIF sub-blocks (a length byte, then up to 255 bytes, repeated),
    /// without the minimum-code-size byte before them or the empty block after them.
    ///
    /// `indices` is `width·height` palette indices, `rowStride` a row. With `lossy`, indices
    /// may be replaced by the colours actually written, and the screen is updated to match.
    static func encode(indices: UnsafeMutablePointer<UInt8>, rowStride: Int, width: Int, height: Int,
                       minCodeSize: Int, bandRows: Int, lossy: LossyMatch? = nil,
                       deferredClear: Bool = false) -> [UInt8] {
        precondition((2...8).contains(minCodeSize) && width > 0 && height > 0)
        let bands = (height + bandRows - 1) / bandRows
        let results = UnsafeMutableBufferPointer<LZWBand>.allocate(capacity: bands)
        defer {
            for band in results { band.bits.deallocate() }
            results.deallocate()
        }
        let out = SendableBands(pointer: results.baseAddress!, indices: indices)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            let rows = (band * bandRows)..<min(height, (band + 1) * bandRows)
            out.pointer.advanced(by: band).initialize(to: LZWBand.code(
                indices: out.indices, rowStride: rowStride, width: width, rows: rows,
                minCodeSize: minCodeSize, lossy: lossy, deferredClear: deferredClear))
        }
        return subBlocks(joining: UnsafeBufferPointer(results), minCodeSize: minCodeSize)
    }

    /// The image data twice, as `encode` gives it with `deferredClear` false and true, from
    /// one pass over the pixels in one band. Coding the two in turn, pixel by pixel, lets
    /// their lookups overlap, which is cheaper than coding one after the other, though not
    /// half: each table fills L1 on its own.
    static func encodeBothClears(indices: UnsafePointer<UInt8>, rowStride: Int, width: Int, height: Int,
                                 minCodeSize: Int) -> (eager: [UInt8], deferred: [UInt8]) {
        precondition((2...8).contains(minCodeSize) && width > 0 && height > 0)
        let (eager, deferred) = LZWBand.codeBothClears(
            indices: indices, rowStride: rowStride, width: width, rows: 0..<height, minCodeSize: minCodeSize)
        defer {
            eager.bits.deallocate()
            deferred.bits.deallocate()
        }
        return ([eager].withUnsafeBufferPointer { subBlocks(joining: $0, minCodeSize: minCodeSize) },
                [deferred].withUnsafeBufferPointer { subBlocks(joining: $0, minCodeSize: minCodeSize) })
    }

    /// The bands' bit streams, joined by clear codes sent at the width the decoder has
    /// reached by then, ended by the end-of-information code, and cut into sub-blocks.
    private static func subBlocks(joining results: UnsafeBufferPointer<LZWBand>, minCodeSize: Int) -> [UInt8] {
        let clear = 1 << minCodeSize
        let total = results.reduce(16) { $0 + $1.byteCount + 2 }
        var sink = BitSink(capacity: total)
        defer { sink.deallocate() }
        sink.put(clear, minCodeSize + 1)
        for (i, band) in results.enumerated() {
            if i > 0 { sink.put(clear, results[i - 1].finalWidth) }
            for j in 0..<band.byteCount { sink.put(Int(band.bits[j]), 8) }
            sink.put(Int(band.tail), band.tailBits)
        }
        sink.put(clear + 1, results[results.count - 1].finalWidth)
        sink.flush()
        var blocks = [UInt8]()
        blocks.reserveCapacity(sink.count + sink.count / 255 + 1)
        var at = 0
        while at < sink.count {
            let n = min(255, sink.count - at)
            blocks.append(UInt8(n))
            blocks.append(contentsOf: UnsafeBufferPointer(start: sink.bytes + at, count: n))
            at += n
        }
        return blocks
    }
}

/// What a lossy match may do: the source pixels, what the screen shows under them, and how
/// far from its source a pixel may be written.
///
/// A changed pixel may take any usable palette entry, or the transparent index (showing the
/// screen), whose colour is no farther from the source than `tolerance` levels (Euclidean, in
/// RGB), or than the colour remapping chose, whichever is farther. Pixels that did not change
/// keep the transparent index, so still pixels never flicker.
struct LossyMatch: @unchecked Sendable {
    /// The frame's pixels under the indices, opaque RGBA, `cropStride` pixels a row.
    let crop: UnsafePointer<UInt8>
    let cropStride: Int
    /// 0 where a pixel did not change; nil on the first frame.
    let importance: UnsafePointer<UInt8>?
    /// The screen under the indices' first pixel, `frameWidth` pixels a row; read for the
    /// transparent index's colour, then written with the colours chosen.
    let screen: UnsafeMutablePointer<UInt8>
    let frameWidth: Int
    /// RGB as Int32 triples, one per index.
    let palette: UnsafePointer<Int32>
    /// Per index: 0 unusable, 1 a colour, 2 the transparent index (the screen's colour).
    let kinds: UnsafePointer<UInt8>
    /// Squared distance any pixel may have from its source.
    let tolerance: Int32
}

/// Per-band results, each written by exactly one band, and the indices, whose rows each
/// band alone touches.
private struct SendableBands: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<LZWBand>
    let indices: UnsafeMutablePointer<UInt8>
}

/// One band's codes, packed least significant bit first.
private struct LZWBand {
    var bits: UnsafeMutablePointer<UInt8>
    var byteCount: Int
    /// Bits after the last whole byte.
    var tail: UInt64
    var tailBits: Int
    /// The width of the code that follows the band.
    var finalWidth: Int

    static func code(indices: UnsafeMutablePointer<UInt8>, rowStride: Int, width: Int, rows: Range<Int>,
                     minCodeSize: Int, lossy: LossyMatch?, deferredClear: Bool) -> LZWBand {
        var run = LZWRun(minCodeSize: minCodeSize, pixels: rows.count * width, deferredClear: deferredClear)
        for y in rows {
            let row = indices + y * rowStride
            for x in 0..<width {
                let e = Int(row[x])
                guard let lossy, run.current >= 0 else {
                    run.take(e)
                    continue
                }
                let found = run.table.find(prefix: run.current, suffix: e)
                if found < 0, let (code, suffix) = run.table.closeExtension(of: run.current, x: x, y: y, exact: e, lossy) {
                    row[x] = suffix
                    run.extend(to: code)
                } else {
                    run.take(e, found: found)
                }
            }
        }
        if let lossy { lossy.paint(indices: indices, rowStride: rowStride, width: width, rows: rows) }
        return run.finish()
    }

    /// The band coded both ways at once, `(eager, deferred)`: two coders read each pixel in
    /// turn, so that the processor overlaps their table lookups, each of which waits on the
    /// one before.
    static func codeBothClears(indices: UnsafePointer<UInt8>, rowStride: Int, width: Int, rows: Range<Int>,
                               minCodeSize: Int) -> (LZWBand, LZWBand) {
        var eager = LZWRun(minCodeSize: minCodeSize, pixels: rows.count * width, deferredClear: false)
        var deferred = LZWRun(minCodeSize: minCodeSize, pixels: rows.count * width, deferredClear: true)
        for y in rows {
            let row = indices + y * rowStride
            for x in 0..<width {
                let e = Int(row[x])
                eager.take(e)
                deferred.take(e)
            }
        }
        return (eager.finish(), deferred.finish())
    }
}

/// One coder part-way through a band: its table, the bits sent so far, and the string being
/// matched.
private struct LZWRun {
    var table: LZWTable
    var sink: BitSink
    /// The code of the string matched so far, or -1 before the first pixel.
    private(set) var current = -1
    /// Pixels taken so far, for the clear policy.
    private var pixels = 0
    private var policy = ClearPolicy()
    private let deferredClear: Bool

    init(minCodeSize: Int, pixels: Int, deferredClear: Bool) {
        table = LZWTable(minCodeSize: minCodeSize)
        // Codes are at most 12 bits and there is at most one (plus a clear) per pixel.
        sink = BitSink(capacity: pixels * 3 + 16)
        self.deferredClear = deferredClear
    }

    /// Takes the next pixel: the current string grows by it, or its code is sent and a new
    /// string starts with it.
    @inline(__always)
    mutating func take(_ e: Int) {
        if current < 0 {
            pixels += 1
            current = e
            return
        }
        take(e, found: table.find(prefix: current, suffix: e))
    }

    /// `take` for a caller that has looked up the current string extended by `e` already
    /// (`found`, -1 when absent), so the lossy path searches the table once per pixel.
    @inline(__always)
    mutating func take(_ e: Int, found: Int) {
        pixels += 1
        if found >= 0 { current = found; return }
        send(then: e)
    }

    /// Takes a pixel that a lossy match wrote as the colour making the string `code`.
    mutating func extend(to code: Int) {
        pixels += 1
        current = code
    }

    /// Sends the current string's code, adds its extension by `e` (or clears, by the policy),
    /// and starts a new string with `e`.
    private mutating func send(then e: Int) {
        sink.put(current, table.width)
        table.widenIfNeeded()
        if !deferredClear {
            // giflib: clear rather than assign the last code.
            if table.next >= LZWTable.lastCode {
                sink.put(table.clear, table.width)
                table.reset()
            } else {
                table.add(prefix: current, suffix: e)
            }
        } else if table.isFull {
            if policy.shouldClear(bits: sink.bitCount, pixels: pixels - 1) {
                sink.put(table.clear, table.width)
                table.reset()
                policy.cleared(bits: sink.bitCount, pixels: pixels - 1)
            }
        } else {
            table.add(prefix: current, suffix: e)
            if table.isFull { policy.filled(bits: sink.bitCount, pixels: pixels - 1) }
        }
        current = e
    }

    /// Sends the last string's code and hands over the bits; the table is freed.
    mutating func finish() -> LZWBand {
        sink.put(current, table.width)
        table.widenIfNeeded()
        table.deallocate()
        return LZWBand(bits: sink.bytes, byteCount: sink.count, tail: sink.accumulator, tailBits: sink.pending,
                       finalWidth: table.width)
    }
}

/// When to clear a full table (the deferred clear gifsicle uses; GIF allows a full table to
/// go on being used). A fresh table's run, from its clear to the moment it filled, sets the
/// cost of starting again, in bits per pixel; once the full table's last 256 codes cost more
/// than that, the encoder clears.
private struct ClearPolicy {
    static let window = 256
    /// Where the current table's run began, and what it cost until the table filled.
    private var runBits = 0, runPixels = 0
    private var freshBits = 0, freshPixels = 1
    /// The current window of codes sent from the full table.
    private var windowPixels = 0, windowCodes = 0

    mutating func filled(bits: Int, pixels: Int) {
        freshBits = bits - runBits
        freshPixels = max(1, pixels - runPixels)
        windowPixels = pixels
        windowCodes = 0
    }

    mutating func cleared(bits: Int, pixels: Int) {
        runBits = bits
        runPixels = pixels
    }

    /// Called after each code sent from the full table; `pixels` is what the codes so far
    /// cover.
    mutating func shouldClear(bits: Int, pixels: Int) -> Bool {
        windowCodes += 1
        guard windowCodes == Self.window else { return false }
        let covered = pixels - windowPixels
        windowPixels = pixels
        windowCodes = 0
        // 12-bit codes over `covered` pixels against the fresh run's bits per pixel.
        return Self.window * 12 * freshPixels > freshBits * covered
    }
}

extension LossyMatch {
    /// Squared RGB distance from the source at (x, y) to index `i`'s colour.
    @inline(__always)
    func distance(_ i: Int, x: Int, y: Int) -> Int32 {
        let s = crop + (y * cropStride + x) * 4
        let c: (Int32, Int32, Int32)
        if kinds[i] == 2 {
            let v = screen + (y * frameWidth + x) * 4
            c = (Int32(v[0]), Int32(v[1]), Int32(v[2]))
        } else {
            c = (palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2])
        }
        let dr = Int32(s[0]) - c.0, dg = Int32(s[1]) - c.1, db = Int32(s[2]) - c.2
        return dr * dr + dg * dg + db * db
    }

    /// Puts the chosen colours on the screen (transparent pixels leave it as it is).
    func paint(indices: UnsafeMutablePointer<UInt8>, rowStride: Int, width: Int, rows: Range<Int>) {
        for y in rows {
            let row = indices + y * rowStride
            let out = screen + y * frameWidth * 4
            for x in 0..<width {
                let i = Int(row[x])
                if kinds[i] == 2 { continue }
                out[x * 4] = UInt8(truncatingIfNeeded: palette[i * 3])
                out[x * 4 + 1] = UInt8(truncatingIfNeeded: palette[i * 3 + 1])
                out[x * 4 + 2] = UInt8(truncatingIfNeeded: palette[i * 3 + 2])
                out[x * 4 + 3] = 255
            }
        }
    }
}

/// The strings of one run between clear codes: exact lookups through a hash of
/// (prefix, suffix), and each string's extensions as a list, for lossy matching.
private struct LZWTable {
    /// giflib sends a clear code instead of assigning this code.
    static let lastCode = 4095
    static let slots = 8192
    static let none: UInt16 = 0xFFFF
    /// How many extensions of a string a lossy match looks at.
    static let maxCandidates = 24

    let minCodeSize: Int
    let clear: Int
    private(set) var next = 0
    private(set) var width = 0
    /// 0 when empty, else (prefix << 8 | suffix) << 12 | code; code is never 0.
    private let hash: UnsafeMutablePointer<UInt32>
    private let firstChild: UnsafeMutablePointer<UInt16>
    private let sibling: UnsafeMutablePointer<UInt16>
    private let suffixes: UnsafeMutablePointer<UInt8>

    init(minCodeSize: Int) {
        self.minCodeSize = minCodeSize
        clear = 1 << minCodeSize
        hash = .allocate(capacity: Self.slots)
        firstChild = .allocate(capacity: 4096)
        sibling = .allocate(capacity: 4096)
        suffixes = .allocate(capacity: 4096)
        reset()
    }

    func deallocate() {
        hash.deallocate(); firstChild.deallocate(); sibling.deallocate(); suffixes.deallocate()
    }

    mutating func reset() {
        hash.update(repeating: 0, count: Self.slots)
        firstChild.update(repeating: Self.none, count: clear)
        next = clear + 2
        width = minCodeSize + 1
    }

    /// After a code is sent: the decoder needs one more bit once the next code to assign no
    /// longer fits (giflib's rule, so the bytes match its coder's).
    @inline(__always)
    mutating func widenIfNeeded() {
        if next >= 1 << width && width < 12 { width += 1 }
    }

    /// Every code up to 4095 is assigned: the table can only be used, or cleared.
    var isFull: Bool { next > Self.lastCode }

    @inline(__always)
    private func slot(_ key: UInt32) -> Int { Int((key &* 2_654_435_761) >> 19) }

    /// The code of `prefix` extended by `suffix`, or -1.
    @inline(__always)
    func find(prefix: Int, suffix: Int) -> Int {
        let key = UInt32(truncatingIfNeeded: prefix << 8 | suffix)
        var h = slot(key)
        while true {
            let v = hash[h]
            if v == 0 { return -1 }
            if v >> 12 == key { return Int(v & 0xFFF) }
            h = (h + 1) & (Self.slots - 1)
        }
    }

    mutating func add(prefix: Int, suffix: Int) {
        let key = UInt32(truncatingIfNeeded: prefix << 8 | suffix)
        var h = slot(key)
        while hash[h] != 0 { h = (h + 1) & (Self.slots - 1) }
        hash[h] = key << 12 | UInt32(next)
        suffixes[next] = UInt8(truncatingIfNeeded: suffix)
        sibling[next] = firstChild[prefix]
        firstChild[prefix] = UInt16(next)
        firstChild[next] = Self.none
        next += 1
    }

    /// The extension of `prefix` by the colour closest to the source at (x, y) among those
    /// the lossy match allows, or nil.
    func closeExtension(of prefix: Int, x: Int, y: Int, exact: Int, _ lossy: LossyMatch) -> (code: Int, suffix: UInt8)? {
        if let importance = lossy.importance, importance[y * lossy.cropStride + x] == 0 { return nil }
        var child = firstChild[prefix]
        if child == Self.none { return nil }
        let limit = max(lossy.tolerance, lossy.distance(exact, x: x, y: y))
        var best: (code: Int, suffix: UInt8)?
        var bestDistance = Int32.max
        // Extensions are listed newest first, and the newest are the local colours; a string
        // of one pixel can have hundreds. Looking at a few dozen finds nearly every match that
        // looking at all of them finds, in about half the time.
        var budget = Self.maxCandidates
        while child != Self.none && budget > 0 {
            budget -= 1
            let s = Int(suffixes[Int(child)])
            if lossy.kinds[s] != 0 {
                let d = lossy.distance(s, x: x, y: y)
                if d <= limit && d < bestDistance {
                    best = (Int(child), UInt8(s))
                    bestDistance = d
                }
            }
            child = sibling[Int(child)]
        }
        return best
    }
}

/// Codes packed least significant bit first, as GIF wants them.
private struct BitSink {
    let bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var accumulator: UInt64 = 0
    /// Bits waiting in the accumulator (always fewer than 8 between calls).
    private(set) var pending = 0

    /// Room for `capacity` bytes, and the 8 that `put` may store past the last.
    init(capacity: Int) { bytes = .allocate(capacity: capacity + 8) }

    func deallocate() { bytes.deallocate() }

    /// `code` in its low `width` bits (at most 16). The accumulator's low eight bytes are
    /// stored whole and the count moves past the complete ones, with no loop to mispredict.
    @inline(__always)
    mutating func put(_ code: Int, _ width: Int) {
        accumulator |= UInt64(truncatingIfNeeded: code) << UInt64(pending)
        pending += width
        UnsafeMutableRawPointer(bytes + count).storeBytes(of: accumulator.littleEndian, as: UInt64.self)
        let whole = pending >> 3
        count += whole
        accumulator >>= UInt64(whole * 8)
        pending &= 7
    }

    /// Bits written so far.
    var bitCount: Int { count * 8 + pending }

    /// Writes the last partial byte, padded with zeros.
    mutating func flush() {
        if pending > 0 {
            bytes[count] = UInt8(truncatingIfNeeded: accumulator)
            count += 1
            accumulator = 0
            pending = 0
        }
    }
}
