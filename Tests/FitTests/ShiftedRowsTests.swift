@testable import Fit
import TestSupport
import Testing

/// Which rows of a moving frame are a still's rows moved whole.
@Suite("ShiftedRows: a still's rows moved up or down whole")
struct ShiftedRowsTests {
    /// Whether the moving frame's row `y` is the still's row `y + shift`, or halfway from it to
    /// the next, by every pixel: what the sums' bounds must answer alike.
    static func samePixels(_ still: LumaImage, _ moving: LumaImage, _ y: Int, _ shift: Int) -> Bool {
        let (w, h) = (still.width, still.height)
        let (a, b) = (y * w, (y + shift) * w)
        let next = y + shift + 1 < h ? b + w : b
        var whole: Float = 0, half: Float = 0
        for x in 0..<w {
            whole += abs(moving.pixels[a + x] - still.pixels[b + x])
            half += abs(moving.pixels[a + x] - (still.pixels[b + x] + still.pixels[next + x]) / 2)
        }
        return min(whole, half) / Float(w) <= ShiftedRows.sameRow
    }

    @Test(
        "Randomized: every row at every shift is answered as its pixels answer, where the rows are the still's moved, moved and blended, nearly so, or others"
    )
    func sameAsThePixels() {
        var random = SeededRandom(seed: 68)
        var answered = (same: 0, other: 0)
        for _ in 0..<40 {
            let w = 1 + random.below(48)
            let h = 2 + random.below(30)
            let still = LumaImage(
                width: w, height: h, pixels: (0..<w * h).map { _ in Float(random.below(256)) })
            let shift = random.below(h) - h / 2
            // Each moving row: the still's row `shift` away, halfway to the next, off by a few
            // levels (about the bound), off by the bound exactly (the sums' order then decides),
            // or a row of its own.
            var pixels: [Float] = []
            for y in 0..<h {
                let source = min(h - 1, max(0, y + shift))
                let next = min(h - 1, source + 1)
                let kind = random.below(5)
                for x in 0..<w {
                    let noise = Float(random.below(11)) - 5
                    switch kind {
                    case 0: pixels.append(still.pixels[source * w + x])
                    case 1: pixels.append((still.pixels[source * w + x] + still.pixels[next * w + x]) / 2)
                    case 2: pixels.append(min(255, max(0, still.pixels[source * w + x] + noise)))
                    case 3:
                        let p = still.pixels[source * w + x]
                        pixels.append(p + (p <= 255 - ShiftedRows.sameRow ? ShiftedRows.sameRow : -ShiftedRows.sameRow))
                    default: pixels.append(Float(random.below(256)))
                    }
                }
            }
            let moving = LumaImage(width: w, height: h, pixels: pixels)
            let rows = ShiftedRows(still: still, moving: moving)
            for s in -(h - 1)...(h - 1) {
                for y in max(0, -s)..<min(h, h - s) {
                    let expected = Self.samePixels(still, moving, y, s)
                    #expect(rows.same(y, s) == expected, "\(w)x\(h), row \(y), shift \(s)")
                    if expected { answered.same += 1 } else { answered.other += 1 }
                }
            }
        }
        // Both answers came up often.
        #expect(answered.same > 100 && answered.other > 1000, "\(answered)")
    }
}
