import Codecs
import Raster
import Video

/// A GIF, an animated WebP or an MP4 being written, frame by frame: what `render` and
/// `encode` hand their frames to, whichever the output's extension asks for.
final class AnimatedOutput {
    /// What was written, in one line, and the GIF encoder's figures for `--stats`.
    struct Written {
        var line: String
        var bytes: Int
        var gif: GIFSummary?
    }

    private let add: (Bitmap, Double) throws -> Void
    private let finish: (Double, Int) throws -> Written

    /// The largest GIF the places previews go accept without trouble (GitHub's image proxy).
    static let gifSizeHint = 5_000_000

    init(path: String, width: Int, height: Int, fps: Double, options: GIFOptionGroup) throws {
        if path.lowercased().hasSuffix(".mp4") {
            var mp4 = MP4Options()
            if let quality = options.quality { mp4.crf = MP4Options.crf(quality: quality) }
            let encoder = try MP4Encoder(path: path, width: width, height: height, fps: fps, options: mp4)
            add = encoder.add
            finish = { end, _ in
                let s = try encoder.finish(at: end)
                return Written(
                    line:
                        "wrote \(path): \(byteString(s.bytes)), \(s.frames) frames, \(String(format: "%.2f", s.seconds)) s, H.264, CRF \(mp4.crf)",
                    bytes: s.bytes, gif: nil)
            }
        } else if path.lowercased().hasSuffix(".webp") {
            let encoder = try WebPEncoder(path: path, width: width, height: height, options: options.webpOptions)
            add = encoder.add
            finish = { end, inputFrames in
                let s = try encoder.finish(at: end)
                let kind = options.quality.map { "lossy at quality \($0)" } ?? "lossless"
                let merged = inputFrames - s.frames
                return Written(
                    line:
                        "wrote \(path): \(byteString(s.bytes)), \(s.frames) frames from \(inputFrames)\(merged > 0 ? " (\(merged) identical merged)" : ""), \(String(format: "%.2f", Double(s.milliseconds) / 1000)) s, \(kind)",
                    bytes: s.bytes, gif: nil)
            }
        } else {
            let encoder = try GIFEncoder(path: path, width: width, height: height, options: options.options)
            add = encoder.add
            finish = { end, inputFrames in
                let s = try encoder.finish(at: end)
                return Written(line: describe(s, inputFrames: inputFrames), bytes: s.bytes, gif: s)
            }
        }
    }

    /// Adds the frame that starts at `time` seconds.
    func add(_ frame: Bitmap, at time: Double) throws { try add(frame, time) }

    /// Ends the last frame at `end` seconds and writes the file; `hint` says when a GIF is
    /// too big for where previews go, and how to make it smaller.
    func finish(at end: Double, inputFrames: Int, hint: Bool = true) throws -> Written {
        let written = try finish(end, inputFrames)
        if hint && written.gif != nil && written.bytes > Self.gifSizeHint {
            warn(
                "\(byteString(written.bytes)) is over the \(byteString(Self.gifSizeHint)) that GitHub's image proxy serves; "
                    + "--max-size 5MB finds the best setting that fits, and -o out.webp --quality 90 is a much smaller file"
            )
        }
        return written
    }
}
