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

    var request: CompareRequest {
        var request = CompareRequest(actual: actual, expected: expected)
        request.tolerance = tolerances.tolerance
        request.fps = fps
        request.diff = diff
        return request
    }

    func validate() throws {
        try presenting { try request.check() }
    }

    func run() throws {
        // Frames are read as they are compared; a terminal sees how far it has got.
        let tty = isatty(STDERR_FILENO) != 0
        var compared = 0
        let result = Result {
            try request.run { t in
                compared += 1
                if tty && compared % 10 == 0 { StandardStreams.writeError(String(format: "\rcomparing: %.2f s", t)) }
            }
        }
        if tty { StandardStreams.writeError("\r\u{1B}[K") }
        let report: CompareReport
        do {
            report = try result.get()
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw ExitCode(2)
        }
        print(json ? try report.json() : report.text)
        if !report.passes { throw ExitCode(1) }
    }
}
