import Codecs
import Comparison
import Foundation
import Raster
import Render
import Scenes
import Video

/// Where frames and images meet files: decoding happens here, at the edge, and the stages
/// before it take bitmaps.
extension FrameReader {
    /// Opens a recording at `path`: a .gif, .webp or animated .png or .apng (decoded a frame at a time,
    /// timed as browsers play them), an MP4 or other video FFmpeg reads (by its timestamps), a
    /// still .png (which shows at every time), or a folder of .png frames played at `fps` (read
    /// as they are reached). A clock that goes back is the file's fault: the error names it.
    public static func open(_ path: String, fps: Double = 30) throws -> FrameReader {
        let reader = try openUnnamed(path, fps: fps)
        return FrameReader {
            do {
                return try reader.next()
            } catch let error as FrameOrderError {
                throw DecodeError.unreadable(path: path, reason: "\(error)")
            }
        }
    }

    /// The file extensions read as video.
    static let videoExtensions = [".mp4", ".mov", ".m4v", ".webm", ".mkv", ".ts", ".m2ts"]

    private static func openUnnamed(_ path: String, fps: Double) throws -> FrameReader {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DecodeError.fileNotFound(path: path)
        }
        if isDirectory.boolValue {
            let files = try PNGSequence.files(in: path)
            guard !files.isEmpty else {
                throw DecodeError.unreadable(path: path, reason: "no .png files in this folder")
            }
            var i = 0
            return FrameReader {
                guard i < files.count else { return nil }
                defer { i += 1 }
                let frame = FrameSequence.Frame(
                    start: FrameSequence.folderFrameStart(i, fps: fps), bitmap: try PNGCodec.read(path: files[i]),
                    label: (files[i] as NSString).lastPathComponent)
                return (frame, FrameSequence.folderFrameStart(i + 1, fps: fps))
            }
        }
        if videoExtensions.contains(where: path.lowercased().hasSuffix) {
            let video = try MP4Reader(path: path)
            var i = 0
            return FrameReader {
                guard let (bitmap, start, end) = try video.next() else { return nil }
                defer { i += 1 }
                return (FrameSequence.Frame(start: start, bitmap: bitmap, label: "frame \(i)"), end)
            }
        }
        if path.lowercased().hasSuffix(".webp") {
            let webp = try WebPReader(path: path)
            return browserTimed {
                try webp.next().map { ($0.bitmap, $0.endMilliseconds - $0.startMilliseconds) }
            }
        }
        if [".png", ".apng"].contains(where: path.lowercased().hasSuffix) && PNGCodec.isAnimated(path: path) {
            // FFmpeg's APNG decoder composes each frame onto the canvas as browsers do.
            let apng = try MP4Reader(path: path)
            return browserTimed {
                try apng.next().map { ($0.bitmap, Int((($0.end - $0.start) * 1000).rounded())) }
            }
        }
        if path.lowercased().hasSuffix(".gif") {
            let gif = try GIFReader(path: path)
            return browserTimed { try gif.next().map { ($0.bitmap, $0.delay * 10) } }
        }
        var done = false
        return FrameReader {
            guard !done else { return nil }
            done = true
            return (
                FrameSequence.Frame(
                    start: 0, bitmap: try PNGCodec.read(path: path), label: (path as NSString).lastPathComponent),
                .infinity
            )
        }
    }
}

extension FrameReader {
    /// The longest frame (milliseconds) that Chromium and Firefox play as `browserShortFrame`.
    public static let browserShortestFrame = 10
    /// How long (milliseconds) a browser shows a frame that asks for `browserShortestFrame` or less.
    public static let browserShortFrame = 100

