import Glibc
import Foundation
import Geometry
import Raster
import Testing
import TestSupport
@testable import Codecs

@Suite("PNG: libpng's simplified API, round trips and errors")
struct PNGCodecTests {
    @Test(
        "Lossless formats round-trip exactly",
        arguments: [PNGFormat.automatic, .rgba, .rgb, .gray, .grayAlpha, .palette])
    func exactRoundTrip(format: PNGFormat) throws {
        let opaque = [.rgb, .gray].contains(format)
        let grey = [.gray, .grayAlpha].contains(format)
        var image = randomBitmap(width: 37, height: 23, seed: 11, opaque: opaque, grey: grey)
        if format == .palette {
            // At most 256 distinct colours: a 16x16 grid of them.
            image = Bitmap(width: 16, height: 16)
            for y in 0..<16 {
                for x in 0..<16 {
                    image[x, y] = Color(r: UInt8(x * 16), g: UInt8(y * 16), b: 7, a: UInt8(255 - x * 8)).premultiplied
                }
            }
        }
        let bytes = try PNGCodec.encode(image, format: format)
        let back = try PNGCodec.decode(bytes, source: "memory")
        #expect(back == image)
    }

    @Test("Reads PNGs written by another encoder: 16-bit, grey, low-depth palette with tRNS")
    func foreignPNGs() throws {
        // 16-bit RGBA, sRGB: each 16-bit sample v reads as round(v·255/65535).
        let rgba16 = TinyPNG.encode(
            width: 2, height: 1, bitDepth: 16, colourType: 6,
            rows: [
                [
                    0xFF, 0xFF, 0x80, 0x80, 0x00, 0x00, 0xFF, 0xFF,  // (255, 128, 0) opaque
                    0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x80, 0x00,  // (0, 0, 255) at alpha 128
                ]
            ])
        let a = try PNGCodec.decode(rgba16, source: "rgba16.png")
        #expect(a[0, 0] == PremultipliedColor(r: 255, g: 128, b: 0, a: 255))
        #expect(a[1, 0] == Color(r: 0, g: 0, b: 255, a: 128).premultiplied)
        // 16-bit grey.
        let grey16 = TinyPNG.encode(width: 1, height: 1, bitDepth: 16, colourType: 0, rows: [[0x40, 0x40]])
        #expect(try PNGCodec.decode(grey16, source: "g16.png")[0, 0] == PremultipliedColor(r: 64, g: 64, b: 64, a: 255))
        // 1-bit grey: 0b1010_0000 is white, black, white, black.
        let grey1 = TinyPNG.encode(width: 4, height: 1, bitDepth: 1, colourType: 0, rows: [[0b1010_0000]])
        let g = try PNGCodec.decode(grey1, source: "g1.png")
        #expect((0..<4).map { g[$0, 0].r } == [255, 0, 255, 0])
        // 4-bit palette with a tRNS chunk: index 1 is half-transparent red.
        let palette4 = TinyPNG.encode(
            width: 2, height: 1, bitDepth: 4, colourType: 3, rows: [[0x01]],
            palette: [0, 0, 255, 255, 0, 0], transparency: [255, 128])
        let p = try PNGCodec.decode(palette4, source: "p4.png")
        #expect(p[0, 0] == PremultipliedColor(r: 0, g: 0, b: 255, a: 255))
        #expect(p[1, 0] == Color(r: 255, g: 0, b: 0, a: 128).premultiplied)
    }

    @Test(
        "Colour type and bit depth in the written header",
        arguments: [
            (PNGFormat.rgba, UInt8(6), UInt8(8)), (.rgb, 2, 8), (.gray, 0, 8), (.grayAlpha, 4, 8), (.palette, 3, 1),
        ])
    func header(format: PNGFormat, colourType: UInt8, depth: UInt8) throws {
        let bytes = try PNGCodec.encode(
            Bitmap(width: 3, height: 2, fill: Color(rgb: 0x808080).premultiplied), format: format)
        #expect(bytes[24] == depth)
        #expect(bytes[25] == colourType)
    }

    @Test("Files: write atomically, read back")
    func fileRoundTrip() throws {
        let folder = temporaryFolder()
        let path = folder + "/a.png"
        let image = randomBitmap(width: 20, height: 10, seed: 3, opaque: false)
        try PNGCodec.write(image, to: path)
        #expect(try PNGCodec.read(path: path) == image)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.png"])
    }

