/// Where a screen parts at a row as it opens (`ScreenChange.expand`) or closes
/// (`ScreenChange.collapse`): the rows above ride up with the row's top edge, the rows below ride
/// down with its bottom edge, each moved by the same share of its way out.
struct ScreenParting: Equatable {
    /// How far the rows above have moved up and the rows below down, in pixels.
    let up: Int
    let down: Int
    /// The row's top and bottom in the still screen, in pixels.
    let top: Double
    let bottom: Double
    /// The moving frame's row where the rows above start showing: under a bar that stays at the
    /// top, its bottom edge.
    var barEdge = 0

    /// How far open the row is in the moving frame (0 to 1): the rows above have gone that share
    /// of the row's top.
    var open: Double { Double(up) / top }

    /// The height in the still of a bar at the top that stays while the rows above ride up
    /// under it, sliding up into the top edge as the row opens (a navigation bar), in pixels; 0
    /// where the rows above show from the top.
    var bar: Double {
        guard open < 0.9 else { return 0 }
        let height = Double(barEdge) / (1 - open)
        return height >= 4 && height < top ? height : 0
    }

    /// The least rows with texture each part's run must hold: flat rows match at any shift.
    static let leastTextured = 6
    /// The most a row of the moving frame may differ from the still's, in levels (a codec's noise).
    static let sameRow: Float = 4
    /// The least mean step between neighbouring pixels of a row with texture, in levels.
    static let texture: Float = 2

    /// The parting `moving` shows of `still` (the same size): the rows above found moved up by
    /// one shift and the rows below moved down by another, each the shift whose longest run of
    /// matching rows holds the most rows with texture. The row's bottom is where the run below
    /// starts, in the still; its top follows from the shifts, which stand to each other as the
    /// distances the two parts go (the top to the screen's top, the bottom to its bottom). Nil
    /// where either part is not found.
    static func find(still: LumaImage, moving: LumaImage) -> ScreenParting? {
        let (w, h) = (still.width, still.height)
        let textured = (0..<h).map { y -> Bool in
            var steps: Float = 0
            for x in 1..<w { steps += abs(still.pixels[y * w + x] - still.pixels[y * w + x - 1]) }
            return steps / Float(max(1, w - 1)) > texture
        }
        // Each row's sums over a few blocks of columns: the differences of two rows' block sums
        // add up to no more than their pixels' differences, so a pair of rows far apart there
        // is told apart without a look at every pixel (with room for the floats' rounding, the
        // same answer the pixels give).
        let blocks = Swift.min(16, w)
        let blockSums = { (image: LumaImage) -> [Double] in
            (0..<h * blocks).map { i in
                let (y, k) = (i / blocks, i % blocks)
                return (k * w / blocks..<(k + 1) * w / blocks).reduce(0) { $0 + Double(image.pixels[y * w + $1]) }
            }
        }
        let (movingBlocks, stillBlocks) = (blockSums(moving), blockSums(still))
        let bound = Double(sameRow) * Double(w) + 0.5
        /// Whether the moving frame's row `y` is the still's row `y + shift`, or halfway from it
        /// to the next (a part rarely stops on a whole pixel).
        func same(_ y: Int, _ shift: Int) -> Bool {
            let (a, b) = (y * w, (y + shift) * w)
            var whole: Float = 0, half: Float = 0
            let next = y + shift + 1 < h ? b + w : b
            let (ma, sb, sn) = (y * blocks, (y + shift) * blocks, next / w * blocks)
            var (wholeAtLeast, halfAtLeast) = (0.0, 0.0)
            for k in 0..<blocks {
                wholeAtLeast += abs(movingBlocks[ma + k] - stillBlocks[sb + k])
                halfAtLeast += abs(movingBlocks[ma + k] - (stillBlocks[sb + k] + stillBlocks[sn + k]) / 2)
            }
            if Swift.min(wholeAtLeast, halfAtLeast) > bound { return false }
            for x in 0..<w {
                whole += abs(moving.pixels[a + x] - still.pixels[b + x])
                half += abs(moving.pixels[a + x] - (still.pixels[b + x] + still.pixels[next + x]) / 2)
            }
            return min(whole, half) / Float(w) <= sameRow
        }
        /// The longest run (by rows with texture) of the moving frame's rows that are the still's
        /// shifted by `shift` (up where positive): its score and first and last rows (moving's).
        func run(_ shift: Int) -> (score: Int, first: Int, last: Int) {
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
        let ups = (1..<h / 2).map { ($0, run($0)) }.max { $0.1.score < $1.1.score }
        let downs = (1..<h / 2).map { ($0, run(-$0)) }.max { $0.1.score < $1.1.score }
        guard let (up, above) = ups, let (down, below) = downs, above.score >= leastTextured,
            below.score >= leastTextured
        else { return nil }
        // The run below starts in the still at its own first row less its shift.
        let bottom = Double(below.first - down)
        let top = Double(up) * (Double(h) - bottom) / Double(down)
        guard top >= 1, bottom > top + 1, bottom < Double(h - 1), above.last < below.first else { return nil }
        return ScreenParting(up: up, down: down, top: top, bottom: bottom, barEdge: above.first)
    }
}
