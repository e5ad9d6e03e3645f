import Foundation
import Raster

/// How two frame sequences compare, matched by time rather than by index: every moment at
/// which either side starts a frame is compared, so merged holds still line up.
public struct ComparisonReport: Sendable {
    public struct Moment: Sendable {
        /// Milliseconds from the start.
        public var time: Double
        public var actual: String?
        public var expected: String?
        /// nil when one side has no frame at this time.
        public var difference: FrameDifference?
        public var passes: Bool
    }

    public var tolerance: Tolerance
    public var moments: [Moment]

    public var passes: Bool { moments.allSatisfy(\.passes) }
    public var firstFailure: Moment? { moments.first { !$0.passes } }
    /// The moment with the most differing pixels.
    public var worst: Moment? {
        moments.filter { $0.difference != nil }.max { $0.difference!.differingPixels < $1.difference!.differingPixels }
    }
    /// Moments that only one side has.
    public var oneSided: [Moment] { moments.filter { $0.difference == nil } }
}

public enum SequenceComparison {
    /// Compares `actual` with `expected` at every frame start of either.
    public static func compare(_ actual: FrameSequence, _ expected: FrameSequence, tolerance: Tolerance = .exact,
                               keepFrames: ((Double, Bitmap, Bitmap, FrameDifference) -> Void)? = nil) -> ComparisonReport {
        let times = Set(actual.frames.map(\.start) + expected.frames.map(\.start)).sorted()
        var moments: [ComparisonReport.Moment] = []
        for t in times {
            let a = actual.frame(at: t), e = expected.frame(at: t)
            guard let a, let e else {
                moments.append(.init(time: t, actual: a?.label, expected: e?.label, difference: nil, passes: false))
                continue
            }
            let d = FrameComparison.compare(a.bitmap, e.bitmap, tolerance: tolerance)
            let ok = d.passes(tolerance)
            if !ok { keepFrames?(t, a.bitmap, e.bitmap, d) }
            moments.append(.init(time: t, actual: a.label, expected: e.label, difference: d, passes: ok))
        }
        return ComparisonReport(tolerance: tolerance, moments: moments)
    }
}
