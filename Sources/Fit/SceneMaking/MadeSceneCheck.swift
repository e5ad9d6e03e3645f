import Foundation

import Flipbook

/// A made scene's render against the recording it was made from, frame by frame: the mean
/// difference of each frame's screen (of 255 levels, at the outline's width), over each change
/// and over the whole recording.
public struct MadeSceneCheck: Sendable {
    public struct Stretch: Sendable {
        public var seconds: ClosedRange<Double>
        public var rms: Double
        public var worst: Double
        public var worstAt: Double
        /// Frames of the recording's rate by which the render, shifted, comes closest over the
        /// stretch (ours later than the recording is +), within `lagFrames`.
        public var lag = 0
    }

    /// The most frames a render's lag is looked for either way.
    static let lagFrames = 3

    /// Per change, over the frames it moves in.
    public var changes: [Stretch]
    public var rms: Double
    public var worst: Double
    public var worstAt: Double

    init(changes: [Stretch], rms: Double, worst: Double, worstAt: Double) {
        (self.changes, self.rms, self.worst, self.worstAt) = (changes, rms, worst, worstAt)
    }

    /// The render of `scene` (a made scene: its images are screens) against the recording's
    /// frames as `outline` holds them. It draws a copy whose screens are made small as
    /// `SceneMaker.compared` makes them, so that they show about the greys the recording's
    /// frames do at the outline's width.
    init(scene: String, outline: RecordingOutline) throws {
        let copy = try TemporaryFolder()
        defer { copy.remove() }
        let written = try SceneFile.load(path: scene).copy(to: copy.path)
        for path in written.dropFirst() {
            try SceneMaker.compared(try Bitmap(png: path)).writePNG(to: path)
        }
        let transition = try Transition(written[0], width: SceneMaker.outlineWidth)
        let starts = outline.starts
        /// Each frame's difference from the render `shift` frames later.
        func differencesFromRender(shifted shift: Int) throws -> [Double] {
            var differences: [Double] = []
            try transition.forEachFrame(at: starts.map { max(0, $0 + Double(shift) * outline.interval) }) {
                differences.append(outline.pictures[differences.count].meanDifference($0.bitmap))
            }
            return differences
        }
        func rootMeanSquare(_ values: [Double]) -> Double {
            (values.map { $0 * $0 }.reduce(0, +) / Double(values.count)).squareRoot()
        }
        let differences = try differencesFromRender(shifted: 0)
        func stretch(_ frames: ClosedRange<Int>) -> Stretch {
            let worst = frames.max { differences[$0] < differences[$1] }!
            return Stretch(
                seconds: starts[frames.lowerBound]...starts[frames.upperBound],
                rms: rootMeanSquare(frames.map { differences[$0] }),
                worst: differences[worst], worstAt: starts[worst])
        }
        changes = outline.changes.map { stretch($0.before...$0.after) }
        // Each change's lag: the shift whose render comes closest over its frames, the least
        // shift where two are as close.
        var closest = changes.map { ($0.rms, 0) }
        for shift in (-Self.lagFrames...Self.lagFrames).sorted(by: { abs($0) < abs($1) }) where shift != 0 {
            let shifted = try differencesFromRender(shifted: shift)
            for (k, change) in outline.changes.enumerated() {
                let r = rootMeanSquare((change.before...change.after).map { shifted[$0] })
                if r < closest[k].0 - 1e-9 { closest[k] = (r, shift) }
            }
        }
        for k in changes.indices { changes[k].lag = closest[k].1 }
        let whole = stretch(0...(differences.count - 1))
        (rms, worst, worstAt) = (whole.rms, whole.worst, whole.worstAt)
    }
}
