import Codecs
import Foundation
import Geometry
import Raster
import TestSupport
import Testing
import Video

@Suite("MP4: H.264 through FFmpeg, written and read back")
struct MP4CodecTests {
    /// An opaque frame: a colour band per frame index over a grey field, so frames differ.
    func frame(_ i: Int, width: Int, height: Int) -> Bitmap {
        var b = Bitmap(width: width, height: height, fill: Color(r: 128, g: 128, b: 128).premultiplied)
        let band = Color(r: UInt8(40 * (i % 6)), g: 200, b: UInt8(255 - 30 * (i % 8))).premultiplied
        for y in 0..<height where y >= height / 4 && y < height * 3 / 4 {
            for x in 0..<width { b[x, y] = band }
        }
        return b
    }

    @Test(
        "Frames come back at their times, within a few levels, at an odd size (padded in the file, cropped on reading)",
        arguments: [(64, 48), (75, 41)])
    func roundTrip(width: Int, height: Int) throws {
        let path = temporaryFolder() + "/a.mp4"
        var options = MP4Options()
        options.crf = 10
        let encoder = try MP4Encoder(path: path, width: width, height: height, fps: 25, options: options)
        for i in 0..<10 { try encoder.add(frame(i, width: width, height: height), at: Double(i) / 25) }
        let summary = try encoder.finish(at: 0.4)
        #expect(summary.frames == 10 && abs(summary.seconds - 0.4) < 1e-9 && summary.bytes > 0)
        let reader = try MP4Reader(path: path)
        var k = 0
        while let (bitmap, start, end) = try reader.next() {
            #expect(bitmap.width == width && bitmap.height == height)
            #expect(
                abs(start - Double(k) * 0.04) < 0.0005 && abs(end - Double(k + 1) * 0.04) < 0.0005,
                "frame \(k): \(start)-\(end) s")
            let expected = frame(k, width: width, height: height)
            // Inside the band, away from its edges (chroma is subsampled), every channel is close.
            let a = bitmap[width / 2, height / 2], e = expected[width / 2, height / 2]
            #expect(
                abs(Int(a.r) - Int(e.r)) <= 8 && abs(Int(a.g) - Int(e.g)) <= 8 && abs(Int(a.b) - Int(e.b)) <= 8,
                "frame \(k): \(a) vs \(e)")
            k += 1
        }
        #expect(k == 10)
    }

    @Test(
        "Each picture's conversion to RGBA on several threads gives the bytes of one thread (noise, so chroma and rounding show)",
        arguments: [(75, 41), (320, 241)])
    func threadedConversion(width: Int, height: Int) throws {
        let path = temporaryFolder() + "/noise.mp4"
        var random = SeededRandom(seed: UInt64(width))
        var options = MP4Options()
        options.crf = 18
        let encoder = try MP4Encoder(path: path, width: width, height: height, fps: 25, options: options)
        for i in 0..<4 {
            var b = Bitmap(width: width, height: height, fill: Color(r: 0, g: 0, b: 0).premultiplied)
            for y in 0..<height {
                for x in 0..<width {
                    b[x, y] =
                        Color(
                            r: .random(in: 0...255, using: &random), g: .random(in: 0...255, using: &random),
                            b: .random(in: 0...255, using: &random)
                        ).premultiplied
                }
            }
            try encoder.add(b, at: Double(i) / 25)
        }
        _ = try encoder.finish(at: 0.16)
        let one = try MP4Reader(path: path, threads: 1), several = try MP4Reader(path: path, threads: 3)
        var frames = 0
        while let a = try one.next() {
            let b = try #require(try several.next())
            #expect(a.bitmap == b.bitmap && a.start == b.start, "frame \(frames)")
            frames += 1
        }
        #expect(try several.next() == nil)
        #expect(frames == 4)
    }

    @Test("Constant frame rate: a time the caller skips repeats the frame before, and the end pads with the last")
    func constantRate() throws {
        let path = temporaryFolder() + "/b.mp4"
        let encoder = try MP4Encoder(path: path, width: 32, height: 32, fps: 10)
        try encoder.add(frame(0, width: 32, height: 32), at: 0)
        try encoder.add(frame(1, width: 32, height: 32), at: 0.5)
        let summary = try encoder.finish(at: 1.0)
        #expect(summary.frames == 10)
        let reader = try MP4Reader(path: path)
        var starts: [Double] = []
        while let (_, start, _) = try reader.next() { starts.append(start) }
        #expect(starts.count == 10 && abs(starts.last! - 0.9) < 0.0005)
    }

    /// Frame times as a screen capture stamps them: only the refreshes that changed the
    /// picture, a still stretch one long frame; at 60 Hz in an H.264 .mp4 (a device's recording)
    /// and in a .mov (the Simulator's) in HEVC or H.264, at 60 or 120 Hz.
    @Test(
        "Variable frame rate: each frame comes back at its own time, H.264 in .mp4 and HEVC in .mov",
        arguments: [(VideoCodec.h264, "mp4", 60.0), (.hevc, "mov", 120.0), (.hevc, "mov", 60.0), (.h264, "mov", 120.0)])
    func variableRate(codec: VideoCodec, container: String, hertz: Double) throws {
        let path = temporaryFolder() + "/capture.\(container)"
        var options = MP4Options()
        options.codec = codec
        options.preset = "ultrafast"
        options.crf = 12
        options.variableTimescale = 600
        let encoder = try MP4Encoder(path: path, width: 64, height: 64, fps: hertz, options: options)
        // Refreshes 0-5 move, then nothing changes until 30, then 31 and 32 move.
        let refreshes = [0, 1, 2, 3, 4, 5, 30, 31, 32]
        for (k, r) in refreshes.enumerated() {
            try encoder.add(frame(k, width: 64, height: 64), at: Double(r) / hertz)
        }
        let summary = try encoder.finish(at: 40 / hertz)
        #expect(summary.frames == refreshes.count && summary.bytes > 0)
        let reader = try MP4Reader(path: path)
        var read: [(start: Double, end: Double)] = []
        while let (bitmap, start, end) = try reader.next() {
            let a = bitmap[32, 32], e = frame(read.count, width: 64, height: 64)[32, 32]
            #expect(abs(Int(a.r) - Int(e.r)) <= 8 && abs(Int(a.b) - Int(e.b)) <= 8, "frame \(read.count): \(a) vs \(e)")
            read.append((start, end))
        }
        #expect(read.map(\.start).map { ($0 * hertz).rounded() } == refreshes.map(Double.init), "\(read)")
        // The still stretch is one frame that shows until the next change.
        #expect(abs(read[5].end - 30 / hertz) < 0.001, "\(read[5])")
        // The last shows until the recording's end.
        #expect(abs(read.last!.end - 40 / hertz) < 0.001, "\(read.last!)")
        // A frame stamped no later than the one before is refused.
        let again = try MP4Encoder(path: path, width: 64, height: 64, fps: hertz, options: options)
        try again.add(frame(0, width: 64, height: 64), at: 0.1)
        #expect(throws: EncodeError.self) { try again.add(frame(1, width: 64, height: 64), at: 0.1) }
    }

    @Test("HEVC refuses a picture smaller than 64 pixels a side, which x265 cannot encode safely")
    func smallHEVC() {
        var options = MP4Options()
        options.codec = .hevc
        #expect {
            _ = try MP4Encoder(path: temporaryFolder() + "/small.mov", width: 48, height: 32, fps: 60, options: options)
        } throws: { "\($0)".contains("HEVC size") && "\($0)".contains("48x32") }
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        .path

    /// Two MPEG-TS streams joined, 64x64 then 16x16 (and the other way): the frame size changes
    /// mid-stream. Each frame is checked against the stream's size, so the change is an error
    /// naming the frame, never an index past the picture (it was a SIGILL).
    @Test(arguments: [("shrinks-mid-stream.ts", "64x64", "16x16"), ("grows-mid-stream.ts", "16x16", "64x64")])
    func frameSizeChanges(file: String, first: String, then: String) throws {
        let reader = try MP4Reader(path: "\(Self.fixtures)/\(file)")
        var frames = 0
        #expect {
            while try reader.next() != nil { frames += 1 }
        } throws: { error in
            "\(error)".contains(
                "is \(then) where the video's frames are \(first): a video whose frame size changes is not read")
        }
        #expect(frames >= 1 && frames < 10)
    }

    /// The pixel budget holds for every frame, not the first only: a small stream followed by a
    /// large one stops at the large one, inside the decoder, before its picture is allocated.
    @Test func everyFrameHasTheBudget() throws {
        let reader = try MP4Reader(path: "\(Self.fixtures)/grows-mid-stream.ts", maximumPixels: 1000)
        #expect(reader.width == 16)
        #expect(throws: DecodeError.self) {
            while try reader.next() != nil {}
        }
    }

    @Test("Bad input is an error naming the file: a wrong frame size, no frames, not a video, a missing file")
    func errors() throws {
        let folder = temporaryFolder()
        let encoder = try MP4Encoder(path: folder + "/c.mp4", width: 16, height: 16, fps: 30)
        #expect(throws: EncodeError.frameSize(path: folder + "/c.mp4", expected: "16x16", got: "8x8")) {
            try encoder.add(frame(0, width: 8, height: 8), at: 0)
        }
        #expect(throws: EncodeError.usage(folder + "/c.mp4: no frames to write")) { _ = try encoder.finish(at: 1) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/c.mp4"))
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: folder + "/d.mp4"))
        #expect { _ = try MP4Reader(path: folder + "/d.mp4") } throws: { "\($0)".hasPrefix(folder + "/d.mp4: FFmpeg:") }
        #expect { _ = try MP4Reader(path: folder + "/none.mp4") } throws: { "\($0)".contains("no such file") }
        #expect(throws: EncodeError.invalidSetting(name: "MP4 frame rate", value: "500.0", expected: "1...120")) {
            _ = try MP4Encoder(path: folder + "/e.mp4", width: 16, height: 16, fps: 500)
        }
    }

    @Test("A video whose frames pass the pixel budget is refused by the budget's name, before its decoder opens")
    func pixelBudget() throws {
        let path = temporaryFolder() + "/wide.mp4"
        let encoder = try MP4Encoder(path: path, width: 64, height: 48, fps: 10)
        try encoder.add(frame(0, width: 64, height: 48), at: 0)
        _ = try encoder.finish(at: 0.1)
        #expect {
            _ = try MP4Reader(path: path, maximumPixels: 1000)
        } throws: { "\($0)".contains("frames of 64x48 (0.0 Mpx), past the 0.001 Mpx a frame may have") }
        #expect(try MP4Reader(path: path).next() != nil)
    }

    @Test(
        "A display matrix turns the picture as players turn it: a quarter turn reads 64x32 as 32x64, its left side on top"
    )
    func displayMatrix() throws {
        let path = temporaryFolder() + "/turn.mp4"
        var picture = Bitmap(width: 64, height: 32, fill: Color(r: 220, g: 20, b: 20).premultiplied)
        for y in 0..<32 { for x in 32..<64 { picture[x, y] = Color(r: 20, g: 20, b: 220).premultiplied } }
        let encoder = try MP4Encoder(path: path, width: 64, height: 32, fps: 10)
        try encoder.add(picture, at: 0)
        _ = try encoder.finish(at: 0.1)
        // The track header's matrix, identity as written, becomes a clockwise quarter turn.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tkhd = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("tkhd".utf8) })
        let identity: [UInt8] = [0, 1, 0, 0] + [UInt8](repeating: 0, count: 12) + [0, 1, 0, 0]
        try #require(Array(bytes[(tkhd + 44)..<(tkhd + 64)]) == identity)
        let quarter: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0]
        bytes.replaceSubrange((tkhd + 44)..<(tkhd + 64), with: quarter)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try MP4Reader(path: path)
        #expect(reader.width == 32 && reader.height == 64)
        let (turned, _, _) = try #require(try reader.next())
        #expect(turned.width == 32 && turned.height == 64)
        #expect(turned[16, 8].r > 180 && turned[16, 8].b < 60, "the left half, red, is on top")
        #expect(turned[16, 56].b > 180 && turned[16, 56].r < 60, "the right half, blue, is below")
    }

    /// The first of the two MPEG-TS streams of a fixture (up to the second's service table),
    /// whose timestamps start where FFmpeg's muxer starts them, 1.4 s in.
    func firstStream() throws -> [UInt8] {
        let joined = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/shrinks-mid-stream.ts")))
        let sdt = stride(from: 0, to: joined.count, by: 188).filter { (at: Int) -> Bool in
            let pid: Int = Int(joined[at + 1] & 0x1F) << 8 | Int(joined[at + 2])
            return pid == 0x11
        }
        try #require(sdt.count == 2)
        return Array(joined[..<sdt[1]])
    }

    @Test(
        "A stream plays from 0 at its first frame, whatever its first timestamp, and on through a clock that restarts")
    func startAndRestart() throws {
        let folder = temporaryFolder()
        let once = try firstStream()
        try Data(once).write(to: URL(fileURLWithPath: folder + "/once.ts"))
        try Data(once + once).write(to: URL(fileURLWithPath: folder + "/twice.ts"))
        func starts(_ path: String) throws -> [Double] {
            let reader = try MP4Reader(path: path)
            var starts: [Double] = []
            while let (_, start, _) = try reader.next() { starts.append(start) }
            return starts
        }
        let first = try starts(folder + "/once.ts")
        #expect(first.count == 5 && first[0] == 0 && abs(first[4] - 0.4) < 1e-6, "\(first)")
        let both = try starts(folder + "/twice.ts")
        #expect(both.count == 10 && zip(both, both.dropFirst()).allSatisfy { abs($1 - $0 - 0.1) < 1e-6 }, "\(both)")
    }

    @Test(
        "Quality maps to x264's CRF: 55 is its default 23, 100 lossless, 1 nearly 51",
        arguments: [(55, 23), (100, 0), (1, 50), (70, 15)])
    func crf(quality: Int, crf: Int) {
        #expect(MP4Options.crf(quality: quality) == crf)
    }

    @Test("Two encoders of one output each write their own scratch file; the output is whole")
    func twoWritersOneOutput() throws {
        let path = temporaryFolder() + "/same.mp4"
        let a = try MP4Encoder(path: path, width: 32, height: 32, fps: 10)
        let b = try MP4Encoder(path: path, width: 32, height: 32, fps: 10)
        for i in 0..<6 {
            try a.add(frame(i, width: 32, height: 32), at: Double(i) / 10)
            try b.add(frame(i + 1, width: 32, height: 32), at: Double(i) / 10)
        }
        #expect(try a.finish(at: 0.6).frames == 6)
        #expect(try b.finish(at: 0.6).frames == 6)
        let reader = try MP4Reader(path: path)
        var frames = 0
        while try reader.next() != nil { frames += 1 }
        #expect(frames == 6)
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["same.mp4"])
        let one = try AtomicOutput.siblingPath(of: folder + "/out.mp4", tag: "partial")
        let two = try AtomicOutput.siblingPath(of: folder + "/out.mp4", tag: "partial")
        #expect(one != two && one.hasPrefix(folder + "/.out.partial.flipbook-\(getpid())-") && one.hasSuffix(".mp4"))
        for scratch in [one, two] { unlink(scratch) }
    }
}
