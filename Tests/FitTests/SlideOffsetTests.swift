import TestSupport
import Testing

@testable import Fit

/// How far a sliding screen's render is from where a frame shows it.
@Suite("SlideOffset: a sliding screen's shift from the recording's, to a fraction of a pixel")
struct SlideOffsetTests {
    /// A picture of blurred noise, 80 by 142 like the outline's: greys that change every few
    /// pixels, as a screen of text does at that width.
    static func texture(seed: UInt64) -> LumaImage {
        var rng = SeededRandom(seed: seed)
        let (w, h) = (120, 180)
        return LumaImage(width: w, height: h, pixels: (0..<(w * h)).map { _ in Float(rng.below(256)) })
            .boxBlurred(radius: 1)
    }

    /// `texture`'s 80 x 142 pixels from (20 + dx, 20 + dy), between pixels where the offset is.
    static func window(_ texture: LumaImage, dx: Double, dy: Double) -> LumaImage {
        LumaImage(
            width: 80, height: 142,
            pixels: (0..<(80 * 142)).map { (i: Int) -> Float in
                texture.sample(20 + Double(i % 80) + dx, 20 + Double(i / 80) + dy)
            })
    }

    @Test(
        "A frame that shows the screen further down or right by whole and half pixels: that shift, within a tenth and a third of a pixel"
    )
    func shifts() throws {
        for (seed, axis, offset) in [
            (1, RecordingFeature.Axis.y, 3.0), (2, .y, -5), (3, .y, 0), (4, .x, 2), (5, .x, -7), (6, .y, 2.5),
            (7, .x, -1.5),
        ] as [(UInt64, RecordingFeature.Axis, Double)] {
            let texture = Self.texture(seed: seed)
            let render = Self.window(texture, dx: 0, dy: 0)
            // The frame shows at (x + offset) what the render draws at x.
            let picture = Self.window(texture, dx: axis == .x ? -offset : 0, dy: axis == .y ? -offset : 0)
            let found = try #require(
                SlideOffset.shift(render: render, picture: picture, box: (10...69, 30...119), axis: axis))
            let slack = offset.rounded() == offset ? 0.1 : 0.34
            #expect(abs(found.shift - offset) <= slack, "seed \(seed): \(found.shift) for \(offset)")
            if offset.rounded() == offset { #expect(found.residual < 0.01, "seed \(seed): \(found.residual)") }
            // In place, the whole picture is closer by the box's share (60 x 90 of 80 x 142) of
            // how much closer the box is: nothing where it was in place already.
            #expect(offset == 0 ? found.gain == 0 : found.gain > 5 * 5400 / 11360, "seed \(seed): gain \(found.gain)")
        }
    }

    @Test("A screen showing too little of itself is not measured; one past the reach is no match at any shift")
    func limits() {
        let texture = Self.texture(seed: 9)
        let render = Self.window(texture, dx: 0, dy: 0)
        // A sliver of the picture (under a tenth of it) says too little; a box past its edge is
        // not read.
        #expect(SlideOffset.shift(render: render, picture: render, box: (0...79, 0...10), axis: .y) == nil)
        #expect(SlideOffset.shift(render: render, picture: render, box: (0...80, 0...141), axis: .y) == nil)
        // A band at the edge it slides from, narrower than the reach: shifts that leave it
        // mostly outside are not weighed, and the one in place is found.
        for box in [(68...79, 0...141), (0...11, 0...141)] as [LumaImage.Box] {
            let edge = SlideOffset.shift(render: render, picture: render, box: box, axis: .x)
            #expect(edge.map { abs($0.shift) < 0.1 } == true, "\(box): \(String(describing: edge))")
        }
        // Twelve pixels off is past the reach: whatever shift comes closest leaves the screen's
        // pixels about as far from the frame's as unrelated greys are.
        let far = Self.window(texture, dx: 0, dy: -12)
        let found = SlideOffset.shift(render: render, picture: far, box: (10...69, 30...119), axis: .y)
        #expect(
            found.map { $0.residual > 20 } == true,
            "\(String(describing: found))")
    }
}
