import Foundation

import struct Flipbook.Transition

/// A made scene's render against the recording it was made from, frame by frame: the mean
/// difference of each frame's screen (of 255 levels, at the outline's width), over each change
/// and over the whole recording.
public struct MadeSceneCheck: Sendable {
    public struct Stretch: Sendable {
        public var seconds: ClosedRange<Double>
        public var rms: Double
        public var worst: Double
        public var worstAt: Double
    }

    /// Per change, over the frames it moves in.
    public var changes: [Stretch]
    public var rms: Double
    public var worst: Double
    public var worstAt: Double

    init(changes: [Stretch], rms: Double, worst: Double, worstAt: Double) {
        (self.changes, self.rms, self.worst, self.worstAt) = (changes, rms, worst, worstAt)
    }

    /// The render of `scene` against the recording's frames as `outline` holds them.
    init(scene: String, outline: RecordingOutline) throws {
        let transition = try Transition(scene, width: SceneMaker.outlineWidth)
        let starts = outline.starts
        var differences: [Double] = []
        try transition.forEachFrame(at: starts) {
            differences.append(outline.pictures[differences.count].meanDifference($0.bitmap))
        }
        func stretch(_ frames: ClosedRange<Int>) -> Stretch {
            let values = frames.map { differences[$0] }
            let worst = frames.max { differences[$0] < differences[$1] }!
            return Stretch(
                seconds: starts[frames.lowerBound]...starts[frames.upperBound],
                rms: (values.map { $0 * $0 }.reduce(0, +) / Double(values.count)).squareRoot(),
                worst: differences[worst], worstAt: starts[worst])
        }
        changes = outline.changes.map { stretch($0.before...$0.after) }
        let whole = stretch(0...(differences.count - 1))
        (rms, worst, worstAt) = (whole.rms, whole.worst, whole.worstAt)
    }
}
