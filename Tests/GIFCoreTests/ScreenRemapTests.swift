import Testing
import TestSupport
@testable import GIFCore

@Suite("Remapping: exact nearest colour, screen-aware transparency, bands")
struct ScreenRemapTests {
    /// A palette of `count` random RGB entries, some of them marked clear.
    func randomPalette(_ count: Int, clearEvery: Int, rng: inout SeededRandom) -> ([UInt8], [Bool]) {
        let palette = (0..<(count * 3)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let clear = (0..<count).map { clearEvery > 0 && $0 % clearEvery == 3 }
        return (palette, clear)
    }

    @Test(
        "The cell search finds the brute-force nearest entry, ties to the lower index, looked up again from its memo",
        arguments: [
            (1, false), (2, false), (7, false), (64, false), (200, false), (256, false), (256, true), (96, true),
        ])
    func nearestIsExact(count: Int, dense: Bool) {
        var rng = SeededRandom(seed: UInt64(count) + (dense ? 1000 : 0))
        var (palette, clear) = randomPalette(count, clearEvery: 5, rng: &rng)
        // Dense: every entry and query in a narrow band, as a photo under a dimming overlay
        // gives, so that cells list many entries and the search stops early in most of them.
        let range: ClosedRange<Int32> = dense ? 80...176 : 0...255
        if dense { palette = palette.map { 96 + $0 % 65 } }
        if count == 1 { clear = [false] }
        if count >= 64 {
            // Clusters and duplicates, as real palettes have.
            for i in 0..<8 { for c in 0..<3 { palette[(20 + i) * 3 + c] = palette[20 * 3 + c] &+ UInt8(i & 1) } }
        }
        let usable = clear.map { !$0 }
        let search = NearestColour(palette: palette, usable: usable)
        let colours = (0..<20_000).map { _ in
            (
                Int32.random(in: range, using: &rng), Int32.random(in: range, using: &rng),
                Int32.random(in: range, using: &rng)
            )
        }
        // The second pass finds many colours in the memo and the rest evicted by others.
        for (r, g, b) in colours + colours.reversed() {
            let (bestAt, best) = bruteForceNearest(r, g, b, palette: palette, usable: usable)
            let found = search.nearest(r, g, b)
            #expect(Int(found.index) == bestAt && found.distance == best, "colour (\(r), \(g), \(b))")
            if Int(found.index) != bestAt { return }
        }
    }

    /// Runs a remap over a `w`x`h` frame whose changed rect is the whole frame.
    func remap(
        _ pixels: [UInt8], importance: [UInt8]?, screen: inout [UInt8], w: Int, h: Int,
        palette: [UInt8], clear: [Bool], transparent: Int, dithering: Double
    ) -> ([UInt8], (x: Int, y: Int, w: Int, h: Int)) {
        var indices = [UInt8](repeating: 0, count: w * h)
        let flags = importance ?? []
        let box = pixels.withUnsafeBufferPointer { crop in
            screen.withUnsafeMutableBufferPointer { screen in
                indices.withUnsafeMutableBufferPointer { out in
                    flags.withUnsafeBufferPointer { imp in
                        ScreenRemap(
                            crop: crop.baseAddress!, importance: importance == nil ? nil : imp.baseAddress,
                            screen: screen.baseAddress!, frameWidth: w, x0: 0, y0: 0, width: w, height: h,
                            palette: palette, clear: clear, transparent: transparent, dithering: dithering,
                            indices: out.baseAddress!
                        ).run()
                    }
                }
            }
        }
        return (indices, box)
    }

    @Test("Colours in the palette map exactly without dithering, and the screen takes them")
    func exactColours() {
        let palette: [UInt8] = [0, 0, 0, 255, 0, 0, 0, 255, 0, 10, 20, 30]
        let (w, h) = (5, 300)  // more than two bands
        var pixels = [UInt8](), expected = [UInt8]()
        for i in 0..<(w * h) {
            let k = (i * 7 + i / 11) % 4
            pixels += [palette[k * 3], palette[k * 3 + 1], palette[k * 3 + 2], 255]
            expected.append(UInt8(k))
        }
        var screen = [UInt8](repeating: 0, count: w * h * 4)
        let (indices, box) = remap(
            pixels, importance: nil, screen: &screen, w: w, h: h, palette: palette,
            clear: [false, false, false, false], transparent: -1, dithering: 0)
        #expect(indices == expected)
        #expect(screen == pixels)
        #expect(box == (0, 0, w, h))
    }

    @Test("Unchanged pixels, and pixels the screen shows at least as well, become transparent")
    func screenAware() {
        // Entry 0 is clear (the transparent index); 1 is pure red, 2 pure blue.
        let palette: [UInt8] = [0, 0, 0, 255, 0, 0, 0, 0, 255]
        let clear = [true, false, false]
        let (w, h) = (4, 1)
        // Screen: red, grey, grey, grey. Pixels: red (unchanged), near-grey (screen closer),
        // near-red (palette closer), blue.
        var screen: [UInt8] = [255, 0, 0, 255, 128, 128, 128, 255, 128, 128, 128, 255, 128, 128, 128, 255]
        let pixels: [UInt8] = [255, 0, 0, 255, 120, 130, 128, 255, 250, 5, 0, 255, 0, 0, 255, 255]
        let importance: [UInt8] = [0, 255, 255, 255]
        let (indices, box) = remap(
            pixels, importance: importance, screen: &screen, w: w, h: h, palette: palette,
            clear: clear, transparent: 0, dithering: 0)
        #expect(indices == [0, 0, 1, 2])
        #expect(screen == [255, 0, 0, 255, 128, 128, 128, 255, 255, 0, 0, 255, 0, 0, 255, 255])
        #expect(box == (2, 0, 2, 1))
    }

    @Test("Still pixels showing exactly the colour of the index beside them join its run, both ways")
    func runsContinueThroughStillPixels() {
        // Entry 0 is clear (the transparent index); 1 orange, 2 white.
        let palette: [UInt8] = [0, 0, 0, 255, 101, 52, 255, 255, 255]
        let (o, white, offByOne): ([UInt8], [UInt8], [UInt8]) = (
            [255, 101, 52, 255], [255, 255, 255, 255], [254, 101, 52, 255]
        )
        let (w, h) = (8, 2)
        // Row 0, a ring growing around a centre that did not change: the centre joins the ring,
        // the white around it stays transparent. Row 1: a screen colour one level off the entry
        // is not the same pixel, so it stays transparent.
        var screen = [
            white, white, o, o, o, white, white, white, o, offByOne, white, white, white, white, white, white,
        ].flatMap { $0 }
        let pixels = [white, o, o, o, o, o, white, white, o, offByOne, o, white, white, white, white, white].flatMap {
            $0
        }
        let importance: [UInt8] = [0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0]
        let before = screen
        let (indices, box) = remap(
            pixels, importance: importance, screen: &screen, w: w, h: h, palette: palette,
            clear: [true, false, false], transparent: 0, dithering: 0)
        #expect(indices == [0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0])
        #expect(box == (1, 0, 5, 2))
        // What the screen shows is what it would show with the centre left transparent.
        var shown = before
        for i in 0..<(w * h) where importance[i] != 0 { for c in 0..<4 { shown[i * 4 + c] = pixels[i * 4 + c] } }
        #expect(screen == shown)
        // Leftwards too: a still run before a coded pixel of its colour joins it.
        var screen2 = [o, o, white].flatMap { $0 }
        let (left, leftBox) = remap(
            [o, o, o].flatMap { $0 }, importance: [0, 0, 255], screen: &screen2, w: 3, h: 1,
            palette: palette, clear: [true, false, false], transparent: 0, dithering: 0)
        #expect(left == [1, 1, 1])
        #expect(leftBox == (0, 0, 3, 1))
    }

    @Test("Dithering spreads the error: a flat colour between two entries averages out")
    func ditherAverages() {
        let palette: [UInt8] = [0, 0, 0, 200, 200, 200]
        let (w, h) = (64, 64)
        let pixels = [UInt8]((0..<(w * h)).flatMap { _ in [UInt8](arrayLiteral: 50, 50, 50, 255) })
        var screen = [UInt8](repeating: 0, count: w * h * 4)
        let (none, _) = remap(
            pixels, importance: nil, screen: &screen, w: w, h: h, palette: palette,
            clear: [false, false], transparent: -1, dithering: 0)
        #expect(none.allSatisfy { $0 == 0 })
        let (full, _) = remap(
            pixels, importance: nil, screen: &screen, w: w, h: h, palette: palette,
            clear: [false, false], transparent: -1, dithering: 1)
        let mean = Double(full.reduce(0) { $0 + Int($1) }) * 200 / Double(w * h)
        #expect(abs(mean - 50) < 2, "mean \(mean)")
    }
}
