import struct Flipbook.FrameSequence

/// A recording whose stored frame times misstate its capture rate. A GIF stores delays in
/// hundredths of a second, so a 30 fps capture is most often written 3 cs a frame (33.3 fps,
/// playing 11 % fast) and a 60 fps one 2 cs (50 fps, 17 % slow); a fit of such a recording finds
/// durations off by as much, unless it is told the real interval (`FitRequest.frameInterval`).
public struct CaptureRate: Sendable, Equatable {
    /// The interval the file stores between frames, and the capture's likely real one.
    public var stored: Double
    public var likely: Double

    /// How much faster the file plays than the capture did (0.11: 11 % fast).
    public var playsFast: Double { likely / stored - 1 }

    /// The stored intervals that a common capture rate cannot have, and that rate's interval.
    static let suspects: [(stored: Double, likely: Double)] = [(0.03, 1.0 / 30), (0.02, 1.0 / 60)]

    /// The share of a recording's frame steps that must be the suspect interval.
    static let share = 0.8

    /// The likely capture rate of `recording`, when nearly every step between its frames is
    /// one a capture rate cannot have; nil when its times look like a capture's.
    public static func suspected(in recording: FrameSequence) -> CaptureRate? {
        suspected(starts: recording.frames.map(\.start))
    }

    /// The likely capture rate of frames starting at `starts`, as ``suspected(in:)``.
    static func suspected(starts: [Double]) -> CaptureRate? {
        let steps = zip(starts, starts.dropFirst()).map { $1 - $0 }
        guard steps.count >= 4 else { return nil }
        for s in suspects {
            let matching = steps.filter { abs($0 - s.stored) < 0.0005 }.count
            if Double(matching) >= share * Double(steps.count) {
                return CaptureRate(stored: s.stored, likely: s.likely)
            }
        }
        return nil
    }

    /// The step a recording's frames were captured at: the longest of `median` (its median
    /// step) and the common capture rates' steps, down to 60 Hz's, on which every frame starts,
    /// within the half centisecond a GIF rounds its times to (a 30 fps capture stored 3, 3, 4 cs
    /// apart is 1/30 s, where its median step says 0.03 s; a 60 fps one whose GIF dropped
    /// frames to keep 2 cs, stored 2, 3, 2, 3 cs apart, is 1/60 s); else `median`.
    public static func step(starts: [Double], median: Double) -> Double {
        guard let first = starts.first else { return median }
        let shortest: Double = min(median, 1.0 / 60) - 1e-9
        let rates: [Double] = commonRates.map { 1 / $0 }
        let candidates: [Double] = ([median] + rates).filter { $0 >= shortest }.sorted(by: >)
        return candidates.first { step in
            starts.allSatisfy { s in
                let n = ((s - first) / step).rounded()
                return abs(s - first - n * step) <= 0.0051
            }
        } ?? median
    }

    /// The capture rate's step and each frame's place on its grid (frame `i` captured at
    /// `starts[0] + slots[i] * step`), where every frame starts on the grid of a rate of 60 Hz
    /// or slower, within the half centisecond a GIF rounds a time to; nil otherwise.
    static func grid(starts: [Double]) -> (step: Double, slots: [Double])? {
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }.filter { $0 > 0.001 }
        let median = gaps.sorted().dropFirst(gaps.count / 2).first ?? 1.0 / 30
        let capture = step(starts: starts, median: max(median, 1.0 / 240))
        guard let first = starts.first, capture >= 1.0 / 60 - 1e-9 else { return nil }
        let slots = starts.map { (($0 - first) / capture).rounded() }
        guard zip(starts, slots).allSatisfy({ abs($0 - first - $1 * capture) <= 0.0051 }) else { return nil }
        return (capture, slots)
    }

    /// When each frame starting at `starts` was captured: on its capture rate's grid
    /// (``grid(starts:)``), else as stored. A time within a microsecond of its place is kept
    /// as stored.
    static func captureTimes(starts: [Double]) -> [Double] {
        guard let (step, slots) = grid(starts: starts), let first = starts.first else { return starts }
        return zip(starts, slots).map { stored, slot in
            let captured = first + slot * step
            return abs(captured - stored) < 1e-6 ? stored : captured
        }
    }

    /// Frame rates captures are made at.
    static let commonRates: [Double] = [120, 60, 50, 30, 25, 24, 20, 15, 12, 10]

    /// What a measurement of the recording at `path` should be told: how fast it plays, and the
    /// `--frame-interval` that gives its real times.
    public func advice(for path: String, measuring what: String) -> String {
        String(
            format:
                "%@: its frames are stored %.2f s apart (%.1f fps), as a %.0f fps capture is most often written; if it was captured at %.0f fps, it plays %.0f %% %@ and %@ off by as much: --frame-interval %.6f gives its real times",
            path, stored, 1 / stored, 1 / likely, 1 / likely, abs(playsFast) * 100, playsFast > 0 ? "fast" : "slow",
            what, likely)
    }
}

extension FrameSequence {
    /// The recording with its times scaled so that the step most of its frames are stored at
    /// lasts `interval` seconds: how a capture's real rate is given where the file misstates
    /// it. A frame stored for several steps (a still stretch a GIF keeps as one frame) keeps its
    /// length in steps. Nil: the recording as it is.
    public func retimed(frameInterval interval: Double?) -> FrameSequence {
        let (starts, end) = CaptureRate.retimed(starts: frames.map(\.start), duration: duration, interval: interval)
        return FrameSequence(
            frames: zip(frames, starts).map { Frame(start: $1, bitmap: $0.bitmap, label: $0.label) }, duration: end)
    }
}

extension CaptureRate {
    /// Frames starting at `starts` and ending at `duration` retimed as
    /// ``FrameSequence/retimed(frameInterval:)`` retimes them.
    static func retimed(starts: [Double], duration: Double, interval: Double?) -> ([Double], Double) {
        guard let interval, !starts.isEmpty else { return (starts, duration) }
        // Steps counted to a tenth of a millisecond; steps under a millisecond are one moment.
        var counts: [Int: Int] = [:]
        for step in zip(starts, starts.dropFirst()).map({ $1 - $0 }) where step >= 0.001 {
            counts[Int((step * 10_000).rounded()), default: 0] += 1
        }
        guard let usual = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key else {
            return (starts.indices.map { Double($0) * interval }, Double(starts.count) * interval)
        }
        // The step the frames were stored at: a 30 fps capture stored 3, 3, 4 cs apart is 1/30 s,
        // where its most usual step says 0.03 s.
        let stored = CaptureRate.step(starts: starts, median: Double(usual) / 10_000)
        let scale = interval / stored
        let first = starts[0]
        return (starts.map { first + ($0 - first) * scale }, first + (duration - first) * scale)
    }
}
