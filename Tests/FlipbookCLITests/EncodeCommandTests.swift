import Codecs
import Build
import Foundation
import Geometry
import Raster
import Testing

@Suite("flipbook encode, run as a user runs it")
struct EncodeCommandTests {
    /// Writes `count` frames of a moving card as frame1.png … frameN.png (natural order matters).
    func writeFrames(_ count: Int, to folder: String, width: Int = 60, height: Int = 40) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for i in 0..<count {
            var b = Bitmap(width: width, height: height, fill: Color(rgb: 0xEFEFF4).premultiplied)
            b.withView {
                $0.fill(
                    .roundedRect(Rect(x: Double(i) * 3, y: 8, width: 20, height: 20), radius: 5),
                    color: Color(rgb: 0x3067F4).premultiplied)
            }
            try PNGCodec.write(b, to: "\(folder)/frame\(i + 1).png")
        }
    }

    @Test("--version prints the version and, built in a checkout, the rendering code it was built from")
    func version() throws {
        let run = try Tool.run(["--version"])
        #expect(run.status == 0)
        #expect(
            run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "0.2.0 (built from source; rendering code \(ToolIdentity.current(version: "").sources.prefix(12)))")
    }

    @Test("A numbered sequence becomes a GIF of the right length, in natural order")
    func encodes() throws {
        let folder = temporaryFolder()
        try writeFrames(12, to: folder + "/frames")
        let out = folder + "/out.gif"
        let run = try Tool.run(["encode", folder + "/frames", "-o", out, "--fps", "25"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("wrote \(out)"))
        #expect(run.stdout.contains("12 frames from 12"))
        let gif = try GIFDecoder.read(path: out)
        #expect(gif.frames.count == 12)
        #expect(gif.centiseconds == 48)
        // Natural order: frame10 after frame9, so the card moves steadily right.
        let xs = gif.frames.map { frame in
            (0..<60).first { frame.bitmap[$0, 18].b > 200 && frame.bitmap[$0, 18].r < 100 } ?? -1
        }
        #expect(xs == xs.sorted() && Set(xs).count == 12)
    }

    @Test("Above 50 fps it warns, drops to 2 cs delays, and keeps the total exact")
    func highFrameRate() throws {
        let folder = temporaryFolder()
        try writeFrames(30, to: folder + "/frames")
        let out = folder + "/fast.gif"
        let run = try Tool.run(["encode", folder + "/frames", "-o", out, "--fps", "60"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("warning: 60 fps"))
        let gif = try GIFDecoder.read(path: out)
        #expect(gif.centiseconds == 50)
        #expect(gif.frames.allSatisfy { $0.delay >= 2 })
    }

    @Test("A missing folder is an error that names it")
    func missingFolder() throws {
        let run = try Tool.run(["encode", "/nonexistent/frames", "-o", "/tmp/x.gif"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("/nonexistent/frames: no such folder"))
    }

    @Test("A corrupt frame is an error naming the file, and no GIF is left behind")
    func corruptFrame() throws {
        let folder = temporaryFolder()
        try writeFrames(4, to: folder + "/frames")
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: folder + "/frames/frame3.png"))
        let out = folder + "/out.gif"
        let run = try Tool.run(["encode", folder + "/frames", "-o", out])
        #expect(run.status != 0)
        #expect(run.stderr.contains("frame3.png: not a PNG file"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }.isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").filter { $0.hasPrefix(".") }.isEmpty
        )
    }

    @Test("Frames of different sizes are refused with both sizes named")
    func sizeMismatch() throws {
        let folder = temporaryFolder()
        try writeFrames(2, to: folder + "/frames")
        try PNGCodec.write(Bitmap(width: 10, height: 10), to: folder + "/frames/frame3.png")
        let run = try Tool.run(["encode", folder + "/frames", "-o", folder + "/o.gif"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("frame3.png: frame is 10x10, but the first frame is 60x40"))
    }

    @Test("The GIF is never written inside the folder of frames it reads: a stray frame of the next run")
    func outputInsideFrames() throws {
        let folder = temporaryFolder()
        try writeFrames(3, to: folder)
        let run = try Tool.run(["encode", folder, "-o", folder + "/out.gif"])
        #expect(run.status == 64 && run.stderr.contains("is inside an input folder (the frames)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.gif"))
    }
}
