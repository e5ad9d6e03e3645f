/// Which colours a frame's changed pixels use, in 32³ bins of 8 levels a side, so that a
/// frame can reuse an earlier frame's palette when that palette was built for the same
/// colours (the common case in UI motion: the same pixels, moved).
package struct PaletteColours {
    private var bits = [UInt64](repeating: 0, count: 32768 / 64)

    /// One pixel in every `step`² of the frame's changed pixels.
    package static let step = 2

    package init() {}

    /// Collects the colours of `current`'s pixels inside the box that differ from `previous`
    /// (all of them when there is none); returns how many sampled pixels fall in bins that
    /// `key` lacks, and how many were sampled.
    package mutating func collect(
        _ current: [UInt8], previous: [UInt8]?, box: (x0: Int, y0: Int, x1: Int, y1: Int), width: Int,
        against key: PaletteColours?
    ) -> (uncovered: Int, sampled: Int) {
        var uncovered = 0, sampled = 0
        current.withUnsafeBufferPointer { cur in
            previous.withUnsafeBufferPointer { prev in
                key.withUnsafeBits { keyBits in
                    bits.withUnsafeMutableBufferPointer { bits in
                        var y = box.y0
                        while y < box.y1 {
                            var x = box.x0
                            while x < box.x1 {
                                let i = (y * width + x) * 4
                                if prev == nil || cur[i] != prev![i] || cur[i + 1] != prev![i + 1]
                                    || cur[i + 2] != prev![i + 2]
                                {
                                    let bin = Int(cur[i] >> 3) << 10 | Int(cur[i + 1] >> 3) << 5 | Int(cur[i + 2] >> 3)
                                    bits[bin >> 6] |= 1 << UInt64(bin & 63)
                                    sampled += 1
                                    if let keyBits, keyBits[bin >> 6] & (1 << UInt64(bin & 63)) == 0 { uncovered += 1 }
                                }
                                x += Self.step
                            }
                            y += Self.step
                        }
                    }
                }
            }
        }
        return (uncovered, sampled)
    }

    fileprivate func withUnsafeBits<R>(_ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        bits.withUnsafeBufferPointer(body)
    }
}

private extension Optional where Wrapped == PaletteColours {
    func withUnsafeBits<R>(_ body: (UnsafeBufferPointer<UInt64>?) -> R) -> R {
        switch self {
        case .some(let set): set.withUnsafeBits { body($0) }
        case .none: body(nil)
        }
    }
}

private extension Optional where Wrapped == [UInt8] {
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        switch self {
        case .some(let array): array.withUnsafeBufferPointer { body($0) }
        case .none: body(nil)
        }
    }
}
