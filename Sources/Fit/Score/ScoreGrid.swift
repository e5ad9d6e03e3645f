import Foundation

import struct Flipbook.FrameSequence
import class Flipbook.ImageCache

/// Values to try: a key and its values, as `key=v1,v2,…`.
public struct GridAxis: Sendable, Equatable {
    public var key: String
    public var values: [String]

    /// Reads `key=v1,v2,…`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        key = parts[0].trimmingCharacters(in: .whitespaces)
        values = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !key.isEmpty, !values.isEmpty else { return nil }
    }
}

/// One combination of a grid's values, scored: how closely the tracked features follow the
/// recording's with those values.
public struct GridScore: Sendable, Codable {
    public struct Feature: Sendable, Codable {
        public var name: String
        /// RMS and signed worst error in pixels, and the frames measured; nil where none were.
        public var rms: Double?
        public var worst: Double?
        public var frames: Int
    }

    /// `key=value` for each axis, in the grid's order.
    public var assignments: [String]
    /// The RMS over every feature's frames together; nil where nothing was measured.
    public var overall: Double?
    public var features: [Feature]
}

extension Scorer {
    /// The most combinations a grid may have: each is a render.
    public static let maximumCombinations = 400

    /// Renders the storyboard at every combination of `grid`'s values and ranks them, best
    /// first, by the RMS of the tracked features and layers over every frame (or over `window`
    /// seconds). A layer (`request.track`) is followed through the recording once, and each
    /// combination only plans where it puts it.
    /// This fits a value to a recording by its motion, not its pixels: content that is not
    /// ours weighs nothing. Where the capture steps unevenly, each stretch of motion is
    /// compared as captured with only the display's phase fitted, so timing still counts.
    public static func rank(
        _ request: ScoreRequest, grid: [GridAxis], window: ClosedRange<Double>? = nil, source: RecordingSource,
        images: ImageCache = ImageCache(), progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> [GridScore] {
        var combinations: [[String]] = [[]]
        for axis in grid {
            if grid.filter({ $0.key == axis.key }).count > 1 { throw ScoreError.gridKeyTwice(axis.key) }
            combinations = combinations.flatMap { c in axis.values.map { c + ["\(axis.key)=\($0)"] } }
        }
        guard combinations.count <= maximumCombinations else {
            throw ScoreError.gridTooLarge(combinations.count, maximum: maximumCombinations)
        }
        let given = request.start
        let (request, recorded, _) = try Scorer.recorded(request, source: source, images: images)
        if let window { try check(window, in: recorded) }
        let dt = recorded.interval
        func windowed(_ a: [Double?]) -> [Double?] {
            guard let window else { return a }
            return a.indices.map {
                (window.lowerBound - 1e-9...window.upperBound + 1e-9).contains(Double($0) * dt) ? a[$0] : nil
            }
        }
        let tracks = request.features.map { windowed(recorded.track($0)) }
        /// The two compared frame by frame: RMS, worst error and how many frames.
        func sameInstants(_ a: [Double?], _ b: [Double?]) -> (rms: Double, worst: Double, count: Int)? {
            MotionScore.errors(a, b).map { (rms: $0.rms, worst: $0.worst, count: $0.count) }
        }
        // Layers are followed through the recording once; each trial plans where they are.
        let layers = try TrackedLayers(
            request.track, request: request, pictures: recorded.pictures, size: recorded.size, interval: dt,
            images: images)
        var scores: [GridScore] = []
        for (n, assignments) in combinations.enumerated() {
            var trial = request
            trial.assignments += assignments
            // Each trial at its own alignment, as fit searches the start with the values.
            if given == nil { trial.start = try Scorer.start(of: recorded, for: trial, images: images) }
            var total = 0.0, count = 0
            func scored(_ name: String, _ errors: (rms: Double, worst: Double, count: Int)?) -> GridScore.Feature {
                guard let errors else { return .init(name: name, rms: nil, worst: nil, frames: 0) }
                total += errors.rms * errors.rms * Double(errors.count)
                count += errors.count
                return .init(name: name, rms: errors.rms, worst: errors.worst, frames: errors.count)
            }
            var features: [GridScore.Feature] = []
            if !request.features.isEmpty {
                let rendered = try RenderedSide(trial, recorded: recorded, images: images)
                features = zip(request.features, tracks).map { feature, a in
                    let b = rendered.track(feature)
                    return scored(
                        feature.name,
                        rendered.fine == nil ? sameInstants(a, b) : asCaptured(feature, a, b, rendered, interval: dt))
                }
            }
            for s in try layers.rendered(by: trial, images: images) {
                features.append(scored(s.name, sameInstants(windowed(s.recorded), s.rendered)))
            }
            scores.append(
                GridScore(
                    assignments: assignments, overall: count > 0 ? (total / Double(count)).squareRoot() : nil,
                    features: features))
            progress(n + 1, combinations.count)
        }
        // Unmeasured last; equal scores keep the grid's order.
        return scores.enumerated().sorted { x, y in
            switch (x.element.overall, y.element.overall) {
            case let (a?, b?): a < b || (a == b && x.offset < y.offset)
            case (nil, nil): x.offset < y.offset
            case (nil, _): false
            case (_, nil): true
            }
        }.map(\.element)
    }

    /// The still frames compared at the same instants, and each stretch of motion as
    /// captured at its best display phase, the lag held at half a display frame.
    private static func asCaptured(
        _ feature: RecordingFeature, _ a: [Double?], _ b: [Double?], _ rendered: RenderedSide, interval dt: Double
    ) -> (rms: Double, worst: Double, count: Int)? {
        let spans = MotionScore.stretches(a)
        let fine = spans.isEmpty ? [] : rendered.trackFine(feature, around: spans, interval: dt, reach: 0.05) ?? []
        let moving = Set(spans.flatMap { $0 })
        var errors = (0..<min(a.count, b.count)).compactMap { i -> Double? in
            guard !moving.contains(i), let p = a[i], let o = b[i] else { return nil }
            return o - p
        }
        for span in spans {
            let frames = Array(span)
            guard let fit = CaptureModel.bestFit(a, fine: fine, interval: dt, frames: frames, reach: 0) else {
                continue
            }
            errors += CaptureModel.errors(a, fine: fine, interval: dt, frames: frames, phase: fit.phase, lag: fit.lag)
        }
        guard let first = errors.first else { return nil }
        let rms = (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
        return (rms, errors.reduce(first) { abs($1) > abs($0) ? $1 : $0 }, errors.count)
    }
}

extension [GridScore] {
    /// The ranking as `flipbook score --grid` prints it.
    public func table(title: String, keys: [String], window: ClosedRange<Double>?) -> String {
        let span = window.map { String(format: " in %.2f-%.2f s", $0.lowerBound, $0.upperBound) } ?? ""
        var lines = [
            "\(title): \(count) combinations of \(keys.joined(separator: ", ")), best first "
                + "(RMS over every feature's frames\(span); then each feature's RMS/worst px)"
        ]
        for score in self {
            let cells = score.features.map { f in
                f.rms.map { "\(f.name) " + String(format: "%.1f/%.0f", $0, abs(f.worst ?? 0)) } ?? "\(f.name) -"
            }
            let overall = score.overall.map { String(format: "%6.2f", $0) } ?? "     -"
            lines.append(
                "  \(overall)  \(score.assignments.joined(separator: " "))  |  \(cells.joined(separator: "; "))")
        }
        return lines.joined(separator: "\n")
    }
}

/// A score request that cannot run, naming what is wrong.
public enum ScoreError: Error, Equatable, CustomStringConvertible {
    case gridKeyTwice(String)
    case gridTooLarge(Int, maximum: Int)
    case unknownFeature(String, known: [String])
    case tooFewForStroke(feature: String, frames: Int)
    case noStrokeMotion(feature: String)
    /// Fewer than half the recording's frames of motion compared a feature in both.
    case tooFewCompared(compared: Int, motion: Int, features: [(String, Int)])
    /// Frames of another shape than the canvas whose screen was not found for certain.
    case screenNotFound(ScreenNotFound)
    /// A screen given that is not inside the recording's frames.
    case screenOutside(Crop, width: Int, height: Int)
    /// A window that starts at or past the recording's end.
    case windowOutside(ClosedRange<Double>, duration: Double)
    /// A request whose options do not go together, or one out of range.
    case invalid(String)

    public static func == (a: ScoreError, b: ScoreError) -> Bool { a.description == b.description }

    public var description: String {
        switch self {
        case .invalid(let message): message
        case .gridKeyTwice(let key): "\(key) is in the grid twice; give its values once"
        case .gridTooLarge(let n, let maximum):
            "\(n) combinations: at most \(maximum), each a render; fewer values, or one key at a time"
        case .unknownFeature(let name, let known):
            "'\(name)': no such feature (the features file has \(known.joined(separator: ", ")))"
        case .tooFewForStroke(let feature, let frames):
            "\(feature) is followed in \(frames) frames of the window; a stroke needs at least 8"
        case .noStrokeMotion(let feature): "\(feature) does not move in the window: there is no stroke to fit"
        case .tooFewCompared(let compared, let motion, let features):
            "compared \(compared) of the recording's \(motion) frames of motion, fewer than half: no score is one "
                + "(frames each feature was found in both: "
                + features.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
                + "); check the features' positions against the recording's frame, and --screen"
        case .screenNotFound(let problem): problem.message(option: "--screen")
        case .screenOutside(let c, let w, let h):
            "--screen \(c.x),\(c.y),\(c.width),\(c.height): outside the recording's \(w)x\(h) frames (nine tenths of it must be inside)"
        case .windowOutside(let window, let duration):
            "--window \(window.lowerBound.plainText),\(window.upperBound.plainText): the recording lasts \(String(format: "%.2f", duration)) s; a window starts within it"
        }
    }
}
