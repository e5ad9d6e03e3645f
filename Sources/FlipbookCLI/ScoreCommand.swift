import ArgumentParser
import Fit
import Flipbook
import Foundation

/// `flipbook score`: how closely a storyboard moves like a recording, feature by feature.
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract:
            "Score a storyboard against a screen recording: how far and how late each feature is (a table or JSON, a side-by-side GIF, WebP or MP4, a PNG sheet).",
        discussion: """
            Follows each feature of the features file (a bar's edge, a sliding patch, a card's edge) \
            frame by frame in the recording and in the render placed on the recording's frame, each \
            measured on its own pixels, and prints per feature the RMS and worst error in pixels at \
            the same instants, the lag that aligns the two best, and the same for each stretch in \
            which the recording moves. Where the capture rate does not divide the display's 60 Hz \
            (a 25 fps capture), each stretch is also scored as captured: the render at the instants \
            the display drew what the recording shows.
            Examples:
              flipbook score inbox.gif expanding-cells --storyboard promo \\
                --features inbox-features.yaml
              flipbook score demo.mov app-store-card --track card-1
            """)

    @OptionGroup var input: RecordingOptionGroup

    @Option(help: ArgumentHelp("What to follow, in the recording's pixels (YAML).", valueName: "features.yaml"))
    var features: String?

    @Option(
        help: ArgumentHelp(
            "A layer of the scene to follow too, as fit tracks it, scored as its left edge, top edge and width (repeatable).",
            valueName: "layer"))
    var track: [String] = []

    @Option(
        help: ArgumentHelp(
            "Where the render's screen sits in the recording's frame, in its pixels (default: the features file's, or the whole frame).",
            valueName: "x,y,w,h"),
        transform: FitCommand.parseCrop)
    var screen: Crop?

    @Option(help: ArgumentHelp("The rate the render is sampled at (default: the recording's).", valueName: "fps"))
    var fps: Double?

    @OptionGroup var start: RecordingStartOptionGroup

    @Option(
        help: ArgumentHelp(
            "Render every combination of these values and rank them by the RMS of the tracked features and layers (repeatable).",
            valueName: "key=v1,v2,…"),
        transform: ScoreCommand.parseAxis)
    var grid: [GridAxis] = []

    @Option(
        help: ArgumentHelp("With --grid: only the recording's frames in these seconds count.", valueName: "t0,t1"),
        transform: ScoreCommand.parseWindow)
    var window: ClosedRange<Double>?

    @Option(
        help: ArgumentHelp(
            "Fit a drag's stroke (start, length, distance, Bézier profile) to this feature's motion over --window, and print it as a pull-by.",
            valueName: "feature"))
    var fitStroke: String?

    @Option(
        help: ArgumentHelp(
            "Write the recording and the render side by side at the recording's pace, marked where they differ most.",
            valueName: "side" + AnimationFormat.all.map { $0.extensions[0] }.joined(separator: "|")))
    var sideBySide: String?

    @Option(
        help: ArgumentHelp(
            "Write every frame of motion, the recording's row above the render's, marked where they differ most.",
            valueName: "sheet.png"))
    var sheet: String?

    @Flag(help: "Print the scores as JSON.")
    var json = false

    static func parseAxis(_ text: String) throws -> GridAxis {
        guard let axis = GridAxis(text) else {
            throw ValidationError("--grid \(text): expected key=value,value,… (e.g. swipe.velocity=3000,3600)")
        }
        return axis
    }

    static func parseWindow(_ text: String) throws -> ClosedRange<Double> {
        let v = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 2, v[0] >= 0, v[0] < v[1], v[1].isFinite else {
            throw ValidationError("--window \(text): expected two times in seconds, t0,t1, with 0 <= t0 < t1")
        }
        return v[0]...v[1]
    }

    var request: ScoreRequest {
        var request = ScoreRequest(scene: input.scene, features: [])
        request.recording = input.recording
        request.featuresFile = features
        request.storyboard = input.storyboard
        request.config = input.config
        request.assignments = input.assignments
        request.screen = screen
        request.track = track
        request.frameInterval = input.frameInterval
        request.fps = fps
        request.start = start.start
        request.sideBySide = sideBySide
        request.sheet = sheet
        request.grid = grid
        request.window = window
        request.fitStroke = fitStroke
        return request
    }

    func validate() throws {
        do { try request.check() } catch let error as ScoreError { throw ValidationError("\(error)") }
    }

    func run() throws {
        let report: ScoreReport
        do {
            report = try presenting { try request.run(MeasureEvents(warning: warn)) }
        } catch let error as FitError {
            throw CLIError("\(input.recording): \(error.message(\.flag))")
        }
        print(json ? try report.json() : report.text(title: (input.recording as NSString).lastPathComponent))
    }
}
