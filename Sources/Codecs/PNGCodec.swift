import CPNG
import Foundation
import Geometry
import Raster

/// The pixel layouts Flipbook can write a PNG in.
public enum PNGFormat: String, CaseIterable, Sendable {
    /// RGB when every pixel is opaque, else RGBA: the smallest exact choice.
    case automatic
    case rgba
    case rgb
    case gray
    case grayAlpha
    /// An 8-bit palette of the image's exact colours (at most 256, else an error).
    case palette
}

/// PNG read and write through libpng's simplified `png_image` API only (its classic API
/// reports errors by longjmp, which Swift cannot unwind).
public enum PNGCodec {
    /// Reads any PNG libpng reads (palette, grey, 16-bit, with or without alpha) as a
    /// premultiplied RGBA8 bitmap.
    public static func read(path: String, maximumPixels: Int = defaultMaximumPixels) throws -> Bitmap {
        // A PNG of its pixel budget, 16 bits a channel and not compressed at all, and a margin.
        try decode(
            try readFile(path, maximumBytes: maximumPixels * 8 + (1 << 20)), source: path, maximumPixels: maximumPixels)
    }

    /// The most pixels a PNG may have unless the caller says otherwise: a 6000x6000 picture.
    /// The header is checked before anything is allocated, so a small file that claims a huge
    /// image costs nothing.
    public static let defaultMaximumPixels = 36_000_000

    /// The most canvas pixels all of an animation's frames may decode to, whatever its format:
    /// each frame is shown on the whole canvas, so a large canvas of many tiny frames is a
    /// small file of endless work. A minute of a @3x phone screen at 60 fps is a third of it.
    public static let defaultMaximumDecodedPixels = 30_000_000_000

