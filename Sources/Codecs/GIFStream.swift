import CGIF
import GIFCore

/// The giflib side of writing: the header, the loop extension and one image per frame, each
/// with its own colour table, a delay, a transparent index and disposal "do not dispose".
/// Bytes go to an `AtomicOutput`.
final class GIFStream {
    let path: String
    private(set) var gif: UnsafeMutablePointer<GifFileType>?
    private(set) var frames = 0
    private let sink: Sink

    /// Where giflib's bytes go, and the write error it can only report as a failed write: the
    /// error thrown is the output's own (a full disk, by name).
    private final class Sink {
        let output: AtomicOutput
        var failure: (any Error)?
        init(_ output: AtomicOutput) { self.output = output }
    }

    init(output: AtomicOutput, width: Int, height: Int, plays: Int?) throws {
        path = output.path
        sink = Sink(output)
        var error: Int32 = 0
        gif = EGifOpen(
            Unmanaged.passUnretained(sink).toOpaque(),
            { file, bytes, length in
                guard let file, let bytes, length > 0 else { return 0 }
                let sink = Unmanaged<Sink>.fromOpaque(file.pointee.UserData).takeUnretainedValue()
                do {
                    try sink.output.write(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
                    return length
                } catch {
                    sink.failure = error
                    return 0
                }
            }, &error)
        guard let gif else { throw EncodeError.library(.giflib, path: path, message: gifMessage(error)) }
        EGifSetGifVersion(gif, true)
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil))
        if plays != 1 {
            // NETSCAPE2.0 counts repeats after the first play; 0 repeats forever.
            let repeats = plays.map { $0 - 1 } ?? 0
            var loop: [UInt8] = [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8 & 0xFF)]
            var name = Array("NETSCAPE2.0".utf8)
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE))
            try check(EGifPutExtensionBlock(gif, 11, &name))
            try check(EGifPutExtensionBlock(gif, 3, &loop))
            try check(EGifPutExtensionTrailer(gif))
        }
    }

    deinit { discard() }

    /// The colour table's size for a palette of `count` entries: a power of two, at least 2.
    static func tableSize(entries count: Int) -> Int {
        var size = 2
        while size < count { size <<= 1 }
        return size
    }

    /// The LZW minimum code size giflib writes for that table.
    static func minCodeSize(entries count: Int) -> Int {
        max(2, tableSize(entries: count).trailingZeroBitCount)
    }

    /// Writes one image whose LZW data is already coded (`LZWCoder`): `blocks` are its
    /// sub-blocks, coded with `minCodeSize(entries:)` for this palette.
    func putFrame(x: Int, y: Int, w: Int, h: Int, blocks: [UInt8], palette: [UInt8], transparent: Int, delay: Int)
        throws
    {
        try putHeader(
            x: x, y: y, w: w, h: h, palette: palette, transparent: transparent, delay: min(delay, Self.longestDelay))
        // giflib has written the minimum code size; the blocks follow it as they are.
        try blocks.withUnsafeBufferPointer { b in
            var at = 0
            while at < b.count {
                try check(
                    at == 0 ? EGifPutCode(gif, 0, b.baseAddress! + at) : EGifPutCodeNext(gif, b.baseAddress! + at))
                at += Int(b[at]) + 1
            }
        }
        try check(EGifPutCodeNext(gif, nil))
        frames += 1
        if delay > Self.longestDelay { try putHold(delay - Self.longestDelay) }
    }

    /// The longest delay a frame can carry: the field is 16 bits of centiseconds (655.35 s).
    static let longestDelay = 65535

    /// Holds the picture on for `centiseconds` more: frames of one transparent pixel, which
    /// change nothing, each with as long a delay as the field takes.
    private func putHold(_ centiseconds: Int) throws {
        var remaining = centiseconds
        while remaining > 0 {
            let delay = min(remaining, Self.longestDelay)
            try putHeader(x: 0, y: 0, w: 1, h: 1, palette: [0, 0, 0, 0, 0, 0], transparent: 0, delay: delay)
            var pixel: GifPixelType = 0
            try check(EGifPutLine(gif, &pixel, 1))
            remaining -= delay
        }
    }

    /// The graphics control extension, the image descriptor and its colour table. Internal,
    /// as `check` and `gif` are, so that the tests can write a frame through giflib's own LZW
    /// coder behind the same header.
    func putHeader(x: Int, y: Int, w: Int, h: Int, palette: [UInt8], transparent: Int, delay: Int) throws {
        var gcb = GraphicsControlBlock(
            DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false, DelayTime: Int32(delay),
            TransparentColor: transparent < 0 ? NO_TRANSPARENT_COLOR : Int32(transparent))
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&gcb, &extensionBytes)
        try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes))
        let size = Self.tableSize(entries: palette.count / 3)
        var entries = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
        for i in 0..<(palette.count / 3) {
            entries[i] = GifColorType(Red: palette[i * 3], Green: palette[i * 3 + 1], Blue: palette[i * 3 + 2])
        }
        guard let map = GifMakeMapObject(Int32(size), entries) else {
            throw EncodeError.library(.giflib, path: path, message: "cannot make a colour map")
        }
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(gif, Int32(x), Int32(y), Int32(w), Int32(h), false, map))
    }

    /// Writes the trailer and releases giflib's state.
    func close() throws {
        var error: Int32 = 0
        let closed = EGifCloseFile(gif, &error)
        gif = nil
        if let failure = sink.failure { throw failure }
        guard closed == GIF_OK else { throw EncodeError.library(.giflib, path: path, message: gifMessage(error)) }
    }

    /// Releases giflib's state without caring about the bytes.
    func discard() {
        if let gif {
            var error: Int32 = 0
            EGifCloseFile(gif, &error)
            self.gif = nil
        }
    }

    func check(_ status: Int32) throws {
        if let failure = sink.failure { throw failure }
        if status != GIF_OK {
            throw EncodeError.library(.giflib, path: path, message: gifMessage(gif?.pointee.Error ?? 0))
        }
    }
}

/// giflib's words for an error code.
func gifMessage(_ code: Int32) -> String {
    // A read that fails is, for a file, data that stops; giflib may also leave the code at 0.
    if code == 0 || code == D_GIF_ERR_READ_FAILED { return "the file ends before the GIF does (truncated)" }
    if let text = GifErrorString(code) { return String(cString: text) }
    return "error \(code)"
}
