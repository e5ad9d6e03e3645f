/// Everything that can go wrong reading or writing images, with the file and the reason.
public enum CodecError: Error, Equatable, CustomStringConvertible {
    /// The input file does not exist.
    case fileNotFound(path: String)
    /// The input exists but could not be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The input does not start with the PNG signature.
    case notPNG(path: String)
    /// libpng rejected the data; `message` is libpng's own.
    case png(path: String, message: String)
    /// giflib rejected the data or an operation; `message` is giflib's own.
    case gif(path: String, message: String)
    /// libwebp rejected the data or an operation.
    case webp(path: String, message: String)
    /// libimagequant failed to build a palette.
    case quantize(path: String, message: String)
    /// FFmpeg's libraries rejected the data or an operation; `message` is theirs.
    case video(path: String, message: String)
    /// The output could not be created or written; nothing was left behind.
    case unwritable(path: String, reason: String)
    /// A frame's size differs from the first frame's.
    case frameSize(path: String, expected: String, got: String)
    /// A setting is outside the range the codec accepts.
    case invalidSetting(name: String, value: String, expected: String)
    /// The encoder was used out of order (a frame after `finish`, or no frames at all).
    case usage(String)

    public var description: String {
        switch self {
        case .fileNotFound(let path): return "\(path): no such file"
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .notPNG(let path): return "\(path): not a PNG file (the PNG signature is missing)"
        case .png(let path, let message): return "\(path): libpng: \(message)"
        case .gif(let path, let message): return "\(path): giflib: \(message)"
        case .webp(let path, let message): return "\(path): libwebp: \(message)"
        case .quantize(let path, let message): return "\(path): libimagequant: \(message)"
        case .video(let path, let message): return "\(path): FFmpeg: \(message)"
        case .unwritable(let path, let reason): return "\(path): cannot write: \(reason)"
        case .frameSize(let path, let expected, let got):
            return "\(path): frame is \(got), but the first frame is \(expected); every frame must be the same size"
        case .invalidSetting(let name, let value, let expected): return "\(name) = \(value): expected \(expected)"
        case .usage(let message): return message
        }
    }
}
