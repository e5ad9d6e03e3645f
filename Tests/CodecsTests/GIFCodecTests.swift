import Foundation
import Geometry
import Synchronization
import Raster
import Testing
import TestSupport
@testable import Codecs

@Suite("GIF: encode, decode, timing, errors")
struct GIFCodecTests {
    func encode(_ frames: [Bitmap], fps: Double, options: GIFOptions = GIFOptions(), to path: String) throws
        -> GIFSummary
    {
        let e = try GIFEncoder(path: path, width: frames[0].width, height: frames[0].height, options: options)
        for (i, f) in frames.enumerated() { try e.add(f, at: Double(i) / fps) }
        return try e.finish(at: Double(frames.count) / fps)
    }

    @Test("A file giflib cannot open is closed once: a descriptor another thread opens meanwhile stays open")
    func failedOpenClosesOnce() throws {
        let bad = temporaryFolder() + "/bad.gif"
        try Data("not a GIF at all".utf8).write(to: URL(fileURLWithPath: bad))
        // A second close of the decoder's number lands on whatever another thread has opened
        // under it since; a thread that keeps opening pipes and checking them sees it.
        let stop = Atomic(false), lost = Atomic(0), checked = Atomic(0)
        let watcher = Thread {
            while !stop.load(ordering: .relaxed) {
                var fds: [Int32] = [0, 0]
                guard pipe(&fds) == 0 else { continue }
                for _ in 0..<20 where fcntl(fds[0], F_GETFD) < 0 || fcntl(fds[1], F_GETFD) < 0 {
                    lost.add(1, ordering: .relaxed)
                    break
                }
                checked.add(1, ordering: .relaxed)
                close(fds[0])
                close(fds[1])
            }
        }
        watcher.start()
        for _ in 0..<20_000 { #expect(throws: DecodeError.self) { try GIFDecoder.read(path: bad) } }
        stop.store(true, ordering: .relaxed)
        #expect(checked.load(ordering: .relaxed) > 100)
        #expect(lost.load(ordering: .relaxed) == 0)
    }

    @Test("Encode then decode: frames within dithering tolerance, exact delays, loop forever")
    func roundTrip() throws {
        let path = temporaryFolder() + "/a.gif"
        let frames = (0..<12).map { sceneFrame(width: 96, height: 80, t: Double($0) / 11) }
        let summary = try encode(frames, fps: 25, to: path)
        let gif = try GIFDecoder.read(path: path)
        #expect(gif.width == 96 && gif.height == 80)
        #expect(gif.plays == nil)
        #expect(gif.frames.count == 12 && summary.frames == 12)
        #expect(gif.frames.map(\.delay) == Array(repeating: 4, count: 12))
        #expect(gif.centiseconds == 48)
        #expect(summary.bytes == (try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int))
        for (decoded, source) in zip(gif.frames, frames) {
            #expect(psnr(source, decoded.bitmap) > 30)
            #expect(decoded.bitmap.isOpaque)
        }
    }

    @Test("Interlaced frames are de-interlaced: the k-th row sent lands on the k-th row of the four passes")
    func interlaced() throws {
        let path = temporaryFolder() + "/rows.gif"
        var rows = Bitmap(width: 3, height: 20)
        for y in 0..<20 {
            rows.withView {
                $0.fill(
                    .rect(Rect(x: 0, y: Double(y), width: 3, height: 1)),
                    color: Color(rgb: UInt32(y * 12) << 16 | 0x40).premultiplied)
            }
        }
        _ = try encode([rows, rows], fps: 10, to: path)
        let plain = try GIFDecoder.read(path: path).frames[0].bitmap
        // Set the image descriptor's interlace flag: the same rows, sent in interlaced order.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var i = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
        while bytes[i] == 0x21 {
            i += 2
            while bytes[i] != 0 { i += Int(bytes[i]) + 1 }
            i += 1
        }
        #expect(bytes[i] == 0x2C)
        bytes[i + 9] |= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let interlaced = try GIFDecoder.read(path: path).frames[0].bitmap
        let order =
            Array(stride(from: 0, to: 20, by: 8)) + Array(stride(from: 4, to: 20, by: 8))
            + Array(stride(from: 2, to: 20, by: 4))
            + Array(stride(from: 1, to: 20, by: 2))
        for (k, y) in order.enumerated() { #expect(interlaced[1, y] == plain[1, k], "row \(y)") }
    }

    @Test("A GIF read frame by frame gives the frames read at once, and a truncated one is an error that says so")
    func streaming() throws {
        let path = temporaryFolder() + "/s.gif"
        let frames = (0..<6).map { sceneFrame(width: 40, height: 30, t: Double($0) / 5) }
        _ = try encode(frames, fps: 10, to: path)
        let whole = try GIFDecoder.read(path: path)
        let reader = try GIFReader(path: path)
        var streamed: [GIFFrame] = []
        while let f = try reader.next() { streamed.append(f) }
        #expect(streamed == whole.frames && reader.plays == whole.plays)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        #expect { _ = try GIFDecoder.read(path: path) } throws: { "\($0)".contains("truncated") }
    }

    @Test(
        "A GIF whose logical screen claims billions of pixels is refused before the canvas is allocated (found by Scripts/fuzz)"
    )
    func hugeScreen() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressionTests/Inputs/gif/huge-screen-oom").path
        #expect { _ = try GIFDecoder.read(path: path) } throws: { "\($0)".contains("over the budget of 36 megapixels") }
    }

    /// A 6000 x 6000 logical screen (36 Mpx, within the pixel budget) of many 1 x 1 frames,
    /// written by hand: each frame is shown on the whole screen, so reading is bounded by the
    /// canvas pixels of all frames together, not only by each frame's size.
    @Test("A large screen of many tiny frames stops at the decoding budget, naming the frame")
    func decodingBudget() throws {
        var bytes = Array("GIF89a".utf8) + [0x70, 0x17, 0x70, 0x17, 0x00, 0x00, 0x00]  // 6000 x 6000, no table
        for _ in 0..<20 {
            bytes += [0x21, 0xF9, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00]  // 1 cs
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x80, 255, 0, 0, 0, 0, 255]  // 1 x 1, two colours
            bytes += [0x02, 0x02, 0x44, 0x01, 0x00]  // clear, index 0, end
        }
        bytes.append(0x3B)
        let path = temporaryFolder() + "/screen.gif"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let whole = try GIFDecoder.read(path: path)
        #expect(whole.frames.count == 20)
        #expect(whole.frames[19].bitmap[0, 0] == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        let reader = try GIFReader(path: path, maximumDecodedPixels: 36_000_000 * 5)
        var read = 0
        #expect {
            while try reader.next() != nil { read += 1 }
        } throws: { "\($0)".contains("frame 5 on a 6000x6000 screen passes 180 megapixels of decoding in all") }
        #expect(read == 5)
    }

    @Test("A hold past 655.35 s (the delay field's limit) plays its whole length, not wrapped")
    func longHold() throws {
        let path = temporaryFolder() + "/hold.gif"
        var still = Bitmap(width: 8, height: 8), last = Bitmap(width: 8, height: 8)
        still.withView {
            $0.fill(.rect(Rect(x: 0, y: 0, width: 8, height: 8)), color: Color(rgb: 0x3067F4).premultiplied)
        }
        last.withView {
            $0.fill(.rect(Rect(x: 0, y: 0, width: 8, height: 8)), color: Color(rgb: 0xFF6534).premultiplied)
        }
        // 100 identical frames and one more at 0.1 fps: the first shows for 1000 s.
        _ = try encode(Array(repeating: still, count: 100) + [last], fps: 0.1, to: path)
        let gif = try GIFDecoder.read(path: path)
        #expect(gif.centiseconds == 101_000)
        #expect(gif.frames.allSatisfy { $0.delay <= 65535 })
        #expect(
            gif.frames.first { $0.startCentiseconds >= 100_000 }?.bitmap[4, 4] == Color(rgb: 0xFF6534).premultiplied)
        #expect(
            gif.frames.filter { $0.startCentiseconds < 100_000 }.allSatisfy {
                $0.bitmap[4, 4] == Color(rgb: 0x3067F4).premultiplied
            })
    }

    @Test("Static pixels never change between decoded frames (no flicker)")
    func noFlicker() throws {
        let path = temporaryFolder() + "/b.gif"
        // The card moves only in the top band; the gradient below row 45 never changes.
        let frames = (0..<8).map { i -> Bitmap in
            var b = sceneFrame(width: 80, height: 90, t: 0)
            b.withView {
                $0.fill(
                    .rect(Rect(x: Double(i) * 5, y: 2, width: 12, height: 12)),
                    color: Color(rgb: 0x00AA00).premultiplied)
            }
            return b
        }
        _ = try encode(frames, fps: 10, to: path)
        let gif = try GIFDecoder.read(path: path)
        let first = gif.frames[0].bitmap
        for frame in gif.frames.dropFirst() {
            #expect(
                frame.bitmap.cropped(to: PixelRect(x: 0, y: 45, width: 80, height: 45))
                    == first.cropped(to: PixelRect(x: 0, y: 45, width: 80, height: 45)))
        }
    }

    @Test("Plays: once writes no loop extension; three plays read back as three", arguments: [1, 3])
    func plays(count: Int) throws {
        let path = temporaryFolder() + "/c.gif"
        var options = GIFOptions()
        options.plays = count
        _ = try encode(
            [sceneFrame(width: 20, height: 20, t: 0), sceneFrame(width: 20, height: 20, t: 1)], fps: 10,
            options: options, to: path)
        #expect(try GIFDecoder.read(path: path).plays == count)
    }

    @Test("Identical frames merge; a hold costs one frame")
    func holdsMerge() throws {
        let path = temporaryFolder() + "/d.gif"
        let a = sceneFrame(width: 30, height: 30, t: 0), b = sceneFrame(width: 30, height: 30, t: 1)
        let summary = try encode([a, a, a, a, b, b], fps: 10, to: path)
        let gif = try GIFDecoder.read(path: path)
        #expect(gif.frames.map(\.delay) == [40, 20])
        #expect(summary.merged == 4)
    }

    @Test("Dithering off: a flat image of few colours round-trips exactly")
    func exactFewColours() throws {
        let path = temporaryFolder() + "/e.gif"
        var image = Bitmap(width: 16, height: 16, fill: Color(rgb: 0x3067F4).premultiplied)
        image.withView {
            $0.fill(.rect(Rect(x: 4, y: 4, width: 8, height: 8)), color: Color(rgb: 0xEFEFF4).premultiplied)
        }
        var options = GIFOptions()
        options.dithering = 0
        _ = try encode([image], fps: 1, options: options, to: path)
        #expect(try GIFDecoder.read(path: path).frames[0].bitmap == image)
    }

    @Test("A frame of the wrong size fails, and nothing is written (an existing file is untouched)")
    func wrongSize() throws {
        let folder = temporaryFolder()
        let path = folder + "/f.gif"
        try AtomicOutput.write(Array("old".utf8), to: path)
        let e = try GIFEncoder(path: path, width: 20, height: 20)
        try e.add(Bitmap(width: 20, height: 20, fill: Color.white.premultiplied), at: 0)
        #expect(throws: EncodeError.frameSize(path: path, expected: "20x20", got: "21x20")) {
            try e.add(Bitmap(width: 21, height: 20), at: 0.1)
        }
        e.abandon()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["f.gif"])
    }

    @Test("Lossy LZW: smaller, close to the source, still pixels never change")
    func lossyEncode() throws {
        let folder = temporaryFolder()
        // Noisy frames: a gradient with a moving card, plus ±3 levels of noise that changes
        // every frame, which lossless LZW cannot compress.
        var rng = SeededRandom(seed: 21)
        let frames = (0..<6).map { i -> Bitmap in
            var b = sceneFrame(width: 96, height: 80, t: Double(i) / 5)
            for y in 0..<60 {
                for x in 0..<96 {
                    let p = b[x, y]
                    let n = { (c: UInt8) in UInt8(clamping: Int(c) + Int.random(in: -3...3, using: &rng)) }
                    b[x, y] = Color(r: n(p.r), g: n(p.g), b: n(p.b)).premultiplied
                }
            }
            return b
        }
        let exact = try encode(frames, fps: 10, to: folder + "/exact.gif")
        var options = GIFOptions()
        options.lossy = 8
        let lossy = try encode(frames, fps: 10, options: options, to: folder + "/lossy.gif")
        #expect(lossy.bytes * 10 < exact.bytes * 9, "\(lossy.bytes) vs \(exact.bytes) bytes")
        let gif = try GIFDecoder.read(path: folder + "/lossy.gif")
        #expect(gif.frames.count == 6)
        for (decoded, source) in zip(gif.frames, frames) {
            #expect(psnr(source, decoded.bitmap) > 30)
        }
        // Below the noise, the card and the ball (rows 72 on) the source never changes, so
        // the GIF never does.
        let still = PixelRect(x: 0, y: 72, width: 96, height: 8)
        for (k, frame) in gif.frames.enumerated().dropFirst() {
            let same = frame.bitmap.cropped(to: still) == gif.frames[0].bitmap.cropped(to: still)
            #expect(same, "frame \(k)")
        }
    }

    /// White frames with grey text that fades out in steps each within the lossy tolerance,
    /// then stays white while a square moves below it (so later frames are written).
    static func fadingText(width: Int = 96, height: Int = 64) -> [Bitmap] {
        let greys = [120, 138, 156, 174, 192, 210, 228, 246, 255, 255, 255, 255]
        return greys.enumerated().map { k, grey in
            var b = Bitmap(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let text = y >= 8 && y < 40 && x >= 8 && x < 88 && (x / 3 + y / 4) % 3 != 0
                    let square = y >= 48 && y < 56 && x >= 4 + k * 6 && x < 12 + k * 6
                    let v = UInt8(square ? 0 : text ? grey : 255)
                    b[x, y] = Color(r: v, g: v, b: v).premultiplied
                }
            }
            return b
        }
    }

    @Test(
        "Lossy LZW leaves no ghost: text that fades to white shows white from the next frame on, not where a lossy frame left it"
    )
    func lossyLeavesNoGhost() throws {
        let folder = temporaryFolder()
        let frames = Self.fadingText()
        var options = GIFOptions()
        options.lossy = 32
        _ = try encode(frames, fps: 10, options: options, to: folder + "/fade.gif")
        let gif = try GIFDecoder.read(path: folder + "/fade.gif")
        #expect(gif.frames.count == frames.count)
        // From the frame after the source turns white, the text's pixels show white within the
        // palette's own rounding: the screen is not left where a lossy frame put it. (The frame
        // in which it turns white may keep the grey it showed, within the tolerance.)
        let text = PixelRect(x: 8, y: 8, width: 80, height: 32)
        for k in 9..<frames.count {
            var worst = 0
            let shown = gif.frames[k].bitmap.cropped(to: text)
            for y in 0..<shown.height {
                for x in 0..<shown.width { worst = max(worst, 255 - Int(shown[x, y].r)) }
            }
            #expect(worst <= 4, "frame \(k): a text pixel shows \(255 - worst), where the source is 255")
        }
    }

    @Test(
        "Out-of-range options name the setting",
        arguments: ["colors", "quality", "dither", "speed", "palette-steps", "loop", "lossy"])
    func badOptions(name: String) {
        var o = GIFOptions()
        switch name {
        case "colors": o.colors = 1
        case "quality": o.quality = 0
        case "dither": o.dithering = .nan
        case "speed": o.speed = 11
        case "palette-steps": o.refineSteps = 101
        case "lossy":
            o.lossy = 3
            o.dithering = 0.5
        default: o.plays = 0
        }
        do {
            try o.validate()
            Issue.record("\(name) accepted")
        } catch let EncodeError.invalidSetting(setting, _, _) {
            #expect(setting == name)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("A truncated GIF fails to decode with giflib's message; a missing one is named")
    func badGIF() throws {
        let folder = temporaryFolder()
        let path = folder + "/g.gif"
        _ = try encode((0..<4).map { sceneFrame(width: 40, height: 40, t: Double($0)) }, fps: 10, to: path)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        try AtomicOutput.write(Array(bytes[0..<(bytes.count / 3)]), to: folder + "/cut.gif")
        #expect(throws: DecodeError.self) { try GIFDecoder.read(path: folder + "/cut.gif") }
        #expect(throws: DecodeError.fileNotFound(path: folder + "/none.gif")) {
            try GIFDecoder.read(path: folder + "/none.gif")
        }
    }
}
