import Foundation
import Geometry

/// What to fit: a scene's storyboard, the params to search and how to read the recording.
public struct FitRequest: Sendable {
    /// A built-in scene's name or a scene file's path.
    public var scene: String
    public var storyboard: String?
    public var config: String?
    /// Values held fixed (`--set` style), under the fitted ones.
    public var assignments: [String]
    /// The params to fit: numbers, seconds, or an animation's `duration`, `damping` or `velocity`.
    public var keys: [String]
    /// Ranges for keys whose scene file declares none, or narrower ones.
    public var ranges: [String: ClosedRange<Double>]
    /// Layers to follow; none: the whole frame is compared.
    public var track: [String]
    /// The part of each recording frame that is the screen.
    public var crop: Crop?
    /// Seconds between the recording's frames, overriding the times it carries.
    public var frameInterval: Double?
    /// The recording to read when run: a GIF, WebP, APNG, MP4 or MOV, or a folder of PNG frames.
    public var recording: String?
    /// A config to write the fitted values to, over `config`'s text.
    public var output: String?
    /// A PNG to write: the recording, the render before and the render after, row above row.
    public var sheet: String?
    /// Whether each value's determined range is worked out; without it, each is the value
    /// alone: a try among others (a made scene's moves) wants the values only.
    var determinesRanges = true
    /// Whether the values are searched for; without it, the scene's values are the answer and
    /// only their ranges (and the start, on whole frames) are worked out: a made scene's winning
    /// move, fitted already.
    var searches = true
    /// Whether whole frames are searched and their motion's match judged blurred over about a
    /// line of text (`Problem.blur`), so that a screen of text shifted by a few lines is still
    /// near itself, the answer then searched from and its ranges found on the frames as they
    /// are: a made scene's screens are whatever the recording shows.
    var blursText = false
    /// Where each tracked layer is in each of the recording's frames, at the working width,
    /// where the caller knows already (nil for a frame that does not place it): followed
    /// otherwise. Compared at those frames only.
    var placed: [String: [LayerTracker.Match?]] = [:]
    /// Whether a search of three keys or fewer looks around their values first (each at 0.6
    /// to 1.6 times its own, every combination), for a curve's duration and damping, which
    /// trade against each other and the start; without it, the search starts from them (a
    /// dimming and a parallax, the curve found already).
    var looksAround = true
    /// Threads each evaluation renders on: fewer where fits run side by side.
    var renderThreads = ProcessInfo.processInfo.activeProcessorCount

    /// The frame intervals a capture can have: from 1000 frames a second to one every 10 s.
    public static let frameIntervals = 0.001...10.0

    public init(
        scene: String, storyboard: String? = nil, config: String? = nil, assignments: [String] = [], keys: [String],
        ranges: [String: ClosedRange<Double>] = [:], track: [String] = [], crop: Crop? = nil,
        frameInterval: Double? = nil
    ) {
        self.scene = scene
        self.storyboard = storyboard
        self.config = config
        self.assignments = assignments
        self.keys = keys
        self.ranges = ranges
        self.track = track
        self.crop = crop
        self.frameInterval = frameInterval
    }
}

/// What a fit found.
public struct FitResult: Sendable {
    public struct Value: Sendable {
        public var key: String
        public var before: Double
        public var after: Double
        /// The range searched.
        public var range: ClosedRange<Double>
        /// The values, the others held at theirs, within which the residual rises by at most
        /// `FitResult.rise`: how well the recording determines this one.
        public var determined: ClosedRange<Double>
        /// Whether `determined` is wide for the value: the recording hardly pins it down.
        public var isWeak: Bool
        /// How much `determined` was widened each way for the capture's sampling (half a frame,
        /// for a time fitted on whole frames), past where the residual rises.
        public var frameMargin = 0.0
    }

    /// How far the render is from the recording, before and after, over the same instants:
    /// for a tracked layer, the RMS and worst distance of its edges in points, each instant
    /// counted at most the search's cap (24 pt); for the whole frame, the mean absolute difference in
    /// levels (0...255).
    public struct Residual: Sendable {
        public var layer: String?
        public var rmsBefore: Double
        public var worstBefore: Double
        public var rmsAfter: Double
        public var worstAfter: Double
        /// The instants compared, before and after; for a tracked layer, how many of them are
        /// farther than the cap after the fit (where the tracker took something else for the
        /// layer: another layer over it).
        public var instants = 0
        public var beyondCap = 0
        public var unit: String { layer == nil ? "levels" : "pt" }
    }

    public var values: [Value]
    /// How far the residual may rise (in its unit) at the edges of each value's range.
    public var rise: Double
    /// The instants at which the recording moves, and how many of them the fit compared.
    public var motionInstants: Int
    public var comparedInstants: Int
    /// For whole frames, the correlation of the fitted render's frame-to-frame changes with the
    /// recording's (1: the same changes; `Fitter.minimumExplained` at least).
    public var explainedMotion: Double?
    /// The storyboard time of the recording's first frame, before and after.
    public var offsetBefore: Double
    public var offsetAfter: Double
    public var residuals: [Residual]
    public var evaluations: Int
    /// The recording's frames and their times (after `--frame-interval`).
    public var frameTimes: [Double]
    /// The screen found in frames that hold more than it (a simulator's window), when no crop
    /// was given.
    public var foundScreen: Crop?
    /// `key=value` for each fitted value, as `--set` takes them.
    public var assignments: [String] { values.map { "\($0.key)=\(Self.text($0.after))" } }
    /// The UIKit code of each fitted animation param.
    public var code: [(key: String, lines: [String])]
    /// The recording's frames a sheet shows (``sheet(for:source:images:)``).
    var sheetFrames: [Int] = []

    /// A value to four decimals, as configs print them.
    public static func text(_ v: Double) -> String { rounded(v).plainText }
    /// A value to the four decimals configs print it to.
    static func rounded(_ v: Double) -> Double { (v * places).rounded() / places }
    /// Steps a unit configs print values in: four decimals.
    static let places = 10_000.0
}
