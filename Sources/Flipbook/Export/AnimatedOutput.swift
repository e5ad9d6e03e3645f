import Codecs
import Foundation
import Raster
import Video

/// A GIF, an animated WebP or an MP4 being written, frame by frame, whichever the path's
/// extension asks for: what an export and `flipbook encode` hand their frames to.
public final class AnimatedOutput {
    /// What was written: a line about it, its size, and the GIF encoder's figures.
    public struct Written: Sendable {
        public var line: String
        public var bytes: Int
        public var gif: GIFSummary?
    }

    private let add: (Bitmap, Double) throws -> Void
    private let finish: (Double, Int) throws -> Written

    /// The largest GIF the places previews go accept without trouble (GitHub's image proxy).
    public static let gifSizeHint = 5_000_000

    public init(path: String, width: Int, height: Int, fps: Double, encoding: EncodingOptions) throws {
        if path.lowercased().hasSuffix(".mp4") {
            let mp4 = encoding.mp4
            let encoder = try MP4Encoder(path: path, width: width, height: height, fps: fps, options: mp4)
            add = encoder.add
            finish = { end, _ in
                let s = try encoder.finish(at: end)
                return Written(
                    line:
                        "wrote \(path): \(ByteSize.text(s.bytes)), \(s.frames) frames, \(String(format: "%.2f", s.seconds)) s, H.264, CRF \(mp4.crf)",
                    bytes: s.bytes, gif: nil)
            }
        } else if path.lowercased().hasSuffix(".webp") {
            let encoder = try WebPEncoder(path: path, width: width, height: height, options: encoding.webp)
            add = encoder.add
            finish = { end, inputFrames in
                let s = try encoder.finish(at: end)
                let kind = encoding.quality.map { "lossy at quality \($0)" } ?? "lossless"
                let merged = inputFrames - s.frames
                return Written(
                    line:
                        "wrote \(path): \(ByteSize.text(s.bytes)), \(s.frames) frames from \(inputFrames)\(merged > 0 ? " (\(merged) identical merged)" : ""), \(String(format: "%.2f", Double(s.milliseconds) / 1000)) s, \(kind)",
                    bytes: s.bytes, gif: nil)
            }
        } else {
            let encoder = try GIFEncoder(path: path, width: width, height: height, options: encoding.gif)
            add = encoder.add
            finish = { end, inputFrames in
                let s = try encoder.finish(at: end)
                return Written(line: Self.describe(s, inputFrames: inputFrames), bytes: s.bytes, gif: s)
            }
        }
    }

    /// Adds the frame that starts at `time` seconds.
    public func add(_ frame: Bitmap, at time: Double) throws { try add(frame, time) }

    /// Ends the last frame at `end` seconds and writes the file.
    public func finish(at end: Double, inputFrames: Int) throws -> Written { try finish(end, inputFrames) }

    /// Whether `written` is a GIF too big for where previews go.
    public static func isOverHint(_ written: Written) -> Bool { written.gif != nil && written.bytes > gifSizeHint }

    /// The advice for a GIF over `gifSizeHint`.
    public static func sizeHint(_ written: Written) -> ExportText {
        "\(ByteSize.text(written.bytes)) is over the \(ByteSize.text(gifSizeHint)) that GitHub's image proxy serves; "
            + "\(.maxSize) 5MB finds the best setting that fits, and \(.output) out.webp \(.quality) 90 is a much smaller file"
    }

    /// One line about a written GIF.
    static func describe(_ s: GIFSummary, inputFrames: Int) -> String {
        let seconds = Double(s.centiseconds) / 100
        var notes: [String] = []
        if s.merged > 0 { notes.append("\(s.merged) identical merged") }
        if s.dropped > 0 { notes.append("\(s.dropped) dropped for 2 cs delays") }
        let extra = notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"
        return
            "wrote \(s.path): \(ByteSize.text(s.bytes)), \(s.frames) frames from \(inputFrames)\(extra), \(String(format: "%.2f", seconds)) s"
    }
}

extension ByteSize {
    /// A byte count for people: `1,811,008 B (1.81 MB)`.
    public static func text(_ n: Int) -> String {
        let grouped = n.formatted(.number.grouping(.automatic)).replacingOccurrences(of: "\u{202F}", with: ",")
        if n >= 1_000_000 { return "\(grouped) B (\(String(format: "%.2f", Double(n) / 1e6)) MB)" }
        if n >= 1_000 { return "\(grouped) B (\(String(format: "%.1f", Double(n) / 1e3)) kB)" }
        return "\(n) B"
    }
}
