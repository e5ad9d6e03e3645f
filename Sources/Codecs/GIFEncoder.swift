import CGIF
import CImageQuant
import Raster

/// How a GIF is quantized and written.
public struct GIFOptions: Sendable, Equatable {
    /// How many times the animation plays: nil forever, 1 once, N that many times.
    public var plays: Int? = nil
    /// At most this many palette entries per frame (2...256).
    public var colors: Int = 256
    /// libimagequant's target quality, 1...100: lower gives smaller files.
    public var quality: Int = 90
    /// Floyd–Steinberg dithering, 0 (none) to 1 (full).
    public var dithering: Double = 1.0
    /// libimagequant's speed, 1 (slowest, best) to 10 (fastest).
    public var speed: Int = 4
    /// Translucent pixels are composited over this colour (GIF pixels are opaque or clear).
    public var matte: Color = .white

    public init() {}

    /// Throws on the first value out of range, naming it.
    public func validate() throws {
        if let plays, plays < 1 || plays > 65536 {
            throw CodecError.invalidSetting(name: "loop", value: "\(plays)", expected: "forever, or 1...65536 plays")
        }
        if !(2...256).contains(colors) {
            throw CodecError.invalidSetting(name: "colors", value: "\(colors)", expected: "2...256")
        }
        if !(1...100).contains(quality) {
            throw CodecError.invalidSetting(name: "quality", value: "\(quality)", expected: "1...100")
        }
        if !(dithering >= 0 && dithering <= 1) {
            throw CodecError.invalidSetting(name: "dither", value: "\(dithering)", expected: "a number in 0...1")
        }
        if !(1...10).contains(speed) {
            throw CodecError.invalidSetting(name: "speed", value: "\(speed)", expected: "1...10")
        }
    }
}

/// What an encoder wrote.
public struct GIFSummary: Sendable, Equatable {
    public var path: String
    public var bytes: Int
    /// Frames in the file.
    public var frames: Int
    /// Input frames folded into the one before because they were identical.
    public var merged: Int
    /// Input frames left out to keep every delay at 2 cs or more.
    public var dropped: Int
    /// Total play time in centiseconds.
    public var centiseconds: Int
}

/// A streaming GIF writer: frames come in as bitmaps with timestamps and go out as they are
/// final, so memory does not grow with the frame count.
///
/// Each frame is cropped to what changed since the last one; pixels that did not change are
/// transparent, so static pixels never flicker. The changed rect gets its own libimagequant
/// palette, quantized knowing what is already on screen (pixels the screen already shows well
/// enough also become transparent: gifski's technique), with disposal "do not dispose".
/// The file appears at `path` only when `finish` succeeds.
public final class GIFEncoder {
    public let path: String
    public let width: Int
    public let height: Int
    public let options: GIFOptions
    private let output: AtomicOutput
    private var gif: UnsafeMutablePointer<GifFileType>?
    private var scheduler = FrameScheduler<Bitmap>()
    private let attr: OpaquePointer
    /// The last frame written, flattened on the matte (RGBA, opaque).
    private var previous: [UInt8]
    /// What a viewer shows after the frames written so far (RGBA; alpha 0 where nothing yet).
    private var screen: [UInt8]
    private var framesWritten = 0
    private var finished = false

