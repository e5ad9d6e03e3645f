import CGIF
import Glibc
import Geometry
import Raster

/// One displayed frame of a decoded GIF: the full canvas after it is drawn.
public struct GIFFrame: Sendable, Equatable {
    public var bitmap: Bitmap
    /// When it starts showing, in centiseconds from the start.
    public var startCentiseconds: Int
    /// How long it shows, in centiseconds.
    public var delay: Int
}

/// A decoded GIF: every frame composited as a viewer shows it.
public struct GIFAnimation: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Plays: nil for forever, else the count (1 when there is no loop extension).
    public var plays: Int?
    public var frames: [GIFFrame]

    public var centiseconds: Int { frames.reduce(0) { $0 + $1.delay } }
}

/// Reads GIFs with giflib's DGif, honouring transparency, interlacing and every disposal
/// method.
public enum GIFDecoder {
    /// Every frame at once.
    public static func read(path: String, maximumPixels: Int = PNGCodec.defaultMaximumPixels) throws -> GIFAnimation {
        let reader = try GIFReader(path: path, maximumPixels: maximumPixels)
        var frames: [GIFFrame] = []
        while let frame = try reader.next() { frames.append(frame) }
        return GIFAnimation(width: reader.width, height: reader.height, plays: reader.plays, frames: frames)
    }
}

/// Reads a GIF one frame at a time, record by record, holding only the canvas (and the
/// canvas before a frame that restores it): memory does not grow with the frame count.
public final class GIFReader {
    public let path: String
    public let width: Int
    public let height: Int
    /// Plays, as far as read: nil for forever, else the count (1 without a loop extension).
    public private(set) var plays: Int? = 1
    private let gif: UnsafeMutablePointer<GifFileType>
    private var canvas: Bitmap
    private var clock = 0
    private var index = 0
    private var finished = false
    private let maximumPixels: Int
    private let maximumDecodedPixels: Int
    /// Canvas pixels the frames read so far were composited onto.
    private var decodedPixels = 0

    /// Opens `path`; a logical screen or a frame of more than `maximumPixels` is an error
    /// before anything is allocated for it, and so is a frame past `maximumDecodedPixels` of
    /// canvas in all (every frame is shown on the whole logical screen: a large screen of many
    /// tiny frames is a small file of endless work).
    public init(
        path: String, maximumPixels: Int = PNGCodec.defaultMaximumPixels,
        maximumDecodedPixels: Int = PNGCodec.defaultMaximumDecodedPixels
    ) throws {
        // A clear error for a missing or unreadable file; giflib then reads it as it decodes.
        try checkReadable(path)
        // Opened without waiting, so that a FIFO with no writer reads as empty at once rather
        // than hanging; giflib then reads (and closes) the descriptor as it decodes.
        let fd = try openWithoutWaiting(path)
        var error: Int32 = 0
        // giflib closes the descriptor itself when it fails to open: closing it again here
        // would close whatever another thread has opened under the same number since.
        guard let gif = DGifOpenFileHandle(fd, &error) else {
            throw DecodeError.library(.giflib, path: path, message: gifMessage(error))
        }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0 else {
            DGifCloseFile(gif, &error)
            throw DecodeError.library(.giflib, path: path, message: "empty logical screen")
        }
        guard width * height <= maximumPixels else {
            DGifCloseFile(gif, &error)
            throw DecodeError.library(
                .giflib,
                path: path,
                message:
                    "logical screen \(width)x\(height) is over the budget of \(maximumPixels / 1_000_000) megapixels")
        }
        self.path = path
        self.gif = gif
        self.width = width
        self.height = height
        self.maximumPixels = maximumPixels
        self.maximumDecodedPixels = maximumDecodedPixels
        canvas = Bitmap(width: width, height: height)
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(gif, &error)
    }

    private func fail() -> DecodeError {
        DecodeError.library(.giflib, path: path, message: gifMessage(gif.pointee.Error))
    }

