import Geometry
import Testing
import TestSupport

@Suite("Geometry: rects in points and pixels, colours")
struct RectTests {
    /// The pixels of a rect, one by one: the plain definition the set operations are checked against.
    func pixels(_ r: PixelRect) -> Set<[Int]> {
        guard !r.isEmpty else { return [] }
        return Set((r.y..<r.maxY).flatMap { y in (r.x..<r.maxX).map { [$0, y] } })
    }

    func randomRect(_ rng: inout SeededRandom) -> PixelRect {
        PixelRect(
            x: Int.random(in: -4...12, using: &rng), y: Int.random(in: -4...12, using: &rng),
            width: Int.random(in: -2...10, using: &rng), height: Int.random(in: -2...10, using: &rng))
    }

    @Test("Pixel rects: intersection, union, subtracting and contains agree with sets of pixels, on 2,000 random pairs")
    func pixelSets() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            let a = randomRect(&rng), b = randomRect(&rng)
            #expect(pixels(a.intersection(b)) == pixels(a).intersection(pixels(b)), "\(a) ∩ \(b)")
            let pieces = a.subtracting(b)
            #expect(
                pieces.reduce(into: Set<[Int]>()) { $0.formUnion(pixels($1)) } == pixels(a).subtracting(pixels(b)),
                "\(a) − \(b)")
            #expect(
                pieces.map(\.area).reduce(0, +) == pixels(a).subtracting(pixels(b)).count, "pieces overlap: \(a) − \(b)"
            )
            #expect(pieces.allSatisfy { !$0.isEmpty })
            let u = a.union(b)
            #expect(pixels(u).isSuperset(of: pixels(a).union(pixels(b))))
            if !a.isEmpty && !b.isEmpty {
                #expect(
                    u.x == min(a.x, b.x) && u.maxX == max(a.maxX, b.maxX) && u.y == min(a.y, b.y)
                        && u.maxY == max(a.maxY, b.maxY))
            }
            #expect(a.contains(b) == pixels(a).isSuperset(of: pixels(b)), "\(a) ⊇ \(b)")
            #expect(a.area == pixels(a).count)
        }
    }

    @Test("Rects in points: edges, centre, scaling, intersection and containment")
    func pointRects() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(r.maxX == 40 && r.maxY == 60 && r.midX == 25 && r.midY == 40 && r.center == Point(x: 25, y: 40))
        #expect(r.scaled(by: 2) == Rect(x: 20, y: 40, width: 60, height: 80))
        #expect(r.offsetBy(dx: -10, dy: 5) == Rect(x: 0, y: 25, width: 30, height: 40))
        #expect(
            r.intersection(Rect(x: 30, y: 50, width: 100, height: 100)) == Rect(x: 30, y: 50, width: 10, height: 10))
        #expect(r.intersection(Rect(x: 100, y: 100, width: 5, height: 5)).isEmpty)
        #expect(
            r.contains(Rect(x: 10, y: 20, width: 30, height: 40)) && !r.contains(Rect(x: 9, y: 20, width: 2, height: 2))
        )
        #expect(Rect(x: 0, y: 0, width: 0, height: 5).isEmpty && !r.isEmpty)
    }

    @Test("Colours: 0xRRGGBB, alpha, and their text")
    func colours() {
        let c = Color(rgb: 0x3067F4, alpha: 0x80)
        #expect(c.r == 0x30 && c.g == 0x67 && c.b == 0xF4 && c.a == 0x80)
        #expect(
            Color(rgb: 0x3067F4).description == "#3067F4" && c.description == "#3067F480"
                && Color.clear.description == "#00000000")
        #expect(Color.clear.a == 0 && Color.white == Color(rgb: 0xFFFFFF))
        #expect(Color(hex: c.description) == c && Color(hex: "#3067f4") == Color(rgb: 0x3067F4))
        for bad in ["3067F4", "#3067F", "#3067F4F", "#+067F4", "#3067G4", "#3067F4@128", "#3067F4800"] {
            #expect(Color(hex: bad) == nil, "\(bad)")
        }
    }
}
