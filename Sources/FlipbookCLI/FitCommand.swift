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

    var request: FitRequest {
        var request = FitRequest(
            scene: input.scene, storyboard: input.storyboard, config: input.config, assignments: input.assignments,
            keys: fit, ranges: Dictionary(range.map { ($0.key, $0.range) }, uniquingKeysWith: { $1 }), track: track,
            crop: crop, frameInterval: input.frameInterval)
        request.recording = input.recording
        request.output = output
        request.sheet = sheet
        return request
    }

    func validate() throws {
        guard !fit.isEmpty, fit.allSatisfy({ !$0.isEmpty }) else {
            throw ValidationError("--fit: name at least one param, e.g. --fit present.duration,present.dampingRatio")
        }
        do { try request.checkOutputs() } catch let error as FitError { throw ValidationError(error.message(\.flag)) }
    }

    func run() throws {
        let report: FitReport
        do {
            report = try presenting { try request.run(MeasureEvents(warning: warn)) }
        } catch let error as FitError {
            throw CLIError("\(input.recording): \(error.message(\.flag))")
        }
        print(report.text)
        for line in report.written { print(line) }
    }
}