    /// The next frame as a viewer shows it, or nil after the last.
    public func next() throws -> GIFFrame? {
        guard !finished else { return nil }
        var gcb = GraphicsControlBlock(
            DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
        while true {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK else { throw fail() }
            switch type {
            case EXTENSION_RECORD_TYPE:
                try readExtension(into: &gcb)
            case IMAGE_DESC_RECORD_TYPE:
                return try readImage(gcb)
            case TERMINATE_RECORD_TYPE:
                finished = true
                return nil
            default:
                continue
            }
        }
    }

    private func readExtension(into gcb: inout GraphicsControlBlock) throws {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>? = nil
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw fail() }
        var isLoop = false
        if let b = block {
            if code == GRAPHICS_EXT_FUNC_CODE {
                guard DGifExtensionToGCB(Int(b[0]), b + 1, &gcb) == GIF_OK else { throw fail() }
            } else if code == APPLICATION_EXT_FUNC_CODE, b[0] == 11 {
                let name = String(decoding: UnsafeBufferPointer(start: b + 1, count: 11), as: UTF8.self)
                isLoop = name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
            }
        }
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw fail() }
            if isLoop, let b = block, b[0] >= 3, b[1] == 1 {
                let repeats = Int(b[2]) | Int(b[3]) << 8
                plays = repeats == 0 ? nil : repeats + 1
                isLoop = false
            }
        }
    }

    private func readImage(_ gcb: GraphicsControlBlock) throws -> GIFFrame {
        decodedPixels += width * height
        guard decodedPixels <= maximumDecodedPixels else {
            throw DecodeError.library(
                .giflib, path: path,
                message:
                    "frame \(index) on a \(width)x\(height) screen passes \(maximumDecodedPixels / 1_000_000) megapixels of decoding in all; past any recording"
            )
        }
        guard DGifGetImageDesc(gif) == GIF_OK else { throw fail() }
        let desc = gif.pointee.Image
        let (fx, fy, fw, fh) = (Int(desc.Left), Int(desc.Top), Int(desc.Width), Int(desc.Height))
        guard fw >= 0, fh >= 0, fw * fh <= maximumPixels else {
            throw DecodeError.library(
                .giflib,
                path: path,
                message: "frame \(index) is \(fw)x\(fh), over the budget of \(maximumPixels / 1_000_000) megapixels")
        }
        var indices = [GifPixelType](repeating: 0, count: fw * fh)
        try indices.withUnsafeMutableBufferPointer { buffer in
            // Interlaced rows come in four passes: every 8th from 0, every 8th from 4, every
            // 4th from 2, every 2nd from 1.
            let passes = desc.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
            for (first, step) in passes {
                for y in stride(from: first, to: fh, by: step) where fw > 0 {
                    guard DGifGetLine(gif, buffer.baseAddress! + y * fw, Int32(fw)) == GIF_OK else { throw fail() }
                }
            }
        }
        guard let map = desc.ColorMap ?? gif.pointee.SColorMap else {
            throw DecodeError.library(.giflib, path: path, message: "frame \(index) has no colour map")
        }
        let before = gcb.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
        let colours = Int(map.pointee.ColorCount), transparent = Int(gcb.TransparentColor)
        for y in 0..<fh where fy + y >= 0 && fy + y < height {
            for x in 0..<fw where fx + x >= 0 && fx + x < width {
                let k = Int(indices[y * fw + x])
                if k == transparent || k >= colours { continue }
                let c = map.pointee.Colors[k]
                canvas[fx + x, fy + y] = PremultipliedColor(r: c.Red, g: c.Green, b: c.Blue, a: 255)
            }
        }
        let frame = GIFFrame(bitmap: canvas, startCentiseconds: clock, delay: Int(gcb.DelayTime))
        clock += Int(gcb.DelayTime)
        index += 1
        switch gcb.DisposalMode {
        case DISPOSE_BACKGROUND:
            canvas.withView {
                $0.subview(
                    PixelRect(x: fx, y: fy, width: fw, height: fh).intersection(
                        PixelRect(x: 0, y: 0, width: width, height: height))
                )
                .clear(to: Color.clear.premultiplied)
            }
        case DISPOSE_PREVIOUS:
            if let before { canvas = before }
        default:
            break
        }
        return frame
    }
}
