import ArgumentParser
import Fit
import Flipbook
import Foundation

/// `flipbook fit`: a scene's params fitted to a screen recording.
struct FitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract:
            "Fit a scene's params to a screen recording: UIKit values that move as it does (a YAML config with -o, a PNG sheet).",
        discussion: """
            Searches the params named by --fit within their declared ranges (Nelder–Mead, UIKit's own \
            curves), finds where in the storyboard the recording starts, and prints each value before \
            and after with the residual. With --track LAYER it follows that layer through the \
            recording (translation and scale) and compares where it is with where the plan puts it; \
            without, it compares whole frames.
            Examples:
              flipbook fit card.gif app-store-card --storyboard promo \\
                --fit demo.position.duration,demo.position.dampingRatio --track card-1
              flipbook fit close.mp4 my-scene.yaml --fit close.duration \\
                --crop 0,60,750,1334 -o fitted.yaml --sheet fit.png
            """)

    @OptionGroup var input: RecordingOptionGroup

    @Option(
        help: ArgumentHelp(
            "The params to fit: numbers, seconds, or an animation's duration, dampingRatio or velocity.",
            valueName: "key[,key…]"),
        transform: { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } })
    var fit: [String]

    @Option(
        help: ArgumentHelp(
            "A range to search for KEY, where the scene declares none (repeatable).", valueName: "key=low,high"),
        transform: FitCommand.parseRange)
    var range: [KeyRange] = []

    @Option(help: ArgumentHelp("Follow this layer through the recording (repeatable).", valueName: "layer"))
    var track: [String] = []

    @Option(
        help: ArgumentHelp("The part of each recording frame that is the screen, in its pixels.", valueName: "x,y,w,h"),
        transform: FitCommand.parseCrop)
    var crop: Crop?

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Write the fitted values as a config here.", valueName: "fitted.yaml"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Write the recording, the render before and the render after, row above row.", valueName: "fit.png"))
    var sheet: String?

    struct KeyRange: Sendable {
        var key: String
        var range: ClosedRange<Double>
    }

    static func parseRange(_ text: String) throws -> KeyRange {
        let parts = text.split(separator: "=", maxSplits: 1)
        let bounds = parts.count == 2 ? parts[1].split(separator: ",").compactMap { Double($0) } : []
        guard parts.count == 2, bounds.count == 2, bounds[0] < bounds[1], bounds.allSatisfy(\.isFinite) else {
            throw ValidationError("--range \(text): expected key=low,high with low below high")
        }
        return KeyRange(key: String(parts[0]), range: bounds[0]...bounds[1])
    }

    static func parseCrop(_ text: String) throws -> Crop {
        let v = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 4, v[0] >= 0, v[1] >= 0, v[2] > 1, v[3] > 1 else {
            throw ValidationError("--crop \(text): expected x,y,width,height in the recording's pixels")
        }
        return Crop(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    func validate() throws {
        guard !fit.isEmpty, fit.allSatisfy({ !$0.isEmpty }) else {
            throw ValidationError("--fit: name at least one param, e.g. --fit present.duration,present.dampingRatio")
        }
        if let output, !(output.hasSuffix(".yaml") || output.hasSuffix(".yml")) {
            throw ValidationError("-o \(output): a config, ending in .yaml")
        }
        if let sheet, !sheet.lowercased().hasSuffix(".png") { throw ValidationError("--sheet \(sheet): a .png") }
    }

    func run() throws {
        let started = Date()
        var outputs: [OutputRules.Output] = []
        if let output { outputs.append(.init(option: "-o", path: output)) }
        if let sheet { outputs.append(.init(option: "--sheet", path: sheet)) }
        try presenting { try OutputRules(outputs: outputs, inputs: input.inputs()).check() }

        let frames = try FrameSequence.load(input.recording)
        if input.frameInterval == nil, let rate = CaptureRate.suspected(in: frames) {
            warn(rate.advice(for: input.recording, measuring: "the fit's durations are"))
        }
        let request = FitRequest(
            scene: input.scene, storyboard: input.storyboard, config: input.config, assignments: input.assignments,
            keys: fit,
            ranges: Dictionary(range.map { ($0.key, $0.range) }, uniquingKeysWith: { $1 }), track: track, crop: crop,
            frameInterval: input.frameInterval)
        let images = ImageCache()
        let result: FitResult
        do {
            result = try Fitter.fit(request, recording: frames, images: images)
        } catch let error as FitError {
            throw CLIError("\(input.recording): \(error.message { "--\($0.rawValue)" })")
        }
        let seconds = Date().timeIntervalSince(started)
        print(report(result, frames: frames, seconds: seconds))
        if let output { try writeConfig(result, to: output) }
        if let sheet {
            try PNGCodec.write(result.sheet(for: request, recording: frames, images: images), to: sheet)
            print("wrote \(sheet): the recording, the render before and the render after, row above row")
        }
    }

    func report(_ r: FitResult, frames: FrameSequence, seconds: Double) -> String {
        let interval =
            r.frameTimes.count > 1 ? (r.frameTimes.last! - r.frameTimes.first!) / Double(r.frameTimes.count - 1) : 0
        var lines = [
            "fit \(input.scene)\(input.storyboard.map { " --storyboard \($0)" } ?? "") to \(input.recording): \(frames.frames.count) frames"
                + (interval > 0 ? String(format: " about %.3f s apart", interval) : ""),
            String(
                format: "  the recording starts %.3f s into the storyboard (%.3f s before the fit)", r.offsetAfter,
                r.offsetBefore),
        ]
        if let screen = r.foundScreen { lines.append("  " + screen.foundScreen(option: "--crop")) }
        let width = r.values.map(\.key.count).max() ?? 0
        let unit = r.residuals.first?.unit ?? ""
        for v in r.values {
            lines.append(
                "  \(v.key.padding(toLength: width, withPad: " ", startingAt: 0))  \(FitResult.text(v.before)) → \(FitResult.text(v.after))"
                    + "   within \(FitResult.text(v.determined.lowerBound))...\(FitResult.text(v.determined.upperBound))"
                    + String(format: " (residual +%.2f %@)", r.rise, unit)
                    + "; searched \(v.range.lowerBound.plainText)...\(v.range.upperBound.plainText)")
            if v.isWeak {
                lines.append(
                    "    warning: \(v.key) is weakly determined: it moves the motion little over that range, so the recording does not pin it down"
                )
            }
        }
        for res in r.residuals {
            let what = res.layer.map { "layer \($0), edges" } ?? "whole frame, mean difference"
            lines.append(
                String(
                    format: "  residual (%@): RMS %.2f → %.2f %@, worst %.2f → %.2f %@, over the same %d instants",
                    what,
                    res.rmsBefore, res.rmsAfter, res.unit, res.worstBefore, res.worstAfter, res.unit, res.instants))
            if res.layer != nil && res.beyondCap > 0 {
                lines.append(
                    "    at \(res.beyondCap) of them the tracker found something else than the layer (another layer over it) more than 24 pt away; each counts 24 pt"
                )
            }
        }
        let tracked = r.residuals.compactMap(\.layer)
        lines.append(
            "  compared \(r.comparedInstants) of "
                + (tracked.isEmpty
                    ? "the recording's \(r.motionInstants) instants of motion"
                    : "the \(r.motionInstants) instants at which \(tracked.joined(separator: ", ")) \(tracked.count == 1 ? "moves" : "move") on screen")
                + (r.explainedMotion.map {
                    String(format: ", whose changes the fit's render matches by %.0f%%", $0 * 100)
                } ?? "")
        )
        lines.append(String(format: "  %d evaluations in %.1f s", r.evaluations, seconds))
        lines.append("  --set " + r.assignments.joined(separator: " --set "))
        for (key, code) in r.code {
            lines.append("\(key) in UIKit:")
            lines += code.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// The fitted values over the base config's text (if any), each changing only its own text.
    func writeConfig(_ r: FitResult, to path: String) throws {
        let base = try input.config.map { try ValueFile(scene: input.scene, config: $0).currentText() ?? "" } ?? ""
        let values = Dictionary(r.values.map { ($0.key, FitResult.text($0.after)) }, uniquingKeysWith: { $1 })
        var text = try ValueFile(scene: input.scene, config: path).text(saving: values, over: base)
        if base.isEmpty {
            text =
                "# \(input.scene)\(input.storyboard.map { " \($0)" } ?? ""), fitted to \(input.recording) by flipbook fit\n"
                + text
        }
        try AtomicOutput.write(Array(text.utf8), to: path)
        print("wrote \(path): use it with --config \(path)")
    }
}
