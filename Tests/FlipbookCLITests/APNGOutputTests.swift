import Codecs
import Flipbook
import Foundation
import Testing

/// Animated PNG output: `-o out.apng` writes the render losslessly, frame for frame, as a file
/// whose chunks any APNG reader walks; a `.png` stays a still.
@Suite("APNG output: lossless frames, GIF timing, a size budget")
struct APNGOutputTests {
    /// The chunks of the file at `path`, after checking its signature.
    func chunks(_ path: String) throws -> [(type: String, data: ArraySlice<UInt8>)] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(8)) == PNGChunks.signature)
        return PNGChunks.chunks(of: bytes)
    }

    func number(_ data: ArraySlice<UInt8>, at offset: Int, bytes: Int = 4) -> Int {
        data.dropFirst(offset).prefix(bytes).reduce(0) { $0 << 8 | Int($1) }
    }

    @Test("render -o x.apng: every moment equals render -o frames/, exactly, and the chunks are in APNG's order")
    func framesExact() throws {
        let dir = temporaryFolder()
        let apng = dir + "/view.apng"
        let made = try Tool.run(["render", "expanding-view", "-o", apng, "--loop", "3"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(
            made.stdout.contains("24 frames from 90 (66 identical merged), 3.00 s, lossless at 30 fps"),
            "\(made.stdout)")
        #expect(try Tool.run(["render", "expanding-view", "-o", dir + "/frames/", "--quiet"]).status == 0)
        let compared = try Tool.run(["compare", apng, dir + "/frames/"])
        #expect(compared.status == 0 && compared.stdout.contains("90 moments compared, 0 differ"), "\(compared.stdout)")

        let list = try chunks(apng)
        #expect(list.map(\.type).prefix(3) == ["IHDR", "acTL", "fcTL"] && list.last?.type == "IEND")
        let controls = list.filter { $0.type == "fcTL" }
        let control = try #require(list.first { $0.type == "acTL" })
        #expect(number(control.data, at: 0) == controls.count && controls.count == 24)
        #expect(number(control.data, at: 4) == 3)  // plays
        // One sequence across fcTL and fdAT, from 0; delays in centiseconds, summing to 3 s.
        let sequence = list.filter { $0.type == "fcTL" || $0.type == "fdAT" }.map { number($0.data, at: 0) }
        #expect(sequence == Array(0..<sequence.count))
        #expect(controls.map { number($0.data, at: 20, bytes: 2) }.reduce(0, +) == 300)
        #expect(controls.allSatisfy { number($0.data, at: 22, bytes: 2) == 100 })
        // Frames after the first are the rectangle that changed: the first hold's end is a
        // small circle starting to grow.
        let second = controls[1].data
        #expect(number(second, at: 4) < 100 && number(second, at: 8) < 100, "\(Array(second))")
    }

    @Test("--max-size fits an APNG: the lossless ladder goes to fewer frames, then fewer pixels")
    func budget() throws {
        let out = temporaryFolder() + "/view.apng"
        let run = try Tool.run(["render", "expanding-view", "-o", out, "--max-size", "150kB"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("within 150,000 B (150.0 kB), with lossless --fps 15 --width 320"), "\(run.stdout)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int)
        #expect(size <= 150_000 && size > 100_000)
    }

    @Test("An APNG takes --loop alone: a quality or a GIF setting is refused, naming it")
    func options() throws {
        for (flag, value) in [("quality", "80"), ("dither", "0"), ("colors", "64")] {
            var request = ExportRequest(scene: "expanding-view")
            request.output = "x.apng"
            switch flag {
            case "quality": request.encoding.quality = Int(value)
            case "dither": request.encoding.dither = Double(value)
            default: request.encoding.colors = Int(value)!
            }
            #expect(throws: ExportError.self) { try request.check() }
            do { try request.check() } catch let error as ExportError {
                #expect(error.option?.name == flag && error.message.description.contains("an APNG is lossless"))
            }
        }
        var still = ExportRequest(scene: "expanding-view")
        still.output = "x.png"
        #expect(still.format == .still)
        still.output = "X.APNG"
        #expect(still.format == .animation(.apng))
    }
}
