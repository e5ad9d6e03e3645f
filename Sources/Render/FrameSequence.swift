import Codecs
import Foundation
import Geometry
import Raster

/// Frames with the times they start showing: a decoded GIF, one PNG, or a folder of PNG
/// frames at an fps. Times are in milliseconds, so GIF centiseconds and fps both fit.
public struct FrameSequence: Sendable {
    public struct Frame: Sendable {
        public var start: Double
        public var bitmap: Bitmap
        /// Where it came from (a file, or a GIF's frame number), for reports.
        public var label: String

        public init(start: Double, bitmap: Bitmap, label: String) {
            self.start = start
            self.bitmap = bitmap
            self.label = label
        }
    }

    public var frames: [Frame]
    /// When the last frame stops showing, in milliseconds.
    public var duration: Double
    public var source: String

    public init(frames: [Frame], duration: Double, source: String) {
        self.frames = frames
        self.duration = duration
        self.source = source
    }

    /// Loads `path`: a .gif, a .png, or a folder of .png frames played at `fps`.
    public static func load(_ path: String, fps: Double = 30) throws -> FrameSequence {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CodecError.fileNotFound(path: path)
        }
        if isDirectory.boolValue {
            let files = try PNGSequence.files(in: path)
            guard !files.isEmpty else { throw CodecError.unreadable(path: path, reason: "no .png files in this folder") }
            let frames = try files.enumerated().map { i, file in
                Frame(start: folderFrameStart(i, fps: fps), bitmap: try PNGCodec.read(path: file), label: (file as NSString).lastPathComponent)
            }
            return FrameSequence(frames: frames, duration: folderFrameStart(files.count, fps: fps), source: path)
        }
        if path.lowercased().hasSuffix(".gif") {
            let gif = try GIFDecoder.read(path: path)
            let frames = gif.frames.enumerated().map { i, f in Frame(start: Double(f.start * 10), bitmap: f.bitmap, label: "frame \(i)") }
            return FrameSequence(frames: frames, duration: Double(gif.centiseconds * 10), source: path)
        }
        let still = try PNGCodec.read(path: path)
        return FrameSequence(frames: [Frame(start: 0, bitmap: still, label: (path as NSString).lastPathComponent)], duration: 0, source: path)
    }

    /// When frame `i` of a PNG folder starts, in milliseconds: at `i / fps` rounded to the
    /// centisecond, as a GIF of the same frames shows it, so that one render compares the same
    /// whichever container holds it.
    public static func folderFrameStart(_ i: Int, fps: Double) -> Double {
        (Double(i) * 100 / fps).rounded() * 10
    }

    /// The frame showing at `t` ms (nil past the end; a single still shows at every time).
    public func frame(at t: Double) -> Frame? {
        if frames.count == 1 && duration == 0 { return frames[0] }
        guard t < duration else { return nil }
        return frames.last { $0.start <= t }
    }
}