    @Test("A missing file is named")
    func missing() {
        #expect(throws: DecodeError.fileNotFound(path: "/nonexistent/x.png")) {
            try PNGCodec.read(path: "/nonexistent/x.png")
        }
    }

    @Test("A non-PNG is refused before libpng sees it")
    func notPNG() throws {
        let path = temporaryFolder() + "/text.png"
        try "hello, not a png".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: DecodeError.notPNG(path: path)) { try PNGCodec.read(path: path) }
    }

    @Test("A truncated PNG fails with libpng's message and the path")
    func truncated() throws {
        let bytes = try PNGCodec.encode(randomBitmap(width: 40, height: 40, seed: 1, opaque: true))
        let path = temporaryFolder() + "/cut.png"
        try AtomicOutput.write(Array(bytes[0..<(bytes.count / 2)]), to: path)
        do {
            _ = try PNGCodec.read(path: path)
            Issue.record("a truncated PNG decoded")
        } catch let DecodeError.library(library, p, message) {
            #expect(library == .libpng)
            #expect(p == path)
            #expect(!message.isEmpty && message != "unknown error")
        }
    }

    @Test("A corrupt PNG (a flipped byte in the image data) fails with libpng's message")
    func corrupt() throws {
        var bytes = try PNGCodec.encode(randomBitmap(width: 40, height: 40, seed: 2, opaque: true))
        bytes[bytes.count / 2] ^= 0xFF
        do {
            _ = try PNGCodec.decode(bytes, source: "corrupt.png")
            Issue.record("a corrupt PNG decoded")
        } catch let DecodeError.library(library, p, message) {
            #expect(library == .libpng)
            #expect(p == "corrupt.png")
            #expect(message.count > 3)
        }
    }

    @Test("An unwritable output is an error and leaves no file")
    func unwritable() throws {
        let folder = temporaryFolder()
        let path = folder + "/missing-folder/out.png"
        #expect(throws: EncodeError.self) { try PNGCodec.write(Bitmap(width: 2, height: 2), to: path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test("Palette format refuses more than 256 colours, naming the limit")
    func paletteTooManyColours() {
        #expect(
            throws: EncodeError.invalidSetting(
                name: "PNG format", value: "palette", expected: "an image of at most 256 colours")
        ) {
            try PNGCodec.encode(randomBitmap(width: 40, height: 40, seed: 9, opaque: true), format: .palette)
        }
    }

    @Test("A 16-bit PNG without gAMA or sRGB is read as sRGB, as screenshots are: #3067F4 stays #3067F4")
    func sixteenBitIsSRGB() throws {
        // 2x2, 16-bit RGB, every pixel 0x3030 0x6767 0xF4F4, no colour chunks.
        let png = [UInt8](
            Data(
                base64Encoded:
                    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACEAIAAACtREYwAAAAE0lEQVR4nGMwMEhP//IFQjIgcwCUUgxZBSRHCgAAAABJRU5ErkJggg=="
            )!)
        let bitmap = try PNGCodec.decode(png, source: "16bit.png")
        #expect(bitmap[1, 1] == PremultipliedColor(r: 0x30, g: 0x67, b: 0xF4, a: 255))
    }

    @Test("A small PNG whose header claims a huge image is refused before anything is allocated")
    func hugeHeader() throws {
        // 68 bytes whose IHDR says 32768x32768.
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressionTests/Inputs/png/huge-header.png").path
        #expect { _ = try PNGCodec.read(path: path) } throws: {
            "\($0)".contains("32768x32768 is over the budget of 36 megapixels")
        }
        #expect { _ = try PNGCodec.read(path: path, maximumPixels: 2_000_000) } throws: {
            "\($0)".contains("budget of 2 megapixels")
        }
    }

    @Test("A PNG given as a pipe is read to its end, not by its (empty) stat size")
    func pipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(Glibc.pipe(&ends) == 0)
        let png = try PNGCodec.encode(Bitmap(width: 3, height: 2))
        let writeEnd = ends[1]
        let writer = Thread {
            png.withUnsafeBytes { _ = write(writeEnd, $0.baseAddress!, $0.count) }
            close(writeEnd)
        }
        writer.start()
        defer { close(ends[0]) }
        let bitmap = try PNGCodec.read(path: "/dev/fd/\(ends[0])")
        #expect(bitmap.width == 3 && bitmap.height == 2)
    }
}
