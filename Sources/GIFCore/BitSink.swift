/// Codes packed least significant bit first, as GIF wants them.
struct BitSink {
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

    /// The bytes as GIF sub-blocks: a length byte, then up to 255 bytes, repeated.
    func subBlocks() -> [UInt8] {
        var blocks = [UInt8]()
        blocks.reserveCapacity(count + count / 255 + 1)
        var at = 0
        while at < count {
            let n = min(255, count - at)
            blocks.append(UInt8(n))
            blocks.append(contentsOf: UnsafeBufferPointer(start: bytes + at, count: n))
            at += n
        }
        return blocks
    }
}
