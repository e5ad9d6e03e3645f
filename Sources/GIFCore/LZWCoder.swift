/// GIF's LZW image data for one frame: codes from `minCodeSize + 1` to 12 bits, greedy
/// longest match, and a clear code when the table reaches 4095 entries, exactly as giflib
/// codes it, or (`deferredClear`) only once a full table stops paying.
///
/// A frame is coded whole, by one coder: a fresh table part-way through would cost bytes, and
/// lossy choices only pay under the table the file is written with.
/// With a `LossyMatch`, a pixel may take another colour close enough to its source when that
/// lets the current string grow (gifsicle's `--lossy` idea, judged against the source pixels
/// rather than the already quantized ones).
package enum LZWCoder {
    /// The image data as GIF sub-blocks (a length byte, then up to 255 bytes, repeated),
    /// without the minimum-code-size byte before them or the empty block after them.
    ///
    /// `indices` is `width·height` palette indices, `rowStride` a row. With `lossy`, indices
    /// may be replaced by the colours actually written, and the screen is updated to match.
    package static func encode(
        indices: UnsafeMutablePointer<UInt8>, rowStride: Int, width: Int, height: Int,
        minCodeSize: Int, lossy: LossyMatch? = nil, deferredClear: Bool = false
    ) -> [UInt8] {
        precondition((2...8).contains(minCodeSize) && width > 0 && height > 0)
        var run = LZWRun(minCodeSize: minCodeSize, pixels: width * height, deferredClear: deferredClear)
        for y in 0..<height {
            let row = indices + y * rowStride
            for x in 0..<width {
                let e = Int(row[x])
                guard let lossy, run.current >= 0 else {
                    run.take(e)
                    continue
                }
                let found = run.table.find(prefix: run.current, suffix: e)
                if found < 0,
                    let (code, suffix) = run.table.closeExtension(of: run.current, x: x, y: y, exact: e, lossy)
                {
                    row[x] = suffix
                    run.extend(to: code)
                } else {
                    run.take(e, found: found)
                }
            }
        }
        if let lossy { lossy.paint(indices: indices, rowStride: rowStride, width: width, rows: 0..<height) }
        return run.finish()
    }

    /// The image data twice, as `encode` gives it with `deferredClear` false and true, from
    /// one pass over the pixels: two coders read each pixel in turn, so that the processor
    /// overlaps their table lookups, each of which waits on the one before. Cheaper than
    /// coding one after the other, though not half: each table fills L1 on its own.
    package static func encodeBothClears(
        indices: UnsafePointer<UInt8>, rowStride: Int, width: Int, height: Int,
        minCodeSize: Int
    ) -> (eager: [UInt8], deferred: [UInt8]) {
        precondition((2...8).contains(minCodeSize) && width > 0 && height > 0)
        var eager = LZWRun(minCodeSize: minCodeSize, pixels: width * height, deferredClear: false)
        var deferred = LZWRun(minCodeSize: minCodeSize, pixels: width * height, deferredClear: true)
        for y in 0..<height {
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

/// One coder part-way through a frame: its table, the bits sent so far, and the string being
/// matched.
struct LZWRun {
    var table: LZWTable
    var sink: BitSink
    /// The code of the string matched so far, or -1 before the first pixel.
    private(set) var current = -1
    /// Pixels taken so far, for the clear policy.
    private var pixels = 0
    private var policy: ClearPolicy
    private let deferredClear: Bool

    /// Starts the data with a clear code, as giflib does.
    init(minCodeSize: Int, pixels: Int, deferredClear: Bool) {
        table = LZWTable(minCodeSize: minCodeSize)
        // Codes are at most 12 bits and there is at most one (plus a clear) per pixel.
        sink = BitSink(capacity: pixels * 3 + 16)
        self.deferredClear = deferredClear
        sink.put(table.clear, table.width)
        policy = ClearPolicy(startBits: sink.bitCount)
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
        if found >= 0 {
            current = found
            return
        }
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

    /// Sends the last string's code and the end-of-information code, and returns the data as
    /// sub-blocks; the coder's memory is freed.
    mutating func finish() -> [UInt8] {
        precondition(current >= 0, "an LZW run needs at least one pixel")
        sink.put(current, table.width)
        table.widenIfNeeded()
        sink.put(table.clear + 1, table.width)
        sink.flush()
        defer {
            table.deallocate()
            sink.deallocate()
        }
        return sink.subBlocks()
    }
}

/// When to clear a full table (the deferred clear gifsicle uses; GIF allows a full table to
/// go on being used). A fresh table's run, from its clear to the moment it filled, sets the
/// cost of starting again, in bits per pixel; once the full table's last 256 codes cost more
/// than that, the encoder clears.
struct ClearPolicy {
    static let window = 256
    /// Where the current table's run began, and what it cost until the table filled.
    private var runBits: Int, runPixels = 0
    private var freshBits = 0, freshPixels = 1
    /// The current window of codes sent from the full table.
    private var windowPixels = 0, windowCodes = 0

    /// `startBits`: what the data holds before the first table's first code.
    init(startBits: Int) { runBits = startBits }

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
