import Foundation
import Scenes

import Flipbook

/// What a measurement tells as it goes besides its report.
public struct MeasureEvents: Sendable {
    /// Something worth knowing that does not stop it (a recording whose times misstate its rate).
    public var warning: @Sendable (String) -> Void

    public init(warning: @escaping @Sendable (String) -> Void = { _ in }) { self.warning = warning }
}

/// The files a measurement of `recording` against a scene reads besides its own: the
/// recording, the config, the scene file and its images; what no output may be.
func measuredInputs(
    recording: String, scene: String, storyboard: String?, config: String?, assignments: [String]
) throws -> [OutputRules.Input] {
    let prepared = try SceneCatalog.prepare(
        scene, configFile: config, assignments: assignments, overrides: SceneOverrides(storyboard: storyboard))
    var inputs = [OutputRules.Input(what: "the recording", path: recording)]
    if let config { inputs.append(.init(what: "--config", path: config)) }
    inputs.append(.init(what: "the scene file", path: prepared.file))
    return inputs + prepared.images.map { OutputRules.Input(what: "\($0.key)", path: $0.path) }
}

/// What a fit of a recording found and wrote, for people.
public struct FitReport: Sendable {
    public var result: FitResult
    /// The report: values before and after with their ranges, residuals, the UIKit code.
    public var text: String
    /// One line for each file written.
    public var written: [String]
}

extension FitRequest {
    /// The files it writes, by the option that names each.
    var outputs: [OutputRules.Output] {
        [("-o", output), ("--sheet", sheet)].compactMap { option, path in path.map { .init(option: option, path: $0) } }
    }

    /// Refuses outputs of the wrong kind, or that are an input or a file it may not write.
    public func checkOutputs() throws {
        if let output, !(output.hasSuffix(".yaml") || output.hasSuffix(".yml")) {
            throw FitError.output(.output, path: output, expected: "a config, ending in .yaml")
        }
        if let sheet, !sheet.lowercased().hasSuffix(ExportFormat.pngExtension) {
            throw FitError.output(.sheet, path: sheet, expected: "a .png")
        }
    }

    /// Reads `recording`, fits, and writes the config and the sheet asked for.
    public func run(_ events: MeasureEvents = MeasureEvents()) throws -> FitReport {
        guard let recording else { throw FitError.noRecording }
        let started = Date()
        try checkOutputs()
        try OutputRules(
            outputs: outputs,
            inputs: measuredInputs(
                recording: recording, scene: scene, storyboard: storyboard, config: config, assignments: assignments)
        ).check()
        let source = RecordingSource(path: recording, events: events, measuring: "the fit's durations are")
        let images = ImageCache()
        let result = try Fitter.fit(self, source: source, images: images)
        let text = report(result, seconds: Date().timeIntervalSince(started))
        var written: [String] = []
        if let output {
            try writeConfig(result, to: output)
            written.append("wrote \(output): use it with --config \(output)")
        }
        if let sheet {
            try result.sheet(for: self, source: source, images: images).writePNG(to: sheet)
            written.append("wrote \(sheet): the recording, the render before and the render after, row above row")
        }
        return FitReport(result: result, text: text, written: written)
    }

    func report(_ r: FitResult, seconds: Double) -> String {
        let interval =
            r.frameTimes.count > 1 ? (r.frameTimes.last! - r.frameTimes.first!) / Double(r.frameTimes.count - 1) : 0
        var lines = [
            "fit \(scene)\(storyboard.map { " --storyboard \($0)" } ?? "") to \(recording ?? ""): \(r.frameTimes.count) frames"
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
                    + String(format: " (residual +%.2f %@", r.rise, unit)
                    + (v.frameMargin > 0 ? String(format: ", and half a frame: %.3f s", v.frameMargin) : "") + ")"
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
        let base = try config.map { try ValueFile(scene: scene, config: $0).currentText() ?? "" } ?? ""
        let values = Dictionary(r.values.map { ($0.key, FitResult.text($0.after)) }, uniquingKeysWith: { $1 })
        var text = try ValueFile(scene: scene, config: path).text(saving: values, over: base)
        if base.isEmpty {
            text =
                "# \(scene)\(storyboard.map { " \($0)" } ?? ""), fitted to \(recording ?? "") by flipbook fit\n" + text
        }
        try OutputFile.write(text, to: path)
    }
}
