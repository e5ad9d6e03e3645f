import Foundation
import TestSupport
import Testing

@testable import Fit

/// The layer tracker's search, which stops summing a candidate once it cannot win.
@Suite("LayerTracker: a candidate is dropped only when it could not have won")
struct LayerTrackerTests {
    /// A random grey picture, smooth enough to have a best match.
    static func picture(_ width: Int, _ height: Int, _ rng: inout SeededRandom) -> LumaImage {
        let (a, b) = (Double.random(in: 0.05...0.3, using: &rng), Double.random(in: 0.05...0.3, using: &rng))
        return LumaImage(
            width: width, height: height,
            pixels: (0..<(width * height)).map { i in
                Float(128 + 100 * sin(Double(i % width) * a) * cos(Double(i / width) * b))
                    + Float.random(in: -20...20, using: &rng)
            })
    }

    @Test("With a bound, the error is the same or infinity, and infinity only above the bound")
    func boundedError() {
        var rng = SeededRandom(seed: 46)
        for _ in 0..<200 {
            let frame = Self.picture(80, 120, &rng), template = Self.picture(20, 16, &rng)
            let tracker = LayerTracker(template: template, at: (30, 40, 20, 16))
            let (cx, cy) = (Double.random(in: 0...80, using: &rng), Double.random(in: 0...120, using: &rng))
            let scale = Double.random(in: 0.5...1.5, using: &rng), fine = Bool.random(using: &rng)
            let whole = tracker.error(in: frame, cx: cx, cy: cy, scale: scale, fine: fine)
            for bound in [whole * 0.5, whole * 0.999, whole, whole * 1.001, whole * 2] {
                let bounded = tracker.error(in: frame, cx: cx, cy: cy, scale: scale, fine: fine, above: bound)
                #expect(
                    bounded == whole || (bounded == .infinity && whole > bound), "\(whole) above \(bound): \(bounded)")
            }
        }
    }

    @Test("A patch cut from a picture is found where it was cut, to a sixteenth of a pixel")
    func findsItsPatch() {
        var rng = SeededRandom(seed: 47)
        for _ in 0..<20 {
            let frame = Self.picture(120, 160, &rng)
            let (x, y) = (Double(Int.random(in: 20...80, using: &rng)), Double(Int.random(in: 20...120, using: &rng)))
            let template = LumaImage(
                width: 24, height: 18,
                pixels: (0..<(24 * 18)).map { (i: Int) -> Float in frame.sample(x + Double(i % 24), y + Double(i / 24))
                })
            let tracker = LayerTracker(template: template, at: (x, y, 24, 18))
            let m = tracker.match(in: frame, near: (x + 12 + 5, y + 9 - 4, 1), radius: 15, scales: 0.9...1.1)
            #expect(abs(m.x - x) <= 0.0625 && abs(m.y - y) <= 0.0625 && abs(m.width - 24) < 0.2, "\(m) for \(x), \(y)")
        }
    }

    @Test("A card's sides are edges on a plain ground and not where its content runs on past them")
    func outline() {
        var rng = SeededRandom(seed: 48)
        let content = Self.picture(80, 120, &rng)
        // The content inside a 40 x 50 card at (20, 30) on white; and the same content over the
        // whole picture, as where a card reveals more of its image than the rect found.
        var card = LumaImage(width: 80, height: 120, pixels: [Float](repeating: 255, count: 80 * 120))
        for y in 30..<80 { for x in 20..<60 { card.pixels[y * 80 + x] = content.pixels[y * 80 + x] } }
        let rect = LayerTracker.Match(x: 20, y: 30, width: 40, height: 50, error: 0)
        let framed = rect.sides(in: card), unframed = rect.sides(in: content)
        #expect(framed.allSatisfy { ($0 ?? 0) > 60 }, "\(framed)")
        for (was, now) in zip(framed, unframed) {
            #expect((now ?? .infinity) < was! * Problem.outlineShare, "\(was!) to \(String(describing: now))")
        }
        // A side whose outside is off the picture has no value.
        let edge = LayerTracker.Match(x: 0, y: 1, width: 80, height: 50, error: 0).sides(in: card)
        #expect(edge.map { $0 == nil } == [true, true, true])
    }
}
