import CGIF
import Foundation
import Raster
import Testing
import TestSupport
@testable import Codecs
@testable import GIFCore

@Suite("LZW: giflib's bytes, exact with a deferred clear, bounded when lossy")
struct LZWCoderTests {
    /// Kinds of index images: noise fills the table and forces clear codes, flat runs make
    /// long strings, and stripes are in between.
    enum Pattern: String, CaseIterable, CustomTestStringConvertible {
        case noise, flat, stripes
        var testDescription: String { rawValue }
    }

    func indices(_ pattern: Pattern, w: Int, h: Int, colours: Int, seed: UInt64) -> [UInt8] {
        var rng = SeededRandom(seed: seed)
        return (0..<(w * h)).map { i in
            switch pattern {
            case .noise: return UInt8(Int.random(in: 0..<colours, using: &rng))
            case .flat: return UInt8((i / (w * 9)) % colours)
            case .stripes:
                return UInt8(((i % w) / 3 + (i / w) / 5 + (Int.random(in: 0..<20, using: &rng) == 0 ? 1 : 0)) % colours)
            }
        }
    }

    /// A palette of distinct greys-and-hues, so decoded colours identify indices.
    func palette(_ colours: Int) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<colours { out += [UInt8(i), UInt8(255 - i), UInt8((i * 7) & 0xFF)] }
        return out
    }

    /// Writes one frame through `GIFStream`, with giflib's coder or with `blocks`.
    func writeGIF(_ path: String, w: Int, h: Int, indices: [UInt8], palette: [UInt8], blocks: [UInt8]?) throws {
        let output = try AtomicOutput(path: path)
        let stream = try GIFStream(output: output, width: w, height: h, plays: 1)
        if let blocks {
            try stream.putFrame(x: 0, y: 0, w: w, h: h, blocks: blocks, palette: palette, transparent: -1, delay: 5)
        } else {
            var copy = indices
            try copy.withUnsafeMutableBufferPointer { p in
                try stream.putFrameWithGiflibCoder(w: w, h: h, indices: p.baseAddress!, palette: palette, delay: 5)
            }
        }
        try stream.close()
        try output.commit()
    }

    func encode(
        _ indices: inout [UInt8], w: Int, h: Int, colours: Int, lossy: LossyMatch? = nil,
        deferredClear: Bool = false
    ) -> [UInt8] {
        indices.withUnsafeMutableBufferPointer { p in
            LZWCoder.encode(
                indices: p.baseAddress!, rowStride: w, width: w, height: h,
                minCodeSize: GIFStream.minCodeSize(entries: colours), lossy: lossy,
                deferredClear: deferredClear)
        }
    }

    @Test("A frame's palette keeps only the entries its box uses, and the transparent one when used")
    func compaction() {
        var palette: [UInt8] = []
        for i in 0..<128 { palette += [UInt8(i), UInt8(i), UInt8(i)] }
        // A 4x3 box at (1, 1) of a 6-wide buffer; entries outside the box do not count.
        var indices = [UInt8](repeating: 90, count: 6 * 5)
        let box: [UInt8] = [7, 7, 50, 99, 50, 7, 7, 7, 99, 99, 50, 7]
        for y in 0..<3 { for x in 0..<4 { indices[(y + 1) * 6 + x + 1] = box[y * 4 + x] } }
        var frame = FrameWriter.Frame(
            canvasX: 0, canvasY: 0, w: 4, h: 3, indices: indices, rowStride: 6, column: 1, row: 1,
            palette: palette, transparent: 99, delay: 3)
        let compact = compactPalette(&frame)
        #expect(compact.palette == [7, 7, 7, 50, 50, 50, 99, 99, 99])
        #expect(compact.transparent == 2)
        let renumbered = (0..<3).flatMap { (y: Int) -> [UInt8] in
            (0..<4).map { (x: Int) -> UInt8 in frame.indices[(y + 1) * 6 + x + 1] }
        }
        #expect(renumbered == [0, 0, 1, 2, 1, 0, 0, 0, 2, 2, 1, 0])
        // No pixel is transparent: the frame has no transparent index at all.
        var opaque = FrameWriter.Frame(
            canvasX: 0, canvasY: 0, w: 2, h: 1, indices: [3, 4], rowStride: 2, column: 0, row: 0,
            palette: palette, transparent: 99, delay: 3)
        #expect(compactPalette(&opaque).transparent == -1)
    }

    @Test("The very bytes giflib writes", arguments: Pattern.allCases, [2, 5, 16, 256])
    func matchesGiflib(pattern: Pattern, colours: Int) throws {
        let (w, h) = (173, 131)
        var idx = indices(pattern, w: w, h: h, colours: colours, seed: UInt64(colours))
        let folder = temporaryFolder("lzw-\(pattern)-\(colours)")
        let blocks = encode(&idx, w: w, h: h, colours: colours)
        try writeGIF(folder + "/giflib.gif", w: w, h: h, indices: idx, palette: palette(colours), blocks: nil)
        try writeGIF(folder + "/ours.gif", w: w, h: h, indices: idx, palette: palette(colours), blocks: blocks)
        let theirs = try Data(contentsOf: URL(fileURLWithPath: folder + "/giflib.gif"))
        let ours = try Data(contentsOf: URL(fileURLWithPath: folder + "/ours.gif"))
        #expect(theirs.count > 200)
        #expect(ours == theirs, "\(ours.count) vs \(theirs.count) bytes")
    }

    @Test(
        "A full table kept instead of cleared decodes to the same indices, in other bytes; coding is deterministic",
        arguments: [false, true])
    func decodesExactly(deferredClear: Bool) throws {
        // Noise fills the table within a few rows, so the deferred clear is exercised.
        let (w, h) = (97, 400)
        let colours = 256
        let source =
            indices(.stripes, w: w, h: h / 2, colours: colours, seed: 9)
            + indices(.noise, w: w, h: h / 2, colours: 40, seed: 2)
        var idx = source
        let blocks = encode(&idx, w: w, h: h, colours: colours, deferredClear: deferredClear)
        var again = source
        #expect(encode(&again, w: w, h: h, colours: colours, deferredClear: deferredClear) == blocks)
        #expect(idx == source)
        if deferredClear {
            // 38,800 pixels fill the table: keeping it gives other bytes.
            var cleared = source
            let eager = encode(&cleared, w: w, h: h, colours: colours)
            #expect(eager != blocks)
        }
        let path = temporaryFolder("lzw-clear-\(deferredClear)") + "/b.gif"
        #expect(
            try decodedMismatches(path, w: w, h: h, indices: source, palette: palette(colours), blocks: blocks) == 0)
    }

    @Test(
        "Both clears coded in one pass give each one's bytes, from a box inside wider rows",
        arguments: Pattern.allCases, [2, 16, 256])
    func bothClearsAtOnce(pattern: Pattern, colours: Int) {
        // 60,000 pixels: noise fills the table many times, so the two codings part early.
        let (w, h, stride) = (240, 250, 257)
        let box = indices(pattern, w: w, h: h, colours: colours, seed: UInt64(colours) + 77)
        var rows = [UInt8](repeating: UInt8(colours - 1), count: stride * (h + 2))
        for y in 0..<h { for x in 0..<w { rows[(y + 2) * stride + x + 5] = box[y * w + x] } }
        var alone = box
        let eager = encode(&alone, w: w, h: h, colours: colours)
        let deferred = encode(&alone, w: w, h: h, colours: colours, deferredClear: true)
        let both = rows.withUnsafeBufferPointer { p in
            LZWCoder.encodeBothClears(
                indices: p.baseAddress! + 2 * stride + 5, rowStride: stride, width: w, height: h,
                minCodeSize: GIFStream.minCodeSize(entries: colours))
        }
        #expect(both.eager == eager)
        #expect(both.deferred == deferred)
        if pattern == .noise && colours == 256 { #expect(eager != deferred) }
    }

    /// Writes `blocks` as a GIF, decodes it with giflib and counts the pixels whose colour is
    /// not their index's palette entry.
    func decodedMismatches(_ path: String, w: Int, h: Int, indices: [UInt8], palette: [UInt8], blocks: [UInt8]) throws
        -> Int
    {
        try writeGIF(path, w: w, h: h, indices: indices, palette: palette, blocks: blocks)
        let frame = try GIFDecoder.read(path: path).frames[0].bitmap
        var wrong = 0
        for y in 0..<h {
            for x in 0..<w {
                let i = Int(indices[y * w + x]), c = frame[x, y]
                if (c.r, c.g, c.b) != (palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2]) { wrong += 1 }
            }
        }
        return wrong
    }

    @Test("Lossy: every pixel within the tolerance or its remapped error, still pixels untouched, smaller data")
    func lossyIsBounded() throws {
        let (w, h) = (120, 90)
        var rng = SeededRandom(seed: 4)
        // A 64-entry palette of a gradient, a source that is the gradient plus noise, and a
        // screen showing something else, with a still region that must stay as it is.
        let colours = 64
        var pal: [UInt8] = []
        for i in 0..<colours { pal += [UInt8(i * 4), UInt8(100 + i), UInt8(200 - i * 2)] }
        var crop = [UInt8](repeating: 255, count: w * h * 4)
        var screen = [UInt8](repeating: 255, count: w * h * 4)
        var importance = [UInt8](repeating: 255, count: w * h)
        var exact = [UInt8](repeating: 0, count: w * h)
        let transparent = 63
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let k = min(62, (x + y) * 62 / (w + h))
                for c in 0..<3 {
                    crop[i * 4 + c] = UInt8(clamping: Int(pal[k * 3 + c]) + Int.random(in: -3...3, using: &rng))
                }
                for c in 0..<3 {
                    screen[i * 4 + c] = UInt8(clamping: Int(crop[i * 4 + c]) + Int.random(in: -4...4, using: &rng))
                }
                exact[i] = UInt8(k)
                if x < 20 {
                    importance[i] = 0
                    exact[i] = UInt8(transparent)
                }
            }
        }
        let before = screen
        var lossless = exact
        let losslessBytes = encode(&lossless, w: w, h: h, colours: colours).count
        var palette32 = pal.map(Int32.init)
        var kinds = [UInt8](repeating: 1, count: 256)
        kinds[transparent] = 2
        let tolerance: Int32 = 6
        var lossy = exact
        let blocks = crop.withUnsafeBufferPointer { crop in
            importance.withUnsafeBufferPointer { importance in
                screen.withUnsafeMutableBufferPointer { screen in
                    palette32.withUnsafeMutableBufferPointer { palette in
                        kinds.withUnsafeBufferPointer { kinds in
                            encode(
                                &lossy, w: w, h: h, colours: colours,
                                lossy: LossyMatch(
                                    crop: crop.baseAddress!, cropStride: w, importance: importance.baseAddress!,
                                    screen: screen.baseAddress!, frameWidth: w, palette: palette.baseAddress!,
                                    kinds: kinds.baseAddress!, tolerance: tolerance * tolerance))
                        }
                    }
                }
            }
        }
        let lossyBytes = blocks.count
        #expect(lossyBytes * 100 < losslessBytes * 95, "\(lossyBytes) vs \(losslessBytes) bytes")
        func distance(_ i: Int, _ c: (Int, Int, Int)) -> Int {
            let s = (Int(crop[i * 4]), Int(crop[i * 4 + 1]), Int(crop[i * 4 + 2]))
            return (s.0 - c.0) * (s.0 - c.0) + (s.1 - c.1) * (s.1 - c.1) + (s.2 - c.2) * (s.2 - c.2)
        }
        var changed = 0
        for i in 0..<(w * h) {
            let shown = (Int(screen[i * 4]), Int(screen[i * 4 + 1]), Int(screen[i * 4 + 2]))
            let old = (Int(before[i * 4]), Int(before[i * 4 + 1]), Int(before[i * 4 + 2]))
            let j = Int(lossy[i])
            // The screen shows what the data says: the entry's colour, or what was there.
            let expected = j == transparent ? old : (Int(pal[j * 3]), Int(pal[j * 3 + 1]), Int(pal[j * 3 + 2]))
            #expect(shown == expected, "pixel \(i)")
            if importance[i] == 0 {
                #expect(j == transparent, "still pixel \(i)")
                continue
            }
            let e = Int(exact[i])
            let exactDistance = distance(i, (Int(pal[e * 3]), Int(pal[e * 3 + 1]), Int(pal[e * 3 + 2])))
            let limit = max(Int(tolerance * tolerance), exactDistance)
            #expect(distance(i, shown) <= limit, "pixel \(i)")
            if j != e { changed += 1 }
        }
        #expect(changed > 0)
        // And the data decodes to exactly the indices the coder settled on.
        let path = temporaryFolder("lzw-lossy") + "/l.gif"
        #expect(try decodedMismatches(path, w: w, h: h, indices: lossy, palette: pal, blocks: blocks) == 0)
    }
}

extension GIFStream {
    /// One image coded by giflib's own LZW coder (`EGifPutLine`), at the canvas's origin with no
    /// transparent index: the reference `LZWCoder` is held to, byte for byte.
    func putFrameWithGiflibCoder(w: Int, h: Int, indices: UnsafeMutablePointer<UInt8>, palette: [UInt8], delay: Int)
        throws
    {
        try putHeader(x: 0, y: 0, w: w, h: h, palette: palette, transparent: -1, delay: delay)
        for row in 0..<h {
            try check(EGifPutLine(gif, indices + row * w, Int32(w)))
        }
    }
}
