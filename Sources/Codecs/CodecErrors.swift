import Raster

/// The C library a codec failure comes from, named as its messages are.
public enum CodecLibrary: String, Sendable, Equatable {
    case libpng, giflib, libwebp, libimagequant
    case ffmpeg = "FFmpeg"

    /// How both stages' errors word a message from this library.
    func describe(_ message: String, path: String) -> String { "\(path): \(rawValue): \(message)" }
}

/// What goes wrong reading an image or a video at the edge of the pipeline, with the file and
/// the reason.
public enum DecodeError: Error, Equatable, CustomStringConvertible {
    /// The input file does not exist.
    case fileNotFound(path: String)
    /// The input exists but could not be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The input does not start with the PNG signature.
    case notPNG(path: String)
    /// The library rejected the data; `message` is its own, or says what was wrong with it.
    case library(CodecLibrary, path: String, message: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path): return "\(path): no such file"
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .notPNG(let path): return "\(path): not a PNG file (the PNG signature is missing)"
        case .library(let library, let path, let message): return library.describe(message, path: path)
        }
    }
}

/// What goes wrong encoding frames and writing the output, with the file or the setting and
/// the reason.
public enum EncodeError: Error, Equatable, CustomStringConvertible {
    /// A setting is outside the range the encoder accepts.
    case invalidSetting(name: String, value: String, expected: String)
    /// A frame's size differs from the first frame's.
    case frameSize(path: String, expected: String, got: String)
    /// The output could not be created or written; nothing was left behind.
    case unwritable(path: String, reason: String)
    /// The library failed an operation; `message` is its own, or says what failed.
    case library(CodecLibrary, path: String, message: String)
    /// The encoder was used out of order (a frame after `finish`, or no frames at all).
    case usage(String)

    /// Throws `frameSize` unless `frame` is `width`x`height`: every encoder's check on each frame.
    public static func checkSize(of frame: Bitmap, width: Int, height: Int, path: String) throws {
        guard frame.width == width, frame.height == height else {
            throw EncodeError.frameSize(
                path: path, expected: "\(width)x\(height)", got: "\(frame.width)x\(frame.height)")
        }
    }

    public var description: String {
        switch self {
        case .invalidSetting(let name, let value, let expected): return "\(name) = \(value): expected \(expected)"
        case .frameSize(let path, let expected, let got):
            return "\(path): frame is \(got), but the first frame is \(expected); every frame must be the same size"
        case .unwritable(let path, let reason): return "\(path): cannot write: \(reason)"
        case .library(let library, let path, let message): return library.describe(message, path: path)
        case .usage(let message): return message
        }
    }
}
