import Codecs
import Foundation
import Raster
import Render
import Scenes

/// Where frames and images meet files: decoding happens here, at the edge, and the stages
/// before it take bitmaps.
extension FrameReader {
    /// Opens `path`: a .gif or .webp (decoded a frame at a time), a .png (a still, which shows at every
    /// time), or a folder of .png frames played at `fps` (read as they are reached).
    public static func open(_ path: String, fps: Double = 30) throws -> FrameReader {
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
        if path.lowercased().hasSuffix(".webp") {
            let webp = try WebPReader(path: path)
            return animation {
                try webp.next().map {
                    // A still WebP's one frame has no duration: it shows at every time, as a PNG does.
                    let end = $0.endMilliseconds > $0.startMilliseconds ? Double($0.endMilliseconds) / 1000 : .infinity
                    return ($0.bitmap, Double($0.startMilliseconds) / 1000, end)
                }
            }
        }
        if path.lowercased().hasSuffix(".gif") {
            let gif = try GIFReader(path: path)
            return animation {
                try gif.next().map {
                    ($0.bitmap, Double($0.startCentiseconds) / 100, Double($0.startCentiseconds + $0.delay) / 100)
                }
            }
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
    /// A reader over an animation's decoder: frames labelled by their number, times in seconds.
    private static func animation(_ next: @escaping () throws -> (Bitmap, start: Double, end: Double)?)
        -> FrameReader
    {
        var i = 0
        return FrameReader {
            guard let (bitmap, start, end) = try next() else { return nil }
            defer { i += 1 }
            return (FrameSequence.Frame(start: start, bitmap: bitmap, label: "frame \(i)"), end)
        }
    }
}

extension FrameSequence {
    /// Loads every frame of `path`: a .gif, a .png, or a folder of .png frames played at `fps`.
    public static func load(_ path: String, fps: Double = 30) throws -> FrameSequence {
        try FrameSequence(reading: FrameReader.open(path, fps: fps))
    }

    /// Every frame `reader` gives, held in memory; the duration ends where its last frame does
    /// (0 for a still, which has no end).
    public init(reading reader: FrameReader) throws {
        var frames: [Frame] = []
        var end = 0.0
        while let (frame, until) = try reader.next() {
            frames.append(frame)
            end = until
        }
        self.init(frames: frames, duration: end.isFinite ? end : 0)
    }
}

extension SceneRenderer {
    /// Loads the scene's images from their PNG files, within the scene's pixel budget, and
    /// plans it.
    public init(_ scene: PreparedScene) throws {
        try self.init(scene) { image, budget in try PNGCodec.read(path: image.path, maximumPixels: budget) }
    }
}