    /// The eight bytes every PNG starts with.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes PNG bytes; `source` names them in errors.
    public static func decode(_ data: [UInt8], source: String, maximumPixels: Int = defaultMaximumPixels) throws
        -> Bitmap
    {
        guard data.count >= 8, Array(data[0..<8]) == signature else { throw DecodeError.notPNG(path: source) }
        var image = png_image()
        image.version = cpng_image_version()
        defer { png_image_free(&image) }
        let begun = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw DecodeError.library(.libpng, path: source, message: message(of: image)) }
        image.format = cpng_format_rgba()
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw DecodeError.library(.libpng, path: source, message: "image size \(width)x\(height) is out of range")
        }
        guard width * height <= maximumPixels else {
            throw DecodeError.library(
                .libpng,
                path: source,
                message: "image size \(width)x\(height) is over the budget of \(maximumPixels / 1_000_000) megapixels")
        }
        // Screenshots are sRGB: a 16-bit PNG with no gAMA or sRGB chunk is not linear light,
        // which is what the simplified API would otherwise take it for.
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil)
        }
        guard finished != 0, cpng_image_failed(&image) == 0 else {
            throw DecodeError.library(.libpng, path: source, message: message(of: image))
        }
        pixels.withUnsafeMutableBufferPointer { premultiplyRGBA($0) }
        return Bitmap(width: width, height: height, premultipliedPixels: pixels)
    }

    /// Whether the PNG at `path` is an animation (an APNG: its `acTL` chunk comes before its
    /// first `IDAT`), read from its chunk headers; false for a still, or for what is no PNG.
    public static func isAnimated(path: String) -> Bool {
        // Only a regular file is looked into: opening a FIFO would wait for its writer, and
        // its bytes, once read, would be gone for the decoder.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let handle = FileHandle(forReadingAtPath: path)
        else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 8), Array(head) == signature else { return false }
        // A few chunks come before the pixels; an acTL after 64 of them is no acTL a reader takes.
        for _ in 0..<64 {
            guard let header = try? handle.read(upToCount: 8), header.count == 8 else { return false }
            let bytes = Array(header)
            let length = bytes[0..<4].reduce(0) { $0 << 8 | UInt64($1) }
            switch String(decoding: bytes[4..<8], as: UTF8.self) {
            case "acTL": return true
            case "IDAT", "IEND": return false
            default:
                guard (try? handle.seek(toOffset: handle.offsetInFile + length + 4)) != nil else { return false }
            }
        }
        return false
    }

    /// The pixel size a PNG's header gives, read without decoding its pixels (a file's first
    /// bytes only).
    public static func size(path: String) throws -> (width: Int, height: Int) {
        try checkReadable(path)
        // An image is read more than once (its size, then its pixels): a FIFO or a device
        // would wait for a writer, or give other bytes the second time.
        var info = stat()
        if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
            throw DecodeError.unreadable(
                path: path, reason: "is not a regular file (a FIFO or a device); give a PNG file")
        }
        guard let handle = FileHandle(forReadingAtPath: path), let head = try? handle.read(upToCount: 33) else {
            throw DecodeError.unreadable(path: path, reason: "cannot open")
        }
        try? handle.close()
        let bytes = Array(head)
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature else { throw DecodeError.notPNG(path: path) }
        guard Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw DecodeError.library(.libpng, path: path, message: "the first chunk is not IHDR")
        }
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw DecodeError.library(.libpng, path: path, message: "image size \(width)x\(height) is out of range")
        }
        return (width, height)
    }

    /// Encodes a bitmap as PNG bytes; `fast` trades some size for speed (zlib's fast level),
    /// for sequences of frames.
    public static func encode(
        _ bitmap: Bitmap, format: PNGFormat = .automatic, name: String = "PNG", fast: Bool = false
    ) throws -> [UInt8] {
        let resolved = format == .automatic ? (bitmap.isOpaque ? .rgb : .rgba) : format
        var straight = tightlyPacked(bitmap)
        straight.withUnsafeMutableBufferPointer { unpremultiplyRGBA($0) }
        let n = bitmap.width * bitmap.height
        var image = png_image()
        image.version = cpng_image_version()
        image.width = UInt32(bitmap.width)
        image.height = UInt32(bitmap.height)
        if fast { image.flags |= UInt32(PNG_IMAGE_FLAG_FAST) }
        var buffer: [UInt8]
        var colormap: [UInt8]? = nil
        switch resolved {
        case .automatic, .rgba:
            image.format = cpng_format_rgba()
            buffer = straight
        case .rgb:
            image.format = cpng_format_rgb()
            buffer = [UInt8](repeating: 0, count: n * 3)
            for i in 0..<n { for c in 0..<3 { buffer[i * 3 + c] = straight[i * 4 + c] } }
        case .gray, .grayAlpha:
            let alpha = resolved == .grayAlpha
            image.format = alpha ? cpng_format_ga() : cpng_format_gray()
            let k = alpha ? 2 : 1
            buffer = [UInt8](repeating: 0, count: n * k)
            for i in 0..<n {
                buffer[i * k] = luma(straight[i * 4], straight[i * 4 + 1], straight[i * 4 + 2])
                if alpha { buffer[i * k + 1] = straight[i * 4 + 3] }
            }
        case .palette:
            image.format = cpng_format_rgba_colormap()
            var indexOf: [UInt32: UInt8] = [:]
            var entries: [UInt8] = []
            buffer = [UInt8](repeating: 0, count: n)
            for i in 0..<n {
                let key =
                    UInt32(straight[i * 4]) | UInt32(straight[i * 4 + 1]) << 8
                    | UInt32(straight[i * 4 + 2]) << 16 | UInt32(straight[i * 4 + 3]) << 24
                if let index = indexOf[key] {
                    buffer[i] = index
                } else {
                    guard entries.count < 256 * 4 else {
                        throw EncodeError.invalidSetting(
                            name: "\(name) format", value: "palette", expected: "an image of at most 256 colours")
                    }
                    let index = UInt8(entries.count / 4)
                    indexOf[key] = index
                    entries += straight[(i * 4)..<(i * 4 + 4)]
                    buffer[i] = index
                }
            }
            image.colormap_entries = UInt32(entries.count / 4)
            colormap = entries
        }
        let stride = Int32(bitmap.width) * Int32(componentsPerPixel(resolved))
        // One pass into a buffer as large as zlib can make the data (its compressBound, plus
        // the chunks' headers, IDAT's 12 bytes per 8 KB, and a palette); libpng says so when it
        // is not enough, and says how much is, so a second pass is only a fallback.
        let raw = buffer.count + bitmap.height
        var size = raw + raw >> 12 + raw >> 14 + raw >> 25 + 13 + (raw / 8192 + 1) * 12 + 2048
        var out = [UInt8](repeating: 0, count: size)
        func write() -> Int32 {
            out.withUnsafeMutableBytes { dst in
                buffer.withUnsafeBytes { buf in
                    withColormap(colormap) {
                        png_image_write_to_memory(&image, dst.baseAddress, &size, 0, buf.baseAddress, stride, $0)
                    }
                }
            }
        }
        var ok = write()
        if ok == 0 && size > out.count && cpng_image_failed(&image) == 0 {
            out = [UInt8](repeating: 0, count: size)
            ok = write()
        }
        png_image_free(&image)
        guard ok != 0 else { throw EncodeError.library(.libpng, path: name, message: message(of: image)) }
        return Array(out[..<size])
    }

    /// Writes a PNG atomically: a temporary file beside `path`, renamed when complete.
    public static func write(_ bitmap: Bitmap, to path: String, format: PNGFormat = .automatic, fast: Bool = false)
        throws
    {
        try AtomicOutput.write(try encode(bitmap, format: format, name: path, fast: fast), to: path)
    }

    private static func componentsPerPixel(_ f: PNGFormat) -> Int {
        switch f {
        case .automatic, .rgba: return 4
        case .rgb: return 3
        case .gray, .palette: return 1
        case .grayAlpha: return 2
        }
    }

    private static func withColormap<R>(_ colormap: [UInt8]?, _ body: (UnsafeRawPointer?) -> R) -> R {
        guard let colormap else { return body(nil) }
        return colormap.withUnsafeBytes { body($0.baseAddress) }
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "unknown error" : text
        }
    }
}

/// The bitmap's pixels without row padding.
func tightlyPacked(_ b: Bitmap) -> [UInt8] {
    if b.rowBytes == b.width * 4 { return Array(b.pixels[0..<(b.width * b.height * 4)]) }
    var out = [UInt8]()
    out.reserveCapacity(b.width * b.height * 4)
    for y in 0..<b.height { out += b.pixels[(y * b.rowBytes)..<(y * b.rowBytes + b.width * 4)] }
    return out
}

/// Rec. 709 luma in integer arithmetic, rounded to nearest; exact for greys.
func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
    if r == g && g == b { return r }
    let sum: Int = 54 * Int(r) + 183 * Int(g) + 19 * Int(b)
    return UInt8((sum + 128) >> 8)
}
