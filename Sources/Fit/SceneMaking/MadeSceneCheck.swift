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

    init(scene: String, source: RecordingSource, outline: RecordingOutline, crop: Crop, frameInterval: Double?) throws {
        let transition = try Transition(scene, width: SceneMaker.outlineWidth)
        var differences: [Double] = []
        let pass = try RecordingPass(source.open(), frameInterval: frameInterval) { bitmap -> LumaImage in
            let height = max(
                1, Int((Double(SceneMaker.outlineWidth) * Double(crop.height) / Double(crop.width)).rounded()))
            return LumaImage(bitmap, crop: crop, width: SceneMaker.outlineWidth, height: height)
        }
        for (picture, start) in zip(pass.kept, pass.starts) {
            let render = transition.frame(at: start).bitmap
            differences.append(
                LumaImage(render, width: picture.width, height: picture.height).meanDifference(picture))
        }
        func stretch(_ frames: ClosedRange<Int>) -> Stretch {
            let values = frames.map { differences[$0] }
            let worst = frames.max { differences[$0] < differences[$1] }!
            return Stretch(
                seconds: pass.starts[frames.lowerBound]...pass.starts[frames.upperBound],
                rms: (values.map { $0 * $0 }.reduce(0, +) / Double(values.count)).squareRoot(),
                worst: differences[worst], worstAt: pass.starts[worst])
        }
        changes = outline.changes.map { stretch($0.before...$0.after) }
        let whole = stretch(0...(differences.count - 1))
        (rms, worst, worstAt) = (whole.rms, whole.worst, whole.worstAt)
    }
}
