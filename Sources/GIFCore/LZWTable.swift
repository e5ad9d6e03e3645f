/// The strings of one run between clear codes: exact lookups through a hash of
/// (prefix, suffix), and each string's extensions as a list, for lossy matching.
struct LZWTable {
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
        hash.deallocate()
        firstChild.deallocate()
        sibling.deallocate()
        suffixes.deallocate()
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
    func closeExtension(of prefix: Int, x: Int, y: Int, exact: Int, _ lossy: LossyMatch) -> (code: Int, suffix: UInt8)?
    {
        if let importance = lossy.importance, importance[y * lossy.cropStride + x] <= LossyMatch.settling {
            return nil
        }
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
            if lossy.kinds[s] != LossyMatch.unusable {
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
