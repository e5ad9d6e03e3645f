import Codecs
import Foundation
import Raster

/// An animation being written, frame by frame, in the format the path's extension names
/// (`AnimationFormat`): what an export and `flipbook encode` hand their frames to.
public final class AnimatedOutput {
    /// What was written: a line about it, its size, and the GIF encoder's figures.
    public struct Written: Sendable {
        public var line: String
        public var bytes: Int
        public var gif: GIFSummary?
    }

    private let writer: AnimationWriter

    /// The largest GIF the places previews go accept without trouble (GitHub's image proxy).
    public static let gifSizeHint = 5_000_000

    public init(path: String, width: Int, height: Int, fps: Double, encoding: EncodingOptions) throws {
        let format = AnimationFormat.named(by: path) ?? AnimationFormat.all[0]
        writer = try format.open(path, width, height, fps, encoding)
    }

    /// Adds the frame that starts at `time` seconds.
    public func add(_ frame: Bitmap, at time: Double) throws { try writer.add(frame, time) }

    /// Ends the last frame at `end` seconds and writes the file.
    public func finish(at end: Double, inputFrames: Int) throws -> Written { try writer.finish(end, inputFrames) }

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
