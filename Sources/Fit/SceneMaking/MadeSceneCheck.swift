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
        /// Where something moves whole (`ScreenChange.movesWhole`: a sliding screen, a band's
        /// pages): how far the render draws it from where the recording shows it, in the
        /// recording's pixels along its way (`SlideOffset`), RMS over the frames that show enough
        /// of it, and the worst.
        public var offset: Offset?
    }

    /// What moves whole in a change, its distance from the recording's, over the change.
    public struct Offset: Sendable {
        /// Pixels of the recording, RMS and the worst, and when.
        public var rms: Double
        public var worst: Double
        public var worstAt: Double
        /// Each frame's mean difference (levels of 255, as `rms`) with the screen's part of it
        /// shifted into place, RMS over the change: how unlike the recording the render is but
        /// for where the screen is.
        public var inPlace: Double
        public var frames: Int
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
    ///
    /// Where `changes` (the scene's, one per change of the outline) move something whole (slide
    /// a screen or a panel, scroll a band), its offset is measured too, in pixels of the
    /// recording: `pixelsPerPoint` of them a point.
    init(scene: String, outline: RecordingOutline, changes made: [MadeChange] = [], pixelsPerPoint: Double = 1) throws {
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
        // What of each change moves whole (`ScreenChange.movesWhole`), as the render draws it at
        // each frame (or, for a band, the band it shows in): its box at the outline's width
        // (under a status bar that stays, which does not move), and how far the recording's frame
        // shows it from there.
        let names = MadeSceneText.paramNames(of: made)
        typealias Bounds = (x: Double, y: Double, width: Double, height: Double)
        let moving = outline.changes.indices.map {
            c -> (layer: String, axis: RecordingFeature.Axis, bar: Double, band: Bounds?)? in
            guard c < made.count else { return nil }
            let change = made[c]
            if let slide = change.kind.slide {
                return (
                    MadeSceneText.layer(slide.next ? change.to : change.from), slide.axis, change.statusBar ?? 0, nil
                )
            }
            if change.kind.slidesPanel {
                return (PanelLayers(base: names[c].animation).panel, .y, 0, nil)
            }
            // A band's pages move along its shift, inside the band, which stays: placed where the
            // band shows its next page.
            guard change.kind == .scroll, let shift = change.shift, shift.count == 2, let rect = change.rect,
                rect.count == 4
            else { return nil }
            let band = (rect[0], rect[1], rect[2], rect[3])
            return (ScrollLayers(base: names[c].animation).to, abs(shift[0]) >= abs(shift[1]) ? .x : .y, 0, band)
        }
        let k = Double(SceneMaker.outlineWidth) / transition.canvas.width
        var offsets = [[Int: (shift: Double, residual: Double, gain: Double)]](
            repeating: [:], count: outline.changes.count)
        var differences: [Double] = []
        try transition.forEachFrame(at: starts.map { max(0, $0) }) { frame in
            let i = differences.count, picture = outline.pictures[i]
            differences.append(picture.meanDifference(frame.bitmap))
            // The render's picture, made once for the frame where a change moves in it (a frame
            // can end one change and start the next).
            var render: LumaImage?
            for (c, change) in outline.changes.enumerated() where (change.before...change.after).contains(i) {
                guard let part = moving[c], let b = transition.drawnBounds(ofLayer: part.layer, at: starts[i]),
                    let box = SlideOffset.box(
                        inside: part.band ?? (b.x, b.y, b.width, b.height), k: k, bar: part.bar, width: picture.width,
                        height: picture.height)
                else { continue }
                let drawn = render ?? LumaImage(frame.bitmap, width: picture.width, height: picture.height)
                render = drawn
                offsets[c][i] = SlideOffset.shift(render: drawn, picture: picture, box: box, axis: part.axis)
            }
        }
        func stretch(_ frames: ClosedRange<Int>) -> Stretch {
            let worst = frames.max { differences[$0] < differences[$1] }!
            return Stretch(
                seconds: starts[frames.lowerBound]...starts[frames.upperBound],
                rms: rootMeanSquare(frames.map { differences[$0] }),
                worst: differences[worst], worstAt: starts[worst])
        }
        changes = outline.changes.map { stretch($0.before...$0.after) }
        // In the recording's pixels: the outline's width is the screen's.
        let pixels = pixelsPerPoint / k
        for (c, found) in offsets.enumerated() where !found.isEmpty {
            let frames = found.keys.sorted()
            let worst = frames.max { abs(found[$0]!.shift) < abs(found[$1]!.shift) }!
            let change = outline.changes[c]
            changes[c].offset = Offset(
                rms: rootMeanSquare(frames.map { found[$0]!.shift * pixels }), worst: abs(found[worst]!.shift) * pixels,
                worstAt: starts[worst],
                inPlace: rootMeanSquare(
                    (change.before...change.after).map { differences[$0] - (found[$0]?.gain ?? 0) }),
                frames: frames.count)
        }
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
