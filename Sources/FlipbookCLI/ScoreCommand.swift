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

    func validate() throws {
        if features == nil && track.isEmpty {
            throw ValidationError("Missing --features features.yaml or --track layer: what to follow")
        }
        if !track.isEmpty && fitStroke != nil {
            throw ValidationError("--fit-stroke fits the features file's features; leave out --track")
        }
        if window != nil && grid.isEmpty && fitStroke == nil {
            throw ValidationError("--window ranks a --grid or bounds a --fit-stroke; pass --grid key=v1,v2")
        }
        if fitStroke != nil && (window == nil || !grid.isEmpty) {
            throw ValidationError("--fit-stroke fits the stroke over --window t0,t1, without --grid")
        }
        if let fps, !(fps >= 1 && fps <= 120) { throw ValidationError("--fps \(fps): expected a number in 1...120") }
        if let sideBySide, AnimationFormat.named(by: sideBySide) == nil {
            throw ValidationError(
                "--side-by-side \(sideBySide): a \(AnimationFormat.sentence(AnimationFormat.all.map { $0.extensions[0] }))"
            )
        }
        if let sheet, !sheet.lowercased().hasSuffix(".png") { throw ValidationError("--sheet \(sheet): a .png") }
        if (sideBySide != nil || sheet != nil) && (!grid.isEmpty || fitStroke != nil) {
            throw ValidationError("--side-by-side and --sheet show one score; leave out --grid and --fit-stroke")
        }
    }

    func run() throws {
        let file = try features.map(FeatureFile.load) ?? FeatureFile()
        let frames = try FrameSequence.load(input.recording)
        if input.frameInterval == nil, let rate = CaptureRate.suspected(in: frames) {
            warn(rate.advice(for: input.recording, measuring: "its lags and lengths are"))
        }
        var request = ScoreRequest(scene: input.scene, features: file.features)
        request.storyboard = input.storyboard
        request.config = input.config
        request.assignments = input.assignments
        request.screen = screen ?? file.screen
        request.track = track
        request.frameInterval = input.frameInterval
        request.fps = fps
        request.sideBySide = sideBySide
        request.sheet = sheet
        let inputs = try input.inputs() + (features.map { [OutputRules.Input(what: "--features", path: $0)] } ?? [])
        var outputs: [OutputRules.Output] = []
        if let sideBySide { outputs.append(.init(option: "--side-by-side", path: sideBySide)) }
        if let sheet { outputs.append(.init(option: "--sheet", path: sheet)) }
        try presenting { try OutputRules(outputs: outputs, inputs: inputs).check() }
        do {
            try presenting { try report(request, frames) }
        } catch let error as FitError {
            throw CLIError("\(input.recording): \(error.message { "--\($0.rawValue)" })")
        }
    }

    func report(_ request: ScoreRequest, _ frames: FrameSequence) throws {
        let name = (input.recording as NSString).lastPathComponent
        if let fitStroke, let window {
            let dimension = try Transition(
                input.scene, storyboard: input.storyboard, config: input.config, set: input.assignments
            ).canvas.height
            let fit = try Scorer.fitStroke(
                request, feature: fitStroke, window: window, dimension: dimension, recording: frames)
            return print(json ? try Self.json(fit) : fit.report(title: name))
        }
        if !grid.isEmpty {
            let ranked = try Scorer.rank(request, grid: grid, window: window, recording: frames)
            return print(
                json ? try Self.json(ranked) : ranked.table(title: name, keys: grid.map(\.key), window: window))
        }
        let result = try Scorer.score(request, recording: frames)
        if json { return print(try Self.json(result)) }
        print(
            String(
                format: "%@ against %@%@: the recording %.2f s, ours %.2f s (%.2f)", input.recording, input.scene,
                input.storyboard.map { " --storyboard \($0)" } ?? "", result.recordingSeconds, result.renderSeconds,
                result.renderSeconds / result.recordingSeconds))
        if let screen = result.foundScreen { print(screen.foundScreen(option: "--screen")) }
        print(result.table(title: name))
        for line in result.written { print(line) }
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
