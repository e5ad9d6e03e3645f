import CWebP
import Foundation
import Raster

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
    /// The most canvas pixels all of a WebP's frames may decode to: every animated format's budget.
    public static let maximumDecodedPixels = PNGCodec.defaultMaximumDecodedPixels

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
        // Each frame is decoded onto the whole canvas: a tall canvas of many small frames is
        // a small file of endless work. No frame can be larger than 16383 px a side, and a
        // recording's frames times its canvas stay far under the budget.
        let work = Int(info.frame_count) * Int(info.canvas_width) * Int(info.canvas_height)
        guard info.canvas_width <= 16383, info.canvas_height <= 16383, work <= Self.maximumDecodedPixels else {
            WebPAnimDecoderDelete(decoder)
            bytes.deallocate()
            throw DecodeError.library(
                .libwebp, path: path,
                message:
                    "\(info.frame_count) frames on a \(info.canvas_width)x\(info.canvas_height) canvas: past the 16383 px a side a frame may have, or \(Self.maximumDecodedPixels / 1_000_000_000) gigapixels of decoding"
            )
        }
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
