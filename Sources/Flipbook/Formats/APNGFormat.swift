import Codecs
import Foundation
import GIFCore
import Geometry
import Raster

extension AnimationFormat {
    /// Animated PNG: lossless, full alpha, timed as a GIF is (centisecond delays of at least
    /// 2 cs, identical frames merged). Each frame after the first is the rectangle that changed,
    /// written through libpng's simplified API, its chunks assembled into `fcTL` and `fdAT`.
    public static let apng = AnimationFormat(
        name: "apng", label: "APNG", noun: "an APNG", extensions: [".apng"], mediaType: "image/apng",
        summary: "animated PNG", frameRates: nil, mergesIdenticalFrames: true,
        encodeCost: { _ in (0.002, 0.05) },
        checkOptions: { options in
            if let option = options.gifOnlyOption ?? (options.quality != nil ? .quality : nil) {
                throw ExportError.invalid(option, "\(option): an APNG is lossless; it takes \(.loop) alone")
            }
        },
        frameRateNote: { fps in
            fps > 50
                ? "\(fps.plainText) fps asks for APNG delays under 2 cs; frames are dropped to keep 2 cs and the exact duration"
                : nil
        },
        budgetQualities: { _ in [(nil, 0)] },
        budgetGuess: nil,
        open: { path, width, height, _, encoding in
            let writer = APNGWriter(path: path, width: width, height: height, loop: encoding.loop)
            return AnimationWriter(add: writer.add, finish: writer.finish)
        })
}

/// An APNG being assembled: frames scheduled as a GIF's, each encoded as it is scheduled, the
/// file written whole at the end (its frame count comes first).
private final class APNGWriter {
    let path: String
    let width: Int, height: Int
    let plays: UInt32
    var scheduler = FrameScheduler<Bitmap>()
    /// The frame the file shows after the frames encoded so far.
    var canvas: Bitmap?
    var header: [UInt8] = []
    var body: [UInt8] = []
    var sequence: UInt32 = 0
    var frames: UInt32 = 0
    var centiseconds = 0

    init(path: String, width: Int, height: Int, loop: LoopCount) {
        (self.path, self.width, self.height) = (path, width, height)
        if case .plays(let n) = loop { plays = UInt32(n) } else { plays = 0 }
    }

    func add(_ frame: Bitmap, at time: Double) throws {
        guard frame.width == width, frame.height == height else {
            throw EncodeError.invalidSetting(
                name: "APNG frame size", value: "\(frame.width)x\(frame.height)", expected: "\(width)x\(height)")
        }
        for s in scheduler.add(frame, at: time, sameAsShowing: ==) { try encode(s.frame, delay: s.delay) }
    }

    func finish(_ end: Double, _ inputFrames: Int) throws -> AnimatedOutput.Written {
        for s in scheduler.finish(at: end) { try encode(s.frame, delay: s.delay) }
        guard frames > 0 else {
            throw EncodeError.invalidSetting(name: "APNG frames", value: "0", expected: "at least one frame")
        }
        let control = PNGChunks.chunk("acTL", PNGChunks.bigEndian(frames) + PNGChunks.bigEndian(plays))
        let file = PNGChunks.signature + header + control + body + PNGChunks.chunk("IEND", [])
        try AtomicOutput.write(file, to: path)
        var notes: [String] = []
        if scheduler.merged > 0 { notes.append("\(scheduler.merged) identical merged") }
        if scheduler.dropped > 0 { notes.append("\(scheduler.dropped) dropped for 2 cs delays") }
        return AnimatedOutput.Written(
            line:
                "wrote \(path): \(ByteSize.text(file.count)), \(frames) frames from \(inputFrames)"
                + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
                + ", \(String(format: "%.2f", Double(centiseconds) / 100)) s, lossless",
            bytes: file.count, gif: nil)
    }

    /// Appends one frame shown for `delay` cs: the first whole, each later one as the
    /// rectangle that differs from the frame before, replacing those pixels.
    func encode(_ frame: Bitmap, delay: Int) throws {
        let rect = canvas.map { changedRect(from: $0, to: frame) } ?? frame.bounds
        let png = try PNGCodec.encode(
            rect == frame.bounds ? frame : frame.cropped(to: rect), format: .rgba, name: path)
        let chunks = PNGChunks.chunks(of: png)
        let data = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        if canvas == nil, let ihdr = chunks.first(where: { $0.type == "IHDR" }) {
            header = PNGChunks.chunk("IHDR", Array(ihdr.data))
        }
        // Delays are centiseconds; a denominator of 100 holds up to 655 s a frame.
        var control = PNGChunks.bigEndian(sequence)
        for v in [rect.width, rect.height, rect.x, rect.y] { control += PNGChunks.bigEndian(UInt32(v)) }
        let num = UInt16(min(delay, Int(UInt16.max)))
        control += [UInt8(num >> 8), UInt8(num & 0xFF), 0, 100, 0, 0]  // dispose: none; blend: source
        body += PNGChunks.chunk("fcTL", control)
        sequence += 1
        if canvas == nil {
            body += PNGChunks.chunk("IDAT", data)
        } else {
            body += PNGChunks.chunk("fdAT", PNGChunks.bigEndian(sequence) + data)
            sequence += 1
        }
        frames += 1
        centiseconds += delay
        canvas = frame
    }

    /// The smallest rectangle outside which `b` equals `a`; one pixel where they are equal.
    func changedRect(from a: Bitmap, to b: Bitmap) -> PixelRect {
        a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in
                func pixel(_ p: UnsafeRawBufferPointer, _ rowBytes: Int, _ x: Int, _ y: Int) -> UInt32 {
                    p.loadUnaligned(fromByteOffset: y * rowBytes + 4 * x, as: UInt32.self)
                }
                func rowsEqual(_ y: Int) -> Bool {
                    memcmp(pa.baseAddress! + y * a.rowBytes, pb.baseAddress! + y * b.rowBytes, width * 4) == 0
                }
                guard let top = (0..<height).first(where: { !rowsEqual($0) }) else {
                    return PixelRect(x: 0, y: 0, width: 1, height: 1)
                }
                let bottom = (top..<height).last { !rowsEqual($0) }!
                var left = width, right = -1
                for y in top...bottom {
                    var x = 0
                    while x < left && pixel(pa, a.rowBytes, x, y) == pixel(pb, b.rowBytes, x, y) { x += 1 }
                    left = min(left, x)
                    x = width - 1
                    while x > right && pixel(pa, a.rowBytes, x, y) == pixel(pb, b.rowBytes, x, y) { x -= 1 }
                    right = max(right, x)
                }
                return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            }
        }
    }
}
