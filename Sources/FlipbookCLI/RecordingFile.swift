import Flipbook
import Foundation

/// A recording read whole, as `compare` reads any input: a GIF, WebP, MP4 (or other video
/// FFmpeg reads) or folder of PNG frames, with each frame's real time.
enum RecordingFile {
    static func read(_ path: String) throws -> FrameSequence {
        let reader = try CompareCommand.open(path, fps: 30)
        var frames: [FrameSequence.Frame] = []
        var end = 0.0
        while let (frame, until) = try reader.next() {
            frames.append(frame)
            end = until
        }
        guard !frames.isEmpty else { throw CLIError("\(path): no frames") }
        return FrameSequence(frames: frames, duration: end.isFinite ? end : 0)
    }
}
