import Foundation
import Scenes

import Flipbook

/// What a score run found, for people and for JSON readers: a score, a grid's ranking or a
/// fitted stroke.
public enum ScoreReport: Sendable {
    case scored(ScoreResult, request: ScoreRequest)
    case ranked([GridScore], keys: [String], window: ClosedRange<Double>?)
    case stroke(StrokeFit)

    /// The report as a table, titled by the recording's file name.
    public func text(title: String) -> String {
        switch self {
        case .scored(let result, let request):
            var lines = [
                String(
                    format: "%@ against %@%@: the recording %.2f s, ours %.2f s (%.2f)", request.recording ?? title,
                    request.scene, request.storyboard.map { " --storyboard \($0)" } ?? "", result.recordingSeconds,
                    result.renderSeconds, result.renderSeconds / result.recordingSeconds)
            ]
            lines.append(
                String(
                    format: "the recording starts %.3f s into the storyboard (%@)", result.start,
                    result.foundStart ? "found from whole frames; --start gives it" : "--start"))
            if let screen = result.foundScreen { lines.append(screen.foundScreen(option: "--screen")) }
            lines.append(result.table(title: title))
            return (lines + result.written).joined(separator: "\n")
        case .ranked(let ranked, let keys, let window): return ranked.table(title: title, keys: keys, window: window)
        case .stroke(let fit): return fit.report(title: title)
        }
    }

    /// The report as JSON.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data =
            switch self {
            case .scored(let result, _): try encoder.encode(result)
            case .ranked(let ranked, _, _): try encoder.encode(ranked)
            case .stroke(let fit): try encoder.encode(fit)
            }
        return String(decoding: data, as: UTF8.self)
    }
}

extension ScoreRequest {
    /// The starts a recording may have in a storyboard, in seconds.
    public static let starts = -600.0...600.0

    /// Refuses options that do not go together or are out of range, before any work.
    public func check() throws {
        func refuse(_ message: String) -> ScoreError { .invalid(message) }
        if features.isEmpty && featuresFile == nil && track.isEmpty {
            throw refuse("Missing --features features.yaml or --track layer: what to follow")
        }
        if !track.isEmpty && fitStroke != nil {
            throw refuse("--fit-stroke fits the features file's features; leave out --track")
        }
        if window != nil && grid.isEmpty && fitStroke == nil {
            throw refuse("--window ranks a --grid or bounds a --fit-stroke; pass --grid key=v1,v2")
        }
        if fitStroke != nil && (window == nil || !grid.isEmpty) {
            throw refuse("--fit-stroke fits the stroke over --window t0,t1, without --grid")
        }
        if let fps, !(fps >= 1 && fps <= 120) { throw refuse("--fps \(fps): expected a number in 1...120") }
        if let start, !ScoreRequest.starts.contains(start) {
            throw refuse(
                "--start \(start): expected seconds in \(ScoreRequest.starts.lowerBound.plainText)...\(ScoreRequest.starts.upperBound.plainText)"
            )
        }
        if let sideBySide, AnimationFormat.named(by: sideBySide) == nil {
            throw refuse(
                "--side-by-side \(sideBySide): a \(AnimationFormat.sentence(AnimationFormat.all.map { $0.extensions[0] }))"
            )
        }
        if let sheet, !sheet.lowercased().hasSuffix(ExportFormat.pngExtension) {
            throw refuse("--sheet \(sheet): a .png")
        }
        if (sideBySide != nil || sheet != nil) && (!grid.isEmpty || fitStroke != nil) {
            throw refuse("--side-by-side and --sheet show one score; leave out --grid and --fit-stroke")
        }
    }

    /// Reads the features file and the recording, scores (or ranks a grid, or fits a
    /// stroke), and writes the pictures asked for.
    public func run(_ events: MeasureEvents = MeasureEvents()) throws -> ScoreReport {
        guard let recording else { throw FitError.noRecording }
        try check()
        var request = self
        if let featuresFile {
            let file = try FeatureFile.load(featuresFile)
            request.features += file.features
            if request.screen == nil { request.screen = file.screen }
        }
        let source = RecordingSource(path: recording, events: events, measuring: "its lags and lengths are")
        var inputs = try measuredInputs(
            recording: recording, scene: scene, storyboard: storyboard, config: config, assignments: assignments)
        if let featuresFile { inputs.append(.init(what: "--features", path: featuresFile)) }
        let outputs = [("--side-by-side", sideBySide), ("--sheet", sheet)].compactMap { option, path in
            path.map { OutputRules.Output(option: "\(option)", path: $0) }
        }
        try OutputRules(outputs: outputs, inputs: inputs).check()
        if let fitStroke, let window {
            let dimension = try Transition(scene, storyboard: storyboard, config: config, set: assignments).canvas
                .height
            return .stroke(
                try Scorer.fitStroke(
                    request, feature: fitStroke, window: window, dimension: dimension, source: source))
        }
        if !grid.isEmpty {
            return .ranked(
                try Scorer.rank(request, grid: grid, window: window, source: source), keys: grid.map(\.key),
                window: window)
        }
        return .scored(try Scorer.score(request, source: source), request: request)
    }
}
