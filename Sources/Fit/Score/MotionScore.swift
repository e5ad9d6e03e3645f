import Foundation

/// How one feature's track in the render follows its track in the recording: the error at the
/// same instants, the lag that aligns them best, and the stretches in which the recording
/// moves. Tracks are positions per frame, nil where the feature was not measured.
enum MotionScore {
    /// A recording's feature moves in a frame where it is more than this many pixels from the
    /// frame before.
    static let movingPixels = 0.75

    /// `values` at a fractional index, linear between neighbours; nil if either is.
    static func interpolate(_ values: [Double?], _ x: Double) -> Double? {
        let i = Int(x.rounded(.down))
        if i < 0 || i + 1 > values.count - 1 {
            return i >= 0 && i < values.count && x == Double(i) ? values[i] : nil
        }
        guard let a = values[i], let b = values[i + 1] else { return nil }
        return a + (b - a) * (x - Double(i))
    }

    /// The RMS of ours (`lag` frames later) less the recording over `frames`; nil where fewer
    /// than half of them (at least 3) are compared, or a `required` one is not.
    static func rms(_ recording: [Double?], _ ours: [Double?], lag: Double, frames: [Int], required: Set<Int> = [])
        -> Double?
    {
        var sum = 0.0, n = 0
        for i in frames {
            if let p = recording[i], let o = interpolate(ours, Double(i) + lag) {
                sum += (o - p) * (o - p)
                n += 1
            } else if required.contains(i) {
                return nil
            }
        }
        guard n >= max(3, frames.count / 2) else { return nil }
        return (sum / Double(n)).squareRoot()
    }

    /// The lag in frames (ours later: positive), in twentieths of a frame up to `reach`, that
    /// best aligns ours with the recording over `frames`, and the RMS there. A lag counts only
    /// where every frame in which the recording moves is compared: one that shifts ours off the
    /// end of its track would otherwise score the still frames alone.
    static func bestLag(_ recording: [Double?], _ ours: [Double?], frames: [Int], reach: Double = 4)
        -> (lag: Double, rms: Double)?
    {
        var moving = Set<Int>()
        var before: Double?
        for i in frames {
            guard let p = recording[i] else { continue }
            if let before, abs(p - before) > movingPixels, interpolate(ours, Double(i)) != nil { moving.insert(i) }
            before = p
        }
        var best: (lag: Double, rms: Double)?
        let steps = Int(reach * 20)
        for k in -steps...steps {
            let lag = Double(k) / 20
            guard let r = rms(recording, ours, lag: lag, frames: frames, required: moving) else { continue }
            if let b = best, !(r < b.rms - 1e-9 || (abs(r - b.rms) < 1e-9 && abs(lag) < abs(b.lag))) { continue }
            best = (lag, r)
        }
        return best
    }

    /// Sorted frame indices as runs of consecutive ones.
    static func runs(_ frames: [Int]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for i in frames {
            if let last = out.last, last.upperBound == i {
                out[out.count - 1] = last.lowerBound..<(i + 1)
            } else {
                out.append(i..<(i + 1))
            }
        }
        return out
    }

    /// The stretches of frames in which the recording's feature moves (more than
    /// `movingPixels` a frame), joined across still gaps of up to `gap` frames and padded by
    /// `pad`.
    static func stretches(_ recording: [Double?], gap: Int = 2, pad: Int = 3) -> [Range<Int>] {
        var spans: [(Int, Int)] = []
        for i in recording.indices.dropFirst() {
            guard let a = recording[i], let b = recording[i - 1], abs(a - b) > movingPixels else { continue }
            if let last = spans.last, i - last.1 <= gap + 1 {
                spans[spans.count - 1].1 = i
            } else {
                spans.append((i - 1, i))
            }
        }
        return spans.map { max(0, $0.0 - pad)..<min(recording.count, $0.1 + pad + 1) }
    }

