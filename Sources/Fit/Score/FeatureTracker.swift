import Foundation

/// Measures one feature in every frame of one side: the recording's, or the render's placed on
/// the recording's frame. Templates and colours read at a moment come from the side measured.
package struct FeatureTracker {
    let feature: RecordingFeature
    /// How many frames the side has.
    let frames: Int
    /// Seconds between the frames.
    let interval: Double
    /// Frame `i` of the side.
    let frame: (Int) -> ScoreImage

    package init(feature: RecordingFeature, frames: Int, interval: Double, frame: @escaping (Int) -> ScoreImage) {
        self.feature = feature
        self.frames = frames
        self.interval = interval
        self.frame = frame
    }

    /// The feature's position in each frame, nil where it is not measured or not found; with
    /// `within`, only in those stretches of seconds.
    package func positions(within: [ClosedRange<Double>]? = nil) -> [Double?] {
        let measure = prepared()
        return (0..<frames).map { i -> Double? in
            let t = Double(i) * interval
            if let during = feature.during, !(during.lowerBound - 1e-9...during.upperBound + 1e-9).contains(t) {
                return nil
            }
            if let within, !within.contains(where: { $0.contains(t) }) { return nil }
            return measure(frame(i))
        }
    }

    /// The frame at `seconds`, or the last.
    private func moment(_ seconds: Double) -> ScoreImage {
        frame(Self.momentFrame(seconds, frames: frames, interval: interval))
    }

    /// Of `frames` frames `interval` apart, the one at `seconds`, or the last.
    private static func momentFrame(_ seconds: Double, frames: Int, interval: Double) -> Int {
        min(frames - 1, Int((seconds / interval).rounded(.toNearestOrEven)))
    }

    /// Whether ``positions(within:)`` reads frame `i` of `frames` frames `interval` apart
    /// (without `within`): it is in the feature's seconds, or a moment it takes a colour or a
    /// look from.
    package static func reads(_ feature: RecordingFeature, frame i: Int, of frames: Int, interval: Double) -> Bool {
        if let during = feature.during,
            !(during.lowerBound - 1e-9...during.upperBound + 1e-9).contains(Double(i) * interval)
        {
            return feature.moments.contains { momentFrame($0, frames: frames, interval: interval) == i }
        }
        return true
    }

    /// The measurement, with what it reads at a moment read once.
    private func prepared() -> (ScoreImage) -> Double? {
        switch feature.kind {
        case .extent(let start, let to, let axis, let source, let until):
            let colour: (r: Int, g: Int, b: Int)
            switch source {
            case .given(let r, let g, let b): colour = (r, g, b)
            case .at(let x, let y, let t): colour = moment(t).pixel(x, y)
            }
            return { image in
                let begin = axis == .y ? start.y : start.x
                let end = max(0, min(to, (axis == .y ? image.height : image.width) - 1))
                let step = end > begin ? 1 : -1
                for p in stride(from: begin, through: end, by: step) {
                    let c = axis == .y ? image.pixel(start.x, p) : image.pixel(p, start.y)
                    let far =
                        max(abs(c.r - colour.r), abs(c.g - colour.g), abs(c.b - colour.b))
                        > RecordingFeature.colourTolerance
                    if far != until { return Double(p) }
                }
                return Double(end)
            }
        case .edge(let line, let axis, let from, let to, let band, let test):
            return { image in
                let (length, across) = axis == .x ? (image.width, image.height) : (image.height, image.width)
                let end = max(0, min(to, length - 1))
                let step = to > from ? 1 : -1
                let side = max(0, line - band)...min(across - 1, line + band)
                for p in stride(from: from, through: end, by: step)
                where side.contains(where: { test.passes(axis == .x ? image.pixel(p, $0) : image.pixel($0, p)) }) {
                    return p == from ? nil : Double(p)
                }
                return nil
            }
        case .level(let rect, let from, let to):
            func mean(_ image: ScoreImage) -> (Double, Double, Double) {
                var sum = (0, 0, 0)
                for y in rect.y..<rect.y + rect.height {
                    for x in rect.x..<rect.x + rect.width {
                        let p = image.pixel(x, y)
                        sum = (sum.0 + p.r, sum.1 + p.g, sum.2 + p.b)
                    }
                }
                let n = Double(rect.width * rect.height)
                return (Double(sum.0) / n, Double(sum.1) / n, Double(sum.2) / n)
            }
            let a = mean(moment(from)), b = mean(moment(to))
            let d = (b.0 - a.0, b.1 - a.1, b.2 - a.2)
            let length = d.0 * d.0 + d.1 * d.1 + d.2 * d.2
            // Two moments of one colour give no scale to measure on.
            guard length >= 1 else { return { _ in nil } }
            return { image in
                let c = mean(image)
                return 100 * ((c.0 - a.0) * d.0 + (c.1 - a.1) * d.1 + (c.2 - a.2) * d.2) / length
            }
        case .shift(let rect, let at, let axis, let search):
            let k = RecordingFeature.coarse
            let template = moment(at).luma().cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            let coarseTemplate = template.reduced(by: k)
            return { image in
                let luma = image.luma()
                // Errors at each offset `d` around `around`, the template laid at the rect's place
                // divided by `scale`, moved d along the axis. With `bounded`, an offset's error is
                // left unfinished (infinity) once it is worse than a match or than the best so far:
                // it can be neither.
                func offsets(
                    _ plane: LumaPlane, _ t: LumaPlane, around: Int, radius: Int, scale: Int, bounded: Bool = true
                ) -> [(Int, Double)] {
                    let x0 = rect.x / scale, y0 = rect.y / scale
                    let limit = RecordingFeature.matchLimit * RecordingFeature.matchLimit * Double(t.width * t.height)
                    var bound = bounded ? Int(limit) : .max
                    return (around - radius...around + radius).compactMap { d in
                        let (x, y) = axis == .x ? (x0 + d, y0) : (x0, y0 + d)
                        guard let sum = plane.squaredDifference(t, x: x, y: y, bound: bound) else { return nil }
                        guard sum <= bound else { return (d, .infinity) }
                        bound = sum
                        return (d, plane.rms(sum, of: t))
                    }
                }
                func best(_ found: [(Int, Double)]) -> (Int, Double)? {
                    found.reduce(nil) { b, e in e.1.isFinite && (b == nil || e.1 < b!.1) ? e : b }
                }
                guard
                    let guess = best(
                        offsets(
                            luma.reduced(by: k), coarseTemplate, around: 0, radius: search / k, scale: k,
                            bounded: false))
                else { return nil }
                var fine = offsets(luma, template, around: guess.0 * k, radius: k + 1, scale: 1)
                if best(fine).map({ $0.1 > RecordingFeature.matchLimit }) ?? true {
                    // Fine detail can alias away at the coarse size: every offset is looked at.
                    fine = offsets(luma, template, around: 0, radius: search, scale: 1)
                }
                guard let (d, e) = best(fine), e <= RecordingFeature.matchLimit else { return nil }
                // A parabola through the squared errors either side puts the match between pixels;
                // a side left unfinished is measured whole.
                var offset = Double(d)
                let errors = Dictionary(fine, uniquingKeysWith: { a, _ in a })
                func whole(_ side: Int) -> Double? {
                    guard let error = errors[side] else { return nil }
                    if error.isFinite { return error }
                    let (x, y) = axis == .x ? (rect.x + side, rect.y) : (rect.x, rect.y + side)
                    return luma.rmsDifference(template, x: x, y: y)
                }
                if let a = whole(d - 1), let c = whole(d + 1) {
                    let (a2, b2, c2) = (a * a, e * e, c * c)
                    if a2 + c2 - 2 * b2 > 0 { offset += 0.5 * (a2 - c2) / (a2 + c2 - 2 * b2) }
                }
                return Double(axis == .x ? rect.x : rect.y) + offset
            }
        }
    }
}
