import Testing

@testable import Fit

/// Where a frame places a sliding screen: the step of the move's way whose drawing matches it.
@Suite("SlideTrack: the step of a move's way a frame shows, where the frame pins it")
struct SlideTrackTests {
    /// A frame's differences from the drawings at 41 steps: rising `slope` levels a step either
    /// side of `best` (a fraction of a step), over a floor of `floor`.
    static func differences(best: Double, slope: Double = 1, floor: Double = 2) -> [Double] {
        (0...40).map { (i: Int) -> Double in floor + slope * abs(Double(i) - best) }
    }

    @Test("A frame between two steps: the best step to a fraction, within a tenth of one")
    func fraction() throws {
        // A parabola through the best and its neighbours finds a V's vertex within a quarter
        // step; a frame's differences near their least are rounder than a V.
        for best in [3.0, 17.0, 26.0] {
            let found = try #require(SlideTrack.best(Self.differences(best: best)))
            #expect(abs(found - best) < 1e-9, "\(found)")
        }
        let round = (0...40).map { (i: Int) -> Double in
            let d = Double(i) - 12.3
            return 2 + 0.5 * d * d
        }
        let found = try #require(SlideTrack.best(round))
        #expect(abs(found - 12.3) < 0.1, "\(found)")
    }

    @Test("At either end of the way, a frame that differs from the next steps is placed there")
    func ends() {
        #expect(SlideTrack.best(Self.differences(best: 0)) == 0)
        #expect(SlideTrack.best(Self.differences(best: 40)) == 40)
    }

    @Test(
        "A frame as like many steps as the best (a sheet gone past the bottom edge, over rows as plain as its top) places nothing"
    )
    func flat() {
        // Alike from step 30 to the end: the sheet is out of sight there.
        let gone = (0...40).map { (i: Int) -> Double in i < 30 ? 2 + Double(30 - i) : 2 + Double(i % 2) * 0.1 }
        #expect(SlideTrack.best(gone) == nil)
        // Rising too little to tell, either side.
        #expect(SlideTrack.best(Self.differences(best: 20, slope: 0.05)) == nil)
        #expect(SlideTrack.best([]) == nil)
    }
}
