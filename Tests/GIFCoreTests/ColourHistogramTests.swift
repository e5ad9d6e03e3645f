import Testing
import TestSupport
@testable import GIFCore

@Suite("Palette refinement: a colour histogram's Lloyd step equals one over every pixel")
struct ColourHistogramTests {
    /// `count` opaque pixels drawn from `colours` distinct random colours, in runs of up to
    /// `run` pixels, and an importance map that zeroes about one pixel in `skipEvery`.
    func pixels(_ count: Int, colours: Int, run: Int, skipEvery: Int, rng: inout SeededRandom) -> ([UInt8], [UInt8]) {
        let choices = (0..<colours).map { _ in (0..<3).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        var out = [UInt8](), importance = [UInt8]()
        while out.count < count * 4 {
            let c = choices[Int.random(in: 0..<colours, using: &rng)]
            for _ in 0..<Int.random(in: 1...run, using: &rng) where out.count < count * 4 {
                out += c + [255]
                importance.append(skipEvery > 0 && Int.random(in: 0..<skipEvery, using: &rng) == 0 ? 0 : 255)
            }
        }
        return (out, importance)
    }

    /// The Lloyd step written plainly: each counted pixel to its brute-force nearest usable
    /// entry (ties to the lower index), then each entry with pixels to their rounded mean.
    func plainStep(_ pixels: [UInt8], _ importance: [UInt8]?, _ palette: [UInt8], _ usable: [Bool]) -> [UInt8] {
        var sums = [Int](repeating: 0, count: usable.count * 4)
        for i in 0..<(pixels.count / 4) where importance.map({ $0[i] != 0 }) ?? true {
            let bestAt = bruteForceNearest(
                Int32(pixels[i * 4]), Int32(pixels[i * 4 + 1]), Int32(pixels[i * 4 + 2]),
                palette: palette, usable: usable
            ).index
            for c in 0..<3 { sums[bestAt * 4 + c] += Int(pixels[i * 4 + c]) }
            sums[bestAt * 4 + 3] += 1
        }
        var out = palette
        for e in 0..<usable.count where usable[e] && sums[e * 4 + 3] > 0 {
            let n = sums[e * 4 + 3]
            for c in 0..<3 { out[e * 3 + c] = UInt8((sums[e * 4 + c] + n / 2) / n) }
        }
        return out
    }

    @Test(
        "Steps match the per-pixel form until the palette settles; distinct colours are counted once",
        arguments: [(1, 1, 1, 0, 4), (3_000, 12, 40, 3, 16), (20_000, 300, 6, 0, 64), (30_000, 15_000, 1, 5, 128)])
    func stepsMatchPerPixel(count: Int, colours: Int, run: Int, skipEvery: Int, entries: Int) {
        var rng = SeededRandom(seed: UInt64(count * 31 + colours))
        let (pixels, flags) = pixels(count, colours: colours, run: run, skipEvery: skipEvery, rng: &rng)
        let importance: [UInt8]? = skipEvery > 0 ? flags : nil
        var palette = (0..<(entries * 3)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        // One clear entry (never moved, never chosen) and one duplicate (ties to the lower index).
        var usable = [Bool](repeating: true, count: entries)
        if entries > 2 {
            usable[1] = false
            for c in 0..<3 { palette[(entries - 1) * 3 + c] = palette[c] }
        }
        let histogram = pixels.withUnsafeBufferPointer { p in
            (importance ?? []).withUnsafeBufferPointer { imp in
                ColourHistogram(
                    pixels: p.baseAddress!, count: count, importance: importance == nil ? nil : imp.baseAddress)
            }
        }
        var counted = Set<Int>()
        for i in 0..<count where importance.map({ $0[i] != 0 }) ?? true {
            counted.insert(Int(pixels[i * 4]) << 16 | Int(pixels[i * 4 + 1]) << 8 | Int(pixels[i * 4 + 2]))
        }
        #expect(histogram.distinct == counted.count)

        var expected = palette
        for step in 0..<4 {
            let next = plainStep(pixels, importance, expected, usable)
            let moved = histogram.lloydStep(&palette, usable: usable)
            #expect(palette == next, "step \(step)")
            #expect(moved == (next != expected), "step \(step)")
            if palette != next || !moved { break }
            expected = next
        }
    }
}
