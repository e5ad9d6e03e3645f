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
        let starts = recording.frames.map(\.start)
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
}
