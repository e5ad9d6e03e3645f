import Flipbook
import Foundation

/// A recording read whole, as `compare` reads any input: a GIF, WebP, MP4 (or other video
/// FFmpeg reads) or folder of PNG frames, with each frame's real time.
enum RecordingFile {
    static func read(_ path: String) throws -> FrameSequence {
        let frames = try FrameSequence(reading: CompareCommand.open(path, fps: 30))
        guard !frames.frames.isEmpty else { throw CLIError("\(path): no frames") }
        return frames
    }
}
