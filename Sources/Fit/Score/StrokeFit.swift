import Foundation
import Planner

import struct Flipbook.FrameSequence

/// A finger's pull as one eased stroke: from `start`, the finger travels over `duration` along
/// a Bézier `profile` to where the rubber band shows `distance` points, as a storyboard's drag
/// moves it. The screen shows the finger where it was `Plan.presentationLatency` before.
public struct Stroke: Sendable, Codable, Equatable {
    public var start: Double
    public var duration: Double
    public var distance: Double
    public var profile: [Double]

    /// The offset the screen shows at `t` over a viewport `dimension` points long.
    func shown(at t: Double, dimension: Double) -> Double {
        let local = t - Plan.presentationLatency - start
        guard local > 0 else { return 0 }
        let eased = CubicBezier(profile[0], profile[1], profile[2], profile[3]).value(atFraction: local / duration)
        return ScrollPhysics.rubberBand(
            ScrollPhysics.fingerTravel(shown: distance, dimension: dimension) * eased, dimension: dimension)
    }
}

/// A stroke fitted to a feature's motion in a recording.
public struct StrokeFit: Sendable, Codable {
    public var stroke: Stroke
    /// The feature's name, and the frames of the window it was followed in.
    public var feature: String
    public var frames: Int
    public var window: ClosedRange<Double>
    /// The display phase the recording's frames were taken at, where the capture steps unevenly.
    public var phase: Double?
    /// Points: the RMS of the fit's errors, and each frame's error.
    public var rms: Double
    public var errors: [Double]
}

extension Scorer {
    /// Starting profiles: a steady pull, one that starts fast and slows, one that starts slow,
    /// and one with a tug part way.
    static let profiles: [[Double]] = [
        [0.3, 0.6, 0.6, 1.0], [0.5, 0.3, 0.5, 1.0], [0.65, 1.04, 0, 0.46], [0.83, 0.8, 0.04, 0.49],
    ]

    /// The stroke whose offset best matches how far `feature` moves from its place at the
    /// window's first frame, by least squares at the instants the recording's frames show (for
    /// a capture that steps unevenly, the display's, at the phase that fits best). A hand pulls
    /// unevenly; one stroke is how close a storyboard's drag gets.
    public static func fitStroke(
        _ request: ScoreRequest, feature name: String, window: ClosedRange<Double>, dimension: Double,
        source: RecordingSource
    ) throws -> StrokeFit {
        guard let feature = request.features.first(where: { $0.name == name }) else {
            throw ScoreError.unknownFeature(name, known: request.features.map(\.name))
        }
        let recorded = try RecordedSide(request, source: source)
        try check(window, in: recorded)
        let dt = recorded.interval
        let values = recorded.track(feature)
        let frames = values.indices.filter {
            values[$0] != nil && (window.lowerBound - 1e-9...window.upperBound + 1e-9).contains(Double($0) * dt)
        }
        guard frames.count >= 8 else { throw ScoreError.tooFewForStroke(feature: name, frames: frames.count) }
        let rest = values[frames[0]]!
        let offsets = Dictionary(uniqueKeysWithValues: frames.map { ($0, values[$0]! - rest) })
        guard frames.contains(where: { offsets[$0]! > 1 }) else { throw ScoreError.noStrokeMotion(feature: name) }
        let fit = fitStroke(to: offsets, interval: dt, before: window.upperBound, dimension: dimension)
        return StrokeFit(
            stroke: fit.stroke, feature: name, frames: frames.count, window: window, phase: fit.phase, rms: fit.rms,
            errors: fit.errors)
    }

