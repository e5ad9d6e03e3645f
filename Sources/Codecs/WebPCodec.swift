import CWebP
import Foundation
import Raster

/// How an animated WebP is written.
public struct WebPOptions: Sendable, Equatable {
    /// nil: lossless, every frame exact. A number 0...100: lossy at that quality.
    public var quality: Int? = nil
    /// Plays: nil forever, else the count.
    public var plays: Int? = nil
    /// libwebp's effort, 0 (fast) to 6 (smallest).
    public var method: Int = 4

    public init() {}
}

/// What a WebP encode wrote.
public struct WebPSummary: Sendable, Equatable {
    public var bytes: Int
    public var frames: Int
    /// The animation's length in milliseconds.
    public var milliseconds: Int
}

/// Writes an animated WebP through libwebp's WebPAnimEncoder: frames with exact millisecond
/// timestamps, each coded as the rectangle that changed (the encoder's own differencing),
/// lossless by default. The file appears only when complete.
public final class WebPEncoder {
    public let path: String
    let width: Int, height: Int
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private var frames = 0
    private var lastTimestamp = -1
    private var finished = false

    public init(path: String, width: Int, height: Int, options: WebPOptions = WebPOptions()) throws {
        guard width > 0, height > 0, width <= 16383, height <= 16383 else {
            throw EncodeError.invalidSetting(
                name: "WebP size", value: "\(width)x\(height)", expected: "1...16383 pixels a side (the format's limit)"
            )
        }
        self.path = path
        self.width = width
        self.height = height
        var animation = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&animation) != 0, WebPConfigInit(&config) != 0 else {
            throw EncodeError.library(.libwebp, path: path, message: "libwebp's version does not match its headers")
        }
        // NETSCAPE-style count: 0 repeats forever.
        animation.anim_params.loop_count = Int32(options.plays ?? 0)
        animation.anim_params.bgcolor = 0xFFFF_FFFF
        if let quality = options.quality {
            config.lossless = 0
            config.quality = Float(quality)
            // Flat UI frames code smaller losslessly: let each frame take whichever is smaller,
            // and each change rectangle whichever blend and size codes smallest.
            animation.allow_mixed = 1
            animation.minimize_size = 1
        } else {
            config.lossless = 1
            config.exact = 1
            config.quality = 75
        }
        config.method = Int32(options.method)
        // Lossy coding splits its analysis and alpha plane across threads; a no-op for lossless.
        config.thread_level = 1
        guard WebPValidateConfig(&config) != 0 else {
            throw EncodeError.library(.libwebp, path: path, message: "invalid encoder settings")
        }
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &animation) else {
            throw EncodeError.library(.libwebp, path: path, message: "cannot start an animation encoder")
        }
        self.encoder = encoder
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds the frame that starts showing at `time` seconds.
    public func add(_ frame: Bitmap, at time: Double) throws {
        try EncodeError.checkSize(of: frame, width: width, height: height, path: path)
        let timestamp = Int((time * 1000).rounded())
        guard timestamp > lastTimestamp else { return }  // two frames in one millisecond: the first shows
        var straight = tightlyPacked(frame)
        straight.withUnsafeMutableBufferPointer { unpremultiplyRGBA($0) }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw EncodeError.library(.libwebp, path: path, message: "cannot make a picture")
        }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        guard
            straight.withUnsafeBufferPointer({ WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }) != 0
        else {
            throw EncodeError.library(.libwebp, path: path, message: "out of memory for frame \(frames)")
        }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
            throw EncodeError.library(.libwebp, path: path, message: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        frames += 1
        lastTimestamp = timestamp
    }

    /// Ends the last frame at `endTime` seconds and writes the file.
    public func finish(at endTime: Double) throws -> WebPSummary {
        precondition(!finished, "WebPEncoder finished twice")
        finished = true
        let end = max(lastTimestamp + 1, Int((endTime * 1000).rounded()))
        guard WebPAnimEncoderAdd(encoder, nil, Int32(end), nil) != 0 else {
            throw EncodeError.library(.libwebp, path: path, message: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            throw EncodeError.library(.libwebp, path: path, message: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        defer { WebPDataClear(&data) }
        let bytes = Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
        try AtomicOutput.write(bytes, to: path)
        return WebPSummary(bytes: bytes.count, frames: frames, milliseconds: end)
    }
}

/// One frame of a decoded WebP animation: the canvas as shown, and when it starts and stops showing.
public struct WebPFrame: Sendable {
    public var bitmap: Bitmap
    public var startMilliseconds: Int
    public var endMilliseconds: Int
}

/// Reads animated (or still) WebPs with libwebp's WebPAnimDecoder, one frame at a time,
/// composited as a viewer shows them.
public final class WebPReader {
    public let path: String
    public let width: Int
    public let height: Int
    /// Plays: nil forever, else the count.
    public let plays: Int?
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let decoder: OpaquePointer
    private var previous = 0

    /// The most bytes a WebP may have: an animation far past any preview.
    public static let maximumBytes = 512 << 20

    public init(path: String, maximumPixels: Int = PNGCodec.defaultMaximumPixels) throws {
        let file = try readFile(path, maximumBytes: WebPReader.maximumBytes)
        var features = WebPBitstreamFeatures()
        let status = file.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else {
            throw DecodeError.library(.libwebp, path: path, message: "not a WebP file (status \(status.rawValue))")
        }
        guard Int(features.width) * Int(features.height) <= maximumPixels else {
            throw DecodeError.library(
                .libwebp,
                path: path,
                message:
                    "\(features.width)x\(features.height) is over the budget of \(maximumPixels / 1_000_000) megapixels"
            )
        }
        // The decoder reads from the bytes for as long as it lives.
        bytes = .allocate(capacity: max(1, file.count))
        _ = bytes.initialize(from: file)
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            bytes.deallocate()
            throw DecodeError.library(.libwebp, path: path, message: "libwebp's version does not match its headers")
        }
        options.color_mode = MODE_RGBA
        var data = WebPData(bytes: UnsafePointer(bytes.baseAddress), size: file.count)
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            bytes.deallocate()
            throw DecodeError.library(.libwebp, path: path, message: "cannot decode (a damaged or unsupported WebP)")
        }
        var info = WebPAnimInfo()
        WebPAnimDecoderGetInfo(decoder, &info)
        self.path = path
        self.decoder = decoder
        width = Int(info.canvas_width)
        height = Int(info.canvas_height)
        plays = info.loop_count == 0 ? nil : Int(info.loop_count)
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    /// The next frame, or nil after the last.
    public func next() throws -> WebPFrame? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
            throw DecodeError.library(.libwebp, path: path, message: "a frame does not decode")
        }
        var pixels = Array(UnsafeBufferPointer(start: buffer, count: width * height * 4))
        pixels.withUnsafeMutableBufferPointer { premultiplyRGBA($0) }
        // WebPAnimDecoder gives each frame's end; it starts where the one before ended.
        defer { previous = Int(timestamp) }
        return WebPFrame(
            bitmap: Bitmap(width: width, height: height, premultipliedPixels: pixels), startMilliseconds: previous,
            endMilliseconds: Int(timestamp))
    }
}