    public init(path: String, width: Int, height: Int, options: GIFOptions = GIFOptions()) throws {
        try options.validate()
        guard width > 0, height > 0, width <= 65535, height <= 65535 else {
            throw CodecError.invalidSetting(name: "GIF size", value: "\(width)x\(height)", expected: "1...65535 on each side")
        }
        self.path = path
        self.width = width
        self.height = height
        self.options = options
        self.output = try AtomicOutput(path: path)
        guard let attr = liq_attr_create() else { throw CodecError.quantize(path: path, message: "cannot create attributes") }
        self.attr = attr
        liq_set_max_colors(attr, Int32(options.colors))
        liq_set_quality(attr, 0, Int32(options.quality))
        liq_set_speed(attr, Int32(options.speed))
        previous = [UInt8](repeating: 0, count: width * height * 4)
        screen = previous

        var error: Int32 = 0
        let userData = Unmanaged.passUnretained(output).toOpaque()
        gif = EGifOpen(userData, { file, bytes, length in
            guard let file, let bytes, length > 0 else { return 0 }
            let out = Unmanaged<AtomicOutput>.fromOpaque(file.pointee.UserData).takeUnretainedValue()
            do {
                try out.write(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
                return length
            } catch {
                return 0
            }
        }, &error)
        guard let gif else { throw CodecError.gif(path: path, message: gifMessage(error)) }
        EGifSetGifVersion(gif, true)
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil))
        if options.plays != 1 {
            // NETSCAPE2.0: the count is of repeats after the first play; 0 repeats forever.
            let repeats = options.plays.map { $0 - 1 } ?? 0
            var loop: [UInt8] = [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8 & 0xFF)]
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE))
            var app = Array("NETSCAPE2.0".utf8)
            try check(EGifPutExtensionBlock(gif, 11, &app))
            try check(EGifPutExtensionBlock(gif, 3, &loop))
            try check(EGifPutExtensionTrailer(gif))
        }
    }

    deinit {
        if let gif {
            var error: Int32 = 0
            EGifCloseFile(gif, &error)
        }
        liq_attr_destroy(attr)
        output.abandon()
    }

    /// Adds the frame that starts showing at `time` seconds.
    public func add(_ frame: Bitmap, at time: Double) throws {
        guard !finished else { throw CodecError.usage("\(path): frame added after finish") }
        guard frame.width == width, frame.height == height else {
            throw CodecError.frameSize(path: path, expected: "\(width)x\(height)", got: "\(frame.width)x\(frame.height)")
        }
        for item in scheduler.add(frame, at: time, sameAsShowing: { $0 == $1 }) {
            try write(item.frame, delay: item.delay)
        }
    }

    /// Writes the remaining frames, the last one showing until `endTime`, and moves the file
    /// into place.
    @discardableResult
    public func finish(at endTime: Double) throws -> GIFSummary {
        guard !finished else { throw CodecError.usage("\(path): finished twice") }
        finished = true
        do {
            for item in scheduler.finish(at: endTime) {
                try write(item.frame, delay: item.delay)
            }
            guard framesWritten > 0 else { throw CodecError.usage("\(path): no frames to write") }
            var error: Int32 = 0
            let closed = EGifCloseFile(gif, &error)
            gif = nil
            guard closed == GIF_OK else { throw CodecError.gif(path: path, message: gifMessage(error)) }
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
        return GIFSummary(
            path: path, bytes: output.byteCount, frames: framesWritten, merged: scheduler.merged,
            dropped: scheduler.dropped, centiseconds: scheduler.duration(to: endTime))
    }

    /// Encodes one frame whose delay is final.
    private func write(_ frame: Bitmap, delay: Int) throws {
        let current = flattened(frame)
        let first = framesWritten == 0
        var box = first ? (x0: 0, y0: 0, x1: width, y1: height) : changedBox(current, previous)
        if box.x1 <= box.x0 {
            // Same pixels after flattening: a 1x1 transparent frame carries the delay.
            try putFrame(x: 0, y: 0, w: 1, h: 1, indices: [0], palette: [0, 0, 0, 0, 0, 0], transparent: 0, delay: delay)
            return
        }
        let w = box.x1 - box.x0, h = box.y1 - box.y0
        var crop = [UInt8](repeating: 0, count: w * h * 4)
        var shown = [UInt8](repeating: 0, count: first ? 0 : w * h * 4)
        var importance = [UInt8](repeating: 255, count: first ? 0 : w * h)
        for y in 0..<h {
            let src = ((box.y0 + y) * width + box.x0) * 4
            crop.replaceSubrange((y * w * 4)..<((y + 1) * w * 4), with: current[src..<(src + w * 4)])
            if !first {
                shown.replaceSubrange((y * w * 4)..<((y + 1) * w * 4), with: screen[src..<(src + w * 4)])
                for x in 0..<w where sameRGB(current, previous, src + x * 4) {
                    importance[y * w + x] = 0
                }
            }
        }

        var indices = [UInt8](repeating: 0, count: w * h)
        var colours: [UInt8] = []
        var transparent = -1
        try quantize(crop: crop, shown: shown, importance: importance, width: w, height: h,
                     indices: &indices, colours: &colours, transparent: &transparent)

        // Unchanged pixels stay as shown (transparent); others update the screen.
        var tight = (x0: w, y0: h, x1: -1, y1: -1)
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let s = ((box.y0 + y) * width + box.x0 + x) * 4
                if !first && (importance[i] == 0 || Int(indices[i]) == transparent) {
                    indices[i] = UInt8(max(transparent, 0))
                    continue
                }
                let k = Int(indices[i]) * 3
                screen[s] = colours[k]
                screen[s + 1] = colours[k + 1]
                screen[s + 2] = colours[k + 2]
                screen[s + 3] = 255
                tight.x0 = min(tight.x0, x)
                tight.x1 = max(tight.x1, x)
                tight.y0 = min(tight.y0, y)
                tight.y1 = y
            }
        }
        previous = current
        if tight.x1 < 0 {
            try putFrame(x: 0, y: 0, w: 1, h: 1, indices: [UInt8(max(transparent, 0))], palette: colours, transparent: transparent, delay: delay)
            return
        }
        let tw = tight.x1 - tight.x0 + 1, th = tight.y1 - tight.y0 + 1
        var rows = [UInt8](repeating: 0, count: tw * th)
        for y in 0..<th {
            let from = (tight.y0 + y) * w + tight.x0
            rows.replaceSubrange((y * tw)..<((y + 1) * tw), with: indices[from..<(from + tw)])
        }
        box.x0 += tight.x0
        box.y0 += tight.y0
        try putFrame(x: box.x0, y: box.y0, w: tw, h: th, indices: rows, palette: colours, transparent: transparent, delay: delay)
    }

    /// Builds the crop's palette and indices with libimagequant. `colours` gets RGB triples;
    /// `transparent` the index of the clear entry (−1 if none).
    private func quantize(crop: [UInt8], shown: [UInt8], importance: [UInt8], width w: Int, height h: Int,
                          indices: inout [UInt8], colours: inout [UInt8], transparent: inout Int) throws {
        try crop.withUnsafeBytes { cropBytes in
            try shown.withUnsafeBytes { shownBytes in
                guard let image = liq_image_create_rgba(attr, cropBytes.baseAddress!, Int32(w), Int32(h), 0) else {
                    throw CodecError.quantize(path: path, message: "cannot create image")
                }
                defer { liq_image_destroy(image) }
                if !shown.isEmpty {
                    liq_image_add_fixed_color(image, liq_color(r: 0, g: 0, b: 0, a: 0))
                    if let background = liq_image_create_rgba(attr, shownBytes.baseAddress!, Int32(w), Int32(h), 0) {
                        liq_image_set_background(image, background)
                    }
                    var map = importance
                    map.withUnsafeMutableBufferPointer {
                        _ = liq_image_set_importance_map(image, $0.baseAddress!, $0.count, LIQ_COPY_PIXELS)
                    }
                }
                var result: OpaquePointer?
                let status = liq_image_quantize(image, attr, &result)
                guard status == LIQ_OK, let result else {
                    throw CodecError.quantize(path: path, message: "quantization failed (liq_error \(status.rawValue))")
                }
                defer { liq_result_destroy(result) }
                liq_set_dithering_level(result, Float(options.dithering))
                let remapped = indices.withUnsafeMutableBytes { liq_write_remapped_image(result, image, $0.baseAddress!, $0.count) }
                guard remapped == LIQ_OK else {
                    throw CodecError.quantize(path: path, message: "remapping failed (liq_error \(remapped.rawValue))")
                }
                let palette = liq_get_palette(result)!.pointee
                colours = [UInt8](repeating: 0, count: Int(palette.count) * 3)
                withUnsafeBytes(of: palette.entries) { raw in
                    let entries = raw.bindMemory(to: liq_color.self)
                    for i in 0..<Int(palette.count) {
                        colours[i * 3] = entries[i].r
                        colours[i * 3 + 1] = entries[i].g
                        colours[i * 3 + 2] = entries[i].b
                        if entries[i].a == 0 && transparent < 0 { transparent = i }
                    }
                    // libimagequant may leave more than one clear entry and use any of them.
                    if transparent >= 0 {
                        for i in 0..<indices.count where entries[Int(indices[i])].a == 0 {
                            indices[i] = UInt8(transparent)
                        }
                    }
                }
            }
        }
    }

    private func putFrame(x: Int, y: Int, w: Int, h: Int, indices: [UInt8], palette: [UInt8], transparent: Int, delay: Int) throws {
        var gcb = GraphicsControlBlock(
            DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false, DelayTime: Int32(delay),
            TransparentColor: Int32(transparent < 0 ? NO_TRANSPARENT_COLOR : Int32(transparent)))
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&gcb, &extensionBytes)
        try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes))
        var size: Int32 = 2
        while Int(size) * 3 < palette.count { size <<= 1 }
        var entries = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: Int(size))
        for i in 0..<(palette.count / 3) {
            entries[i] = GifColorType(Red: palette[i * 3], Green: palette[i * 3 + 1], Blue: palette[i * 3 + 2])
        }
        guard let map = GifMakeMapObject(size, entries) else { throw CodecError.gif(path: path, message: "cannot make a colour map") }
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(gif, Int32(x), Int32(y), Int32(w), Int32(h), false, map))
        var rows = indices
        try rows.withUnsafeMutableBufferPointer { p in
            for row in 0..<h {
                try check(EGifPutLine(gif, p.baseAddress! + row * w, Int32(w)))
            }
        }
        framesWritten += 1
    }

    private func check(_ status: Int32) throws {
        if status != GIF_OK {
            throw CodecError.gif(path: path, message: gifMessage(gif?.pointee.Error ?? 0))
        }
    }

    /// The frame composited over the matte: premultiplied over opaque is straight and opaque.
    private func flattened(_ frame: Bitmap) -> [UInt8] {
        var out = tightlyPacked(frame)
        let m = options.matte
        let (mr, mg, mb) = (Int(m.r), Int(m.g), Int(m.b))
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let inv = 255 - Int(p[i + 3])
                if inv != 0 {
                    p[i] = UInt8(Int(p[i]) + mul255(mr, inv))
                    p[i + 1] = UInt8(Int(p[i + 1]) + mul255(mg, inv))
                    p[i + 2] = UInt8(Int(p[i + 2]) + mul255(mb, inv))
                    p[i + 3] = 255
                }
                i += 4
            }
        }
        return out
    }

    /// The bounding box of pixels that differ between two flattened frames.
    private func changedBox(_ a: [UInt8], _ b: [UInt8]) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        var box = (x0: width, y0: height, x1: 0, y1: 0)
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                let wa = pa.bindMemory(to: UInt32.self), wb = pb.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    let row = y * width
                    var x = 0
                    while x < width && wa[row + x] == wb[row + x] { x += 1 }
                    if x == width { continue }
                    var e = width - 1
                    while wa[row + e] == wb[row + e] { e -= 1 }
                    box.x0 = min(box.x0, x)
                    box.x1 = max(box.x1, e + 1)
                    box.y0 = min(box.y0, y)
                    box.y1 = y + 1
                }
            }
        }
        return box
    }

    private func sameRGB(_ a: [UInt8], _ b: [UInt8], _ i: Int) -> Bool {
        a[i] == b[i] && a[i + 1] == b[i + 1] && a[i + 2] == b[i + 2]
    }
}

/// giflib's words for an error code.
func gifMessage(_ code: Int32) -> String {
    if let text = GifErrorString(code) { return String(cString: text) }
    return "error \(code)"
}

extension GIFEncoder {
    /// Stops without writing anything (the destination keeps what it had).
    public func abandon() {
        finished = true
        output.abandon()
    }

    func abandonForTesting() { abandon() }
}
