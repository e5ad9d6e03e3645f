/// The rows of a moving frame that are a still's rows moved up or down whole, as a screen's
/// parts ride (`ScreenParting`) or its content is pulled down (`PulledScreen`): which rows match
/// at a shift, and the longest run of them by rows with texture (flat rows match at any shift).
struct ShiftedRows {
    let still: LumaImage
    let moving: LumaImage
    /// Per row of the still, whether it has texture.
    let textured: [Bool]
    /// Each row's sums over a few blocks of columns: the differences of two rows' block sums
    /// add up to no more than their pixels' differences, so a pair of rows far apart there is
    /// told apart without a look at every pixel (with room for the floats' rounding, the same
    /// answer the pixels give).
    private let blocks: Int
    private let movingBlocks: [Double]
    private let stillBlocks: [Double]

    /// The most a row of the moving frame may differ from the still's, in levels (a codec's noise).
    static let sameRow: Float = 4
    /// The least mean step between neighbouring pixels of a row with texture, in levels.
    static let texture: Float = 2

    /// `still` and `moving` are of one size.
    init(still: LumaImage, moving: LumaImage) {
        self.still = still
        self.moving = moving
        let (w, h) = (still.width, still.height)
        textured = (0..<h).map { y -> Bool in
            var steps: Float = 0
            for x in 1..<w { steps += abs(still.pixels[y * w + x] - still.pixels[y * w + x - 1]) }
            return steps / Float(max(1, w - 1)) > Self.texture
        }
        let blocks = Swift.min(16, w)
        let blockSums = { (image: LumaImage) -> [Double] in
            (0..<h * blocks).map { i in
                let (y, k) = (i / blocks, i % blocks)
                return (k * w / blocks..<(k + 1) * w / blocks).reduce(0) { $0 + Double(image.pixels[y * w + $1]) }
            }
        }
        self.blocks = blocks
        (movingBlocks, stillBlocks) = (blockSums(moving), blockSums(still))
    }

    /// Whether the moving frame's row `y` is the still's row `y + shift`, or halfway from it to
    /// the next (a part rarely stops on a whole pixel).
    func same(_ y: Int, _ shift: Int) -> Bool {
        let (w, h) = (still.width, still.height)
        let (a, b) = (y * w, (y + shift) * w)
        var whole: Float = 0, half: Float = 0
        let next = y + shift + 1 < h ? b + w : b
        let (ma, sb, sn) = (y * blocks, (y + shift) * blocks, next / w * blocks)
        var (wholeAtLeast, halfAtLeast) = (0.0, 0.0)
        for k in 0..<blocks {
            wholeAtLeast += abs(movingBlocks[ma + k] - stillBlocks[sb + k])
            halfAtLeast += abs(movingBlocks[ma + k] - (stillBlocks[sb + k] + stillBlocks[sn + k]) / 2)
        }
        if Swift.min(wholeAtLeast, halfAtLeast) > Double(Self.sameRow) * Double(w) + 0.5 { return false }
        // The same differences summed eight at a time answer at once where they are clearly on
        // one side of the limit: two orders of adding the same w floats differ by at most about
        // 2 w 2⁻²⁴ of their sum, allowed for twice over; a row that near the limit is answered
        // by the sums in order, below.
        let limit = Double(Self.sameRow) * Double(w)
        let near = Self.sums(moving.pixels, still.pixels, a, b, next, w)
        let slack = 4 * Double(w) * 0x1p-24 * Swift.max(near.whole, near.half) + 0x1p-10
        let nearest = Swift.min(near.whole, near.half)
        if nearest + slack <= limit * (1 - 0x1p-20) { return true }
        if nearest - slack >= limit * (1 + 0x1p-20) { return false }
        for x in 0..<w {
            whole += abs(moving.pixels[a + x] - still.pixels[b + x])
            half += abs(moving.pixels[a + x] - (still.pixels[b + x] + still.pixels[next + x]) / 2)
        }
        return Swift.min(whole, half) / Float(w) <= Self.sameRow
    }

    /// The sums of a row's whole and half differences (as `same` makes them), added in lanes
    /// of eight.
    @inline(__always)
    private static func sums(_ m: [Float], _ s: [Float], _ a: Int, _ b: Int, _ next: Int, _ w: Int) -> (
        whole: Double, half: Double
    ) {
        m.withUnsafeBufferPointer { m in
            s.withUnsafeBufferPointer { s in
                let (mr, sr, nr) = (
                    UnsafeRawPointer(m.baseAddress! + a), UnsafeRawPointer(s.baseAddress! + b),
                    UnsafeRawPointer(s.baseAddress! + next)
                )
                var whole = SIMD8<Float>(repeating: 0), half = SIMD8<Float>(repeating: 0)
                var x = 0
                while x &+ 8 <= w {
                    let mv = mr.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<Float>.self)
                    let sv = sr.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<Float>.self)
                    let nv = nr.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<Float>.self)
                    let d = mv - sv, e = mv - (sv + nv) / 2
                    whole += d.replacing(with: -d, where: d .< 0)
                    half += e.replacing(with: -e, where: e .< 0)
                    x &+= 8
                }
                var (wholeRest, halfRest): (Float, Float) = (0, 0)
                while x < w {
                    wholeRest += abs(m[a &+ x] - s[b &+ x])
                    halfRest += abs(m[a &+ x] - (s[b &+ x] + s[next &+ x]) / 2)
                    x &+= 1
                }
                return (Double(whole.sum() + wholeRest), Double(half.sum() + halfRest))
            }
        }
    }

    /// How many of the still's rows with texture that the moving frame shows shifted by `shift`
    /// (up where positive) it shows there, and how many it could: a whole screen's content moved
    /// matches most, though a codec breaks the odd row.
    func matching(_ shift: Int) -> (matched: Int, of: Int) {
        let h = still.height
        var (matched, of) = (0, 0)
        for y in max(0, -shift)..<min(h, h - shift) where textured[y + shift] {
            of += 1
            if same(y, shift) { matched += 1 }
        }
        return (matched, of)
    }

    /// The longest run (by rows with texture) of the moving frame's rows that are the still's
    /// shifted by `shift` (up where positive): its score and first and last rows (moving's).
    func run(_ shift: Int) -> (score: Int, first: Int, last: Int) {
        let h = still.height
        var best = (score: 0, first: 0, last: -1)
        var current = (score: 0, first: 0)
        for y in max(0, -shift)..<min(h, h - shift) {
            guard same(y, shift) else {
                current = (0, y + 1)
                continue
            }
            if textured[y + shift] { current.score += 1 }
            if current.score > best.score { best = (current.score, current.first, y) }
        }
        return best
    }
}
