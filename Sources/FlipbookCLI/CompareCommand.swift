import ArgumentParser
import Flipbook
import Foundation

/// `flipbook compare`: two renders, frame by frame, by time.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two renders (GIF, WebP, MP4, PNG or a folder of PNG frames), matching frames by time.",
        discussion: """
            Every moment at which either side starts a frame is compared, so a GIF whose holds \
            were merged still lines up. The default is exact. Exit status: 0 when they match, 1 \
            when they differ, 2 on an error (an unreadable input, or a tolerance that is not a \
            number in range: tolerances fail closed).
            """)

    @Argument(
        help: "The render under test: .gif, .webp, .mp4 (any video FFmpeg reads), .png, or a folder of .png frames.")
    var actual: String

    @Argument(help: "What it should look like.")
    var expected: String

    @OptionGroup(title: "Tolerance")
    var tolerances: ToleranceOptionGroup

    @Option(
        help: ArgumentHelp("Frames per second of PNG folders, 0.1...1000 (default 30).", valueName: "fps"),
        transform: { try boundedNumber($0, 0.1...1000) })
    var fps = 30.0

    @Option(
        help: ArgumentHelp(
            "Write actual, expected, diff and side-by-side PNGs of each differing frame here.", valueName: "folder"))
    var diff: String?

    @Flag(
        help:
            "Print one JSON report (every moment's times, differing pixels and largest difference; the verdict and the tolerance) instead of text."
    )
    var json = false

    func validate() throws {
        if let diff {
            try presenting {
                try OutputRules(
                    outputs: [.init(option: "--diff", path: diff, isFolder: true)],
                    inputs: [.init(what: "actual", path: actual), .init(what: "expected", path: expected)]
                ).check()
            }
        }
    }

    func run() throws {
        let tolerance = tolerances.tolerance
        let a: FrameReader, e: FrameReader
        do {
            a = try FrameReader.open(actual, fps: fps)
            e = try FrameReader.open(expected, fps: fps)
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw ExitCode(2)
        }
        var written: [String] = []
        var writeError: Error? = nil
        // Frames are read as they are compared; a terminal sees how far it has got.
        let tty = isatty(STDERR_FILENO) != 0
        var compared = 0
        let progress: (Double) -> Void = { t in
            compared += 1
            if tty && compared % 10 == 0 {
                StandardStreams.writeError(String(format: "\rcomparing: %.2f s", t))
            }
        }
        let comparison = Result {
            try SequenceComparison.compare(a, e, tolerance: tolerance, progress: progress) {
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
        }
        if tty { StandardStreams.writeError("\r\u{1B}[K") }
        let report: ComparisonReport
        do {
            report = try comparison.get()
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw ExitCode(2)
        }
        if let writeError {
            StandardStreams.writeError("error: \(writeError)\n")
            throw ExitCode(2)
        }
        // Nothing compared is no match: an input with no frame is an error, named.
        if report.moments.isEmpty {
            StandardStreams.writeError(
                "error: nothing to compare: \(actual) and \(expected) have no frame at any same time\n")
            throw ExitCode(2)
        }
        if json {
            print(try jsonReport(report, diffs: written.isEmpty ? nil : diff))
        } else {
            print(describe(report))
            if !written.isEmpty { print("wrote \(written.count) x {actual,expected,diff,sheet}.png to \(diff!)") }
        }
        if !report.passes { throw ExitCode(1) }
    }

    /// The report as JSON, for CI systems: times in seconds, every moment compared.
    func jsonReport(_ r: ComparisonReport, diffs: String?) throws -> String {
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
            actual: actual, expected: expected, verdict: r.passes ? "match" : "different",
            tolerance: Tolerances(
                maxChannelDelta: r.tolerance.maxChannelDelta, maxDifferingFraction: r.tolerance.maxDifferingFraction,
                perceptual: r.tolerance.perceptual),
            momentsCompared: r.moments.count, momentsDiffering: r.moments.filter { !$0.passes }.count,
            oneSided: r.oneSided.count,
            firstDifference: r.firstFailure.map(\.time),
            worstDifference: r.worst.flatMap { $0.difference!.differingPixels > 0 ? $0.time : nil },
            diffs: diffs, moments: moments)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    func describe(_ r: ComparisonReport) -> String {
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
        var lines = ["compare \(actual) with \(expected): \(r.tolerance.summary)"]
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
        return lines.joined(separator: "\n")
    }
}
