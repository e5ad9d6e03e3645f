import Foundation
import Raster

/// How two frame sequences compare, matched by time rather than by index: every moment at
/// which either side starts a frame is compared, so merged holds still line up.
public struct ComparisonReport: Sendable {
    public struct Moment: Sendable {
        /// Seconds from the start.
        public var time: Double
        public var actual: String?
        public var expected: String?
        /// nil when one side has no frame at this time.
        public var difference: FrameDifference?
        public var passes: Bool
    }

    public var tolerance: Tolerance
    public var moments: [Moment]

    /// Whether every moment passes; a comparison of nothing (no moment at all) never does.
    public var passes: Bool { !moments.isEmpty && moments.allSatisfy(\.passes) }
    public var firstFailure: Moment? { moments.first { !$0.passes } }
    /// The moment with the most differing pixels.
    public var worst: Moment? {
        moments.filter { $0.difference != nil }.max { $0.difference!.differingPixels < $1.difference!.differingPixels }
    }
    /// Moments that only one side has.
    public var oneSided: [Moment] { moments.filter { $0.difference == nil } }
}

public enum SequenceComparison {
    /// Frame starts closer than this (seconds) are the same moment: a centisecond, GIF's unit.
    public static let sameMoment = 0.01

    /// Compares `actual` with `expected` at every frame start of either.
    public static func compare(
        _ actual: FrameSequence, _ expected: FrameSequence, tolerance: Tolerance = .exact,
        keepFrames: ((Double, Bitmap, Bitmap, FrameDifference) -> Void)? = nil
    ) -> ComparisonReport {
        // In-memory readers do not fail.
        (try? compare(FrameReader(actual), FrameReader(expected), tolerance: tolerance, keepFrames: keepFrames))
            ?? ComparisonReport(tolerance: tolerance, moments: [])
    }

    /// Compares two readers as they read, holding at most two frames of each: the one showing
    /// and the next. `progress` hears each moment's time (seconds) as it is compared.
    public static func compare(
        _ actual: FrameReader, _ expected: FrameReader, tolerance: Tolerance = .exact,
        progress: ((Double) -> Void)? = nil,
        keepFrames: ((Double, Bitmap, Bitmap, FrameDifference) -> Void)? = nil
    ) throws -> ComparisonReport {
        var a = try Side(actual), e = try Side(expected)
        var moments: [ComparisonReport.Moment] = []
        // Containers keep time differently (GIF in centiseconds, WebP in milliseconds), so
        // starts less than a centisecond apart are one moment, compared once both have begun.
        func nextMoment() -> Double {
            let first = min(a.nextStart, e.nextStart), second = max(a.nextStart, e.nextStart)
            // Starts a whole centisecond apart stay two moments, whatever the rounding of their
            // decimal fractions.
            return second - first < SequenceComparison.sameMoment - 1e-9 ? second : first
        }
        var t = nextMoment()
        while t.isFinite {
            try a.advance(to: t)
            try e.advance(to: t)
            progress?(t)
            let fa = a.showing(at: t), fe = e.showing(at: t)
            if let fa, let fe {
                let d = FrameComparison.compare(fa.bitmap, fe.bitmap, tolerance: tolerance)
                let ok = d.passes
                if !ok { keepFrames?(t, fa.bitmap, fe.bitmap, d) }
                moments.append(.init(time: t, actual: fa.label, expected: fe.label, difference: d, passes: ok))
            } else if fa != nil || fe != nil {
                moments.append(.init(time: t, actual: fa?.label, expected: fe?.label, difference: nil, passes: false))
            }
            t = nextMoment()
        }
        // When the last frames stop showing is timing too: a last frame held 5 s where the
        // other holds it 0.5 s differs, from the moment the shorter one ends.
        // A still shows at every time and has no end to compare.
        if let (fa, endA) = a.current, let (fe, endE) = e.current, endA.isFinite, endE.isFinite,
            abs(endA - endE) >= SequenceComparison.sameMoment - 1e-9,
            moments.last.map({ $0.time < min(endA, endE) - 1e-9 }) ?? true
        {
            let end = min(endA, endE)
            moments.append(
                .init(
                    time: end, actual: endA > end ? fa.label : nil, expected: endE > end ? fe.label : nil,
                    difference: nil, passes: false))
        }
        return ComparisonReport(tolerance: tolerance, moments: moments)
    }

    /// One side of a comparison: the frame showing and the one after it.
    private struct Side {
        let reader: FrameReader
        var current: (FrameSequence.Frame, end: Double)?
        var ahead: (FrameSequence.Frame, end: Double)?

        init(_ reader: FrameReader) throws {
            self.reader = reader
            ahead = try reader.next()
        }

        var nextStart: Double { ahead?.0.start ?? .infinity }

        mutating func advance(to t: Double) throws {
            while let next = ahead, next.0.start <= t {
                current = next
                ahead = try reader.next()
            }
        }

        func showing(at t: Double) -> FrameSequence.Frame? {
            guard let (frame, end) = current, frame.start <= t, t < end else { return nil }
            return frame
        }
    }
}