    /// The stroke that best matches `offsets` (frame `i`, captured at `i · interval`: its
    /// offset in points), starting before `end`; its display phase, RMS and each frame's error.
    static func fitStroke(to offsets: [Int: Double], interval dt: Double, before end: Double, dimension: Double) -> (
        stroke: Stroke, phase: Double?, rms: Double, errors: [Double]
    ) {
        let frames = offsets.keys.sorted()
        let moving = frames.filter { offsets[$0]! > 1 }
        let most = offsets.values.max() ?? 0
        let startGuess = Double(moving.first ?? frames[0]) * dt - Plan.presentationLatency - 0.02
        let endGuess = Double(moving.first { offsets[$0]! >= 0.97 * most } ?? moving.last ?? frames.last!) * dt
        let hz = CaptureModel.displayHz
        let phases: [Double?] =
            CaptureModel.stepsUnevenly(dt) ? (0..<CaptureModel.phases).map { Double($0) / 10 } : [nil]
        let bounds: [ClosedRange<Double>] = [
            startGuess - 1...max(startGuess, end), 0.01...10, 0.01...dimension, 0...1, -3...3, 0...1, -3...3,
        ]
        var best: (cost: Double, stroke: Stroke, phase: Double?, at: [Int: Double])?
        for phase in phases {
            // The instant each frame shows: a display frame's, half a frame after its vsync on
            // average, where the capture rate does not divide the display's.
            let at = Dictionary(
                uniqueKeysWithValues: frames.map { i in
                    (i, phase.map { CaptureModel.drawnAt(i, interval: dt, phase: $0) + 0.5 / hz } ?? Double(i) * dt)
                })
            func stroke(_ p: [Double]) -> Stroke {
                Stroke(start: p[0], duration: p[1], distance: p[2], profile: Array(p[3...]))
            }
            for profile in profiles {
                let result = NelderMead.minimize(
                    start: [startGuess, max(0.05, endGuess - startGuess), most] + profile,
                    steps: [0.02, 0.05, 5, 0.1, 0.1, 0.1, 0.1], bounds: bounds, maximumEvaluations: 6000,
                    tolerance: 1e-10
                ) { p in
                    let s = stroke(p)
                    return frames.reduce(0) { sum, i in
                        let e = s.shown(at: at[i]!, dimension: dimension) - offsets[i]!
                        return sum + e * e
                    }
                }
                if best == nil || result.score < best!.cost { best = (result.score, stroke(result.point), phase, at) }
            }
        }
        let fit = best!
        let errors = frames.map { fit.stroke.shown(at: fit.at[$0]!, dimension: dimension) - offsets[$0]! }
        return (fit.stroke, fit.phase, (fit.cost / Double(frames.count)).squareRoot(), errors)
    }
}

extension StrokeFit {
    /// The fit as `flipbook score --fit-stroke` prints it: the stroke as a storyboard's
    /// `pull-by` (its hold lasting to the window's end), and each frame's error.
    public func report(title: String) -> String {
        let s = stroke
        let captured = phase.map { String(format: " as captured (display phase %.1f)", $0) } ?? ""
        let worst = errors.reduce(errors[0]) { abs($1) > abs($0) ? $1 : $0 }
        return [
            "\(title): the pull as one stroke, fitted to \(feature)'s \(frames) frames in "
                + "\(window.lowerBound.formatted())-\(window.upperBound.formatted()) s\(captured): "
                + String(format: "RMS %.2f pt, worst %+.1f", rms, worst),
            String(
                format:
                    "  from %.3f s: pull-by: {distance: %.1f, duration: %.3f, profile: \"'bezier:%.3f,%.3f,%.3f,%.3f'\", hold: %.3f}",
                s.start, s.distance, s.duration, s.profile[0], s.profile[1], s.profile[2], s.profile[3],
                max(0, window.upperBound - s.start - s.duration)),
            "  (the hold lasts to the window's end: end it where the release is made)",
            "  errors, pt: " + errors.map { String(format: "%+.1f", $0) }.joined(separator: " "),
        ].joined(separator: "\n")
    }
}

extension Double {
    /// As Python's `g` format prints a window's ends: no trailing zeros.
    fileprivate func formatted() -> String { String(format: "%g", self) }
}