    /// A reader over an animation's decoder (each frame with the duration it asks for), timed
    /// as Chromium and Firefox play it: a frame asking for 10 ms or less (a GIF delay of 0 or 1
    /// cs) shows for 100 ms, and an animation of one frame is a still, shown at every time.
    /// Frames are labelled by their number.
    static func browserTimed(_ next: @escaping () throws -> (Bitmap, milliseconds: Int)?) -> FrameReader {
        var ahead: [(Bitmap, milliseconds: Int)] = []
        var exhausted = false
        var clock = 0
        var i = 0
        return FrameReader {
            while ahead.count < 2 && !exhausted {
                if let frame = try next() { ahead.append(frame) } else { exhausted = true }
            }
            guard !ahead.isEmpty else { return nil }
            let (bitmap, asked) = ahead.removeFirst()
            defer { i += 1 }
            let frame = FrameSequence.Frame(start: Double(clock) / 1000, bitmap: bitmap, label: "frame \(i)")
            if i == 0 && ahead.isEmpty { return (frame, .infinity) }
            clock += asked <= browserShortestFrame ? browserShortFrame : asked
            return (frame, Double(clock) / 1000)
        }
    }
}

extension FrameSequence {
    /// Loads every frame of the recording at `path` (any file `FrameReader.open` reads); one
    /// without a frame is an error.
    public static func load(_ path: String, fps: Double = 30) throws -> FrameSequence {
        let sequence: FrameSequence
        do {
            sequence = try FrameSequence(reading: FrameReader.open(path, fps: fps))
        } catch let error as FrameBudgetError {
            throw DecodeError.unreadable(path: path, reason: "\(error)")
        }
        guard !sequence.frames.isEmpty else { throw DecodeError.unreadable(path: path, reason: "no frames") }
        return sequence
    }

    /// Every frame `reader` gives, held in memory; the duration ends where its last frame does
    /// (0 for a still, which has no end). A frame the same as the one before shares its
    /// pixels, so a recording's holds cost nothing; past `maximumHeldBytes` of distinct
    /// frames it is an error that says how much the recording decodes to, not a failed
    /// allocation.
    public init(reading reader: FrameReader, maximumHeldBytes: Int = FrameSequence.maximumHeldBytes) throws {
        var frames: [Frame] = []
        var end = 0.0
        var held = 0
        while case (var frame, let until)? = try reader.next() {
            if let last = frames.last, last.bitmap == frame.bitmap {
                frame.bitmap = last.bitmap
            } else {
                held += frame.bitmap.width * frame.bitmap.height * 4
                if held > maximumHeldBytes {
                    throw FrameBudgetError(
                        frames: frames.count + 1, width: frame.bitmap.width, height: frame.bitmap.height,
                        maximumBytes: maximumHeldBytes)
                }
            }
            frames.append(frame)
            end = until
        }
        self.init(frames: frames, duration: end.isFinite ? end : 0)
    }

    /// The most bytes of decoded frames a recording may hold: half of what this process may
    /// have (its address-space limit, or the machine's memory), leaving the rest for rendering
    /// and measuring.
    public static var maximumHeldBytes: Int {
        var limit = rlimit()
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return physical / 2
        }
        return min(physical, Int(clamping: limit.rlim_cur)) / 2
    }
}

/// A recording that decodes to more frames than memory holds.
public struct FrameBudgetError: Error, CustomStringConvertible {
    public var frames: Int
    public var width: Int
    public var height: Int
    public var maximumBytes: Int

    public var description: String {
        let gb = Double(maximumBytes) / 1e9
        return
            "decodes to more than \(frames - 1) distinct frames of \(width)x\(height), past the \(String(format: "%.1f", gb)) GB this process can hold (half its memory); cut the recording shorter or scale it down (ffmpeg -t, -vf scale)"
    }
}

extension SceneRenderer {
    /// Loads the scene's images from their PNG files, within the scene's pixel budget, and
    /// plans it.
    public init(_ scene: PreparedScene) throws {
        try self.init(scene) { image, budget in Texture(try PNGCodec.read(path: image.path, maximumPixels: budget)) }
    }
}