    /// The RMS and worst error (with its frame) over the frames measured in both, and how many.
    static func errors(_ recording: [Double?], _ ours: [Double?]) -> (
        rms: Double, worst: Double, worstFrame: Int, count: Int
    )? {
        var sum = 0.0, n = 0
        var worst: (Double, Int)?
        for i in 0..<min(recording.count, ours.count) {
            guard let p = recording[i], let o = ours[i] else { continue }
            let e = o - p
            sum += e * e
            n += 1
            if worst == nil || abs(e) > abs(worst!.0) { worst = (e, i) }
        }
        guard let worst else { return nil }
        return ((sum / Double(n)).squareRoot(), worst.0, worst.1, n)
    }
}

/// When each frame of a recording was drawn: a screen capture keeps, at each of its instants,
/// the last frame a 60 Hz display drew. At 25 fps that is every 2.4th display frame, 2 or 3
/// apart by turns, so a fast move steps unevenly, which a render at even instants cannot
/// follow; sampling ours where the capture sampled the display puts both at the same instants.
///
/// The display's phase against the capture and where our timeline sits on it (the lag) are
/// unknown: both are fitted per stretch of motion. Where the capture rate divides 60 the phase
/// is a constant shift, which the lag already finds.
public enum CaptureModel {
    public static let displayHz = 60.0
    /// The rate ours is rendered and tracked at between the display's instants.
    public static let fineFPS = 120.0
    static let phases = 10

    /// Whether a capture every `interval` seconds keeps display frames an uneven number apart.
    public static func stepsUnevenly(_ interval: Double) -> Bool {
        let ratio = interval * displayHz
        return abs(ratio - ratio.rounded()) > 1e-6
    }

    /// When the display frame that recorded frame `i` shows was drawn: the last vsync at or
    /// before the capture, vsyncs falling at (k − phase) / 60.
    static func drawnAt(_ i: Int, interval: Double, phase: Double) -> Double {
        ((Double(i) * interval * displayHz + phase + 1e-9).rounded(.down) - phase) / displayHz
    }

    /// Ours (tracked at `fineFPS`) at each recorded frame's display instant plus `lag` seconds,
    /// less the recording, over `frames`.
    static func errors(
        _ recording: [Double?], fine: [Double?], interval: Double, frames: [Int], phase: Double, lag: Double
    ) -> [Double] {
        frames.compactMap { i in
            guard let p = recording[i],
                let o = MotionScore.interpolate(fine, (drawnAt(i, interval: interval, phase: phase) + lag) * fineFPS)
            else { return nil }
            return o - p
        }
    }

    /// A stretch as captured: the display phase and lag that align ours best.
    public struct Fit: Sendable, Equatable, Codable {
        public var phase: Double
        /// Seconds, ours later: positive.
        public var lag: Double
        public var rms: Double
        public var worst: Double
    }

    /// The phase and lag (within ±`reach` seconds, by milliseconds) that best align ours with
    /// the recording over `frames`; nil where too few frames are measured in both.
    static func bestFit(_ recording: [Double?], fine: [Double?], interval: Double, frames: [Int], reach: Double = 0.16)
        -> Fit?
    {
        let ms = Int((reach * 1000).rounded())
        // No reach: the lag is held at half a display frame, where ours sits on the capture's
        // own instants on average, and only the phase is fitted (timing that is off still counts).
        let lags = reach == 0 ? [0.5 / displayHz] : (-ms...ms).map { Double($0) / 1000 }
        var best: (key: (Double, Double), fit: Fit)?
        for p in 0..<phases {
            let phase = Double(p) / Double(phases)
            for lag in lags {
                let e = errors(recording, fine: fine, interval: interval, frames: frames, phase: phase, lag: lag)
                guard e.count >= max(3, frames.count / 2) else { continue }
                let rms = (e.reduce(0) { $0 + $1 * $1 } / Double(e.count)).squareRoot()
                let key = (rms, abs(lag - lags[lags.count / 2]))
                if let b = best, !(key < b.key) { continue }
                let worst = e.reduce(e[0]) { abs($1) > abs($0) ? $1 : $0 }
                best = (key, Fit(phase: phase, lag: lag, rms: rms, worst: worst))
            }
        }
        return best?.fit
    }
}
