import Comparison
import Foundation

/// One comparison of two renders, frame by frame by time: `flipbook compare` parses its
/// flags into one, and ``run(_:)`` reads both as it compares and writes the pictures of
/// each differing frame where asked.
public struct CompareRequest: Sendable {
    /// The render under test: a GIF, WebP, APNG, MP4 (any video FFmpeg reads), a PNG, or a
    /// folder of PNG frames.
    public var actual: String
    /// What it should look like, in any of the same forms.
    public var expected: String
    public var tolerance: Tolerance = .exact
    /// Frames per second of PNG folders, which carry no times.
    public var fps: Double = 30
    /// A folder for actual, expected, diff and side-by-side PNGs of each differing frame.
    public var diff: String?

    public init(actual: String, expected: String) {
        self.actual = actual
        self.expected = expected
    }

    /// Refuses a diff folder that is an input or a file it may not write.
    public func check() throws {
        guard let diff else { return }
        try OutputRules(
            outputs: [.init(option: "--diff", path: diff, isFolder: true)],
            inputs: [.init(what: "actual", path: actual), .init(what: "expected", path: expected)]
        ).check()
    }

    /// Compares the two, holding at most two frames of each; `progress` hears each moment's
    /// time as it is compared. Throws `CompareError` when nothing could be compared.
    public func run(progress: @escaping (Double) -> Void = { _ in }) throws -> CompareReport {
        try check()
        let a: FrameReader, e: FrameReader
        do {
            a = try FrameReader.open(actual, fps: fps)
            e = try FrameReader.open(expected, fps: fps)
        } catch {
            throw CompareError("\(error)")
        }
        var written: [String] = []
        var writeError: Error? = nil
        let report: ComparisonReport
        do {
            report = try SequenceComparison.compare(a, e, tolerance: tolerance, progress: progress) {
                t, actualFrame, expectedFrame, _ in
                guard let diff, writeError == nil else { return }
                do {
                    let stem = (diff as NSString).appendingPathComponent(String(format: "t%08.3fs", t))
                    try FailureArtifacts.write(
                        actual: actualFrame, expected: expectedFrame, tolerance: tolerance, to: stem)
                    written.append(stem)
                } catch {
                    writeError = error
                }
            }
        } catch {
            throw CompareError("\(error)")
        }
        if let writeError { throw CompareError("\(writeError)") }
        // Nothing compared is no match: an input with no frame is an error, named.
        if report.moments.isEmpty {
            throw CompareError("nothing to compare: \(actual) and \(expected) have no frame at any same time")
        }
        return CompareReport(request: self, comparison: report, diffsWritten: written.count)
    }
}

/// Why a comparison has no verdict: an input that does not read, a diff that cannot be
/// written, or no moment to compare.
public struct CompareError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// What a comparison found, as text for people and JSON for CI systems.
public struct CompareReport: Sendable {
    public var request: CompareRequest
    public var comparison: ComparisonReport
    /// How many differing frames' pictures were written to the diff folder.
    public var diffsWritten: Int

    public var passes: Bool { comparison.passes }

    /// The verdict, the tolerance and each differing moment (the first 50), for people.
    public var text: String {
        let r = comparison
        func when(_ t: Double) -> String { String(format: "%.2f s", t) }
        func detail(_ m: ComparisonReport.Moment) -> String {
            guard let d = m.difference else {
                return
                    "\(when(m.time)): only in \(m.actual == nil ? "expected (\(m.expected!))" : "actual (\(m.actual!))")"
            }
            if d.sizeMismatch {
                return "\(when(m.time)): actual \(m.actual!) and expected \(m.expected!) differ in size (\(d.sizes))"
            }
            let worst = d.worstPixel.map { " at (\($0.x), \($0.y))" } ?? ""
            return
                "\(when(m.time)): actual \(m.actual!) vs expected \(m.expected!): \(d.differingPixels) pixels differ "
                + String(format: "(%.3f%%)", d.differingFraction * 100)
                + ", largest channel difference \(d.maxChannelDelta)\(worst)"
        }
        var lines = ["compare \(request.actual) with \(request.expected): \(r.tolerance.summary)"]
        var failing = r.moments.filter { !$0.passes }
        lines.append(
            "  \(r.moments.count) moments compared, \(failing.count) differ (\(r.oneSided.count) on one side only)")
        // Two renders at other sizes differ in every frame for one reason, said once.
        let sizes = Set(r.moments.compactMap { $0.difference.map { $0.sizeMismatch ? $0.sizes : "" } })
        if sizes.count == 1, let only = sizes.first, !only.isEmpty {
            lines.append("  every frame differs in size: \(only)")
            failing = failing.filter { $0.difference == nil }
        } else {
            if let first = r.firstFailure { lines.append("  first difference at " + detail(first)) }
            if let worst = r.worst, let d = worst.difference, d.differingPixels > 0 {
                lines.append("  worst frame at " + detail(worst))
            }
        }
        for m in failing.prefix(50) { lines.append("    " + detail(m)) }
        if failing.count > 50 { lines.append("    … and \(failing.count - 50) more") }
        lines.append(r.passes ? "MATCH" : "DIFFERENT")
        if diffsWritten > 0, let diff = request.diff {
            lines.append("wrote \(diffsWritten) x {actual,expected,diff,sheet}.png to \(diff)")
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON report: times in seconds, every moment compared, the verdict and the tolerance.
    public func json() throws -> String {
        struct Moment: Encodable {
            var time: Double
            var actual: String?
            var expected: String?
            var differingPixels: Int?
            var differingFraction: Double?
            var maxChannelDelta: Int?
            var worstPixel: [Int]?
            var sizeMismatch: Bool
            /// Both sizes, [width, height], where they differ.
            var actualSize: [Int]?
            var expectedSize: [Int]?
            var passes: Bool
        }
        struct Tolerances: Encodable {
            var maxChannelDelta: Int
            var maxDifferingFraction: Double
            var perceptual: Double?
        }
        struct Report: Encodable {
            var actual: String
            var expected: String
            var verdict: String
            var tolerance: Tolerances
            var momentsCompared: Int
            var momentsDiffering: Int
            var oneSided: Int
            var firstDifference: Double?
            var worstDifference: Double?
            var diffs: String?
            var moments: [Moment]
        }
        let r = comparison
        let moments = r.moments.map { m in
            Moment(
                time: m.time, actual: m.actual, expected: m.expected,
                differingPixels: m.difference?.differingPixels,
                differingFraction: m.difference?.differingFraction, maxChannelDelta: m.difference?.maxChannelDelta,
                worstPixel: m.difference?.worstPixel.map { [$0.x, $0.y] },
                sizeMismatch: m.difference?.sizeMismatch ?? false,
                actualSize: m.difference.flatMap { $0.sizeMismatch ? [$0.actualWidth, $0.actualHeight] : nil },
                expectedSize: m.difference.flatMap { $0.sizeMismatch ? [$0.width, $0.height] : nil }, passes: m.passes)
        }
        let report = Report(
            actual: request.actual, expected: request.expected, verdict: r.passes ? "match" : "different",
            tolerance: Tolerances(
                maxChannelDelta: r.tolerance.maxChannelDelta, maxDifferingFraction: r.tolerance.maxDifferingFraction,
                perceptual: r.tolerance.perceptual),
            momentsCompared: r.moments.count, momentsDiffering: r.moments.filter { !$0.passes }.count,
            oneSided: r.oneSided.count,
            firstDifference: r.firstFailure.map(\.time),
            worstDifference: r.worst.flatMap { $0.difference!.differingPixels > 0 ? $0.time : nil },
            diffs: diffsWritten > 0 ? request.diff : nil, moments: moments)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}
