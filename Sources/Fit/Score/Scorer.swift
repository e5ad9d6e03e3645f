import Foundation

import Geometry
import Synchronization

import struct Flipbook.Bitmap
import class Flipbook.FrameReader
import struct Flipbook.FrameSequence
import class Flipbook.ImageCache
import struct Flipbook.Transition

/// What to score: a storyboard against a recording, by features followed in both.
public struct ScoreRequest: Sendable {
    public var scene: String
    public var storyboard: String?
    public var config: String?
    /// Values over the config, `key.path=value`.
    public var assignments: [String] = []
    /// What to follow, in the recording's pixels.
    public var features: [RecordingFeature]
    /// Layers of the scene to follow as well, each scored as its left edge, top edge and width.
    public var track: [String] = []
    /// Where the render's screen sits in the recording's frame (x, y, width, height); nil: the
    /// whole frame.
    public var screen: Crop?
    /// Seconds between the recording's frames; nil: the step its frames are stored at.
    public var frameInterval: Double?
    /// The rate the render is sampled at; nil: the recording's.
    public var fps: Double?
    /// The storyboard's time at the recording's first frame: 0.3 for a recording cut 0.3 s into
    /// the transition, -0.5 for one with half a second more before it; nil: found from whole
    /// frames, as `flipbook fit` finds it (``ScoreResult/start``).
    public var start: Double?
    /// Where to write the recording and the render side by side, frame for frame at the
    /// recording's pace (a GIF, WebP or MP4), and a contact sheet of every frame of motion.
    public var sideBySide: String?
    public var sheet: String?
    /// The recording to read when run: a GIF, WebP, APNG, MP4 or MOV, or a folder of PNG frames.
    public var recording: String?
    /// A features file whose features (and screen, where none is given) are read when run.
    public var featuresFile: String?
    /// Values to render every combination of, ranked by RMS, in place of one score.
    public var grid: [GridAxis] = []
    /// With `grid`, the recording's seconds that count; with `fitStroke`, those fitted.
    public var window: ClosedRange<Double>?
    /// A feature whose drag stroke to fit over `window`, in place of a score.
    public var fitStroke: String?

    public init(scene: String, features: [RecordingFeature]) {
        self.scene = scene
        self.features = features
    }
}

/// How closely a storyboard follows a recording, feature by feature.
public struct ScoreResult: Sendable, Codable {
    /// A stretch in which the recording's feature moves.
    public struct Stretch: Sendable, Codable {
        public var start: Double
        public var end: Double
        /// The RMS error at no lag, in pixels; nil where too few frames compare.
        public var rms: Double?
        public var lag: Lag?
        /// Scored as the capture sampled the display, where it steps unevenly.
        public var captured: CaptureModel.Fit?
    }

    /// The lag (frames; ours later: positive) that aligns the two best, and the RMS there.
    public struct Lag: Sendable, Codable {
        public var frames: Double
        public var rms: Double
    }

    public struct Feature: Sendable, Codable {
        public var name: String
        /// Frames measured in both; 0 where the feature was not found in both.
        public var frames: Int
        public var rms: Double
        /// The largest error, signed (ours less the recording), and when.
        public var worst: Double
        public var worstAt: Double
        public var lag: Lag?
        public var stretches: [Stretch]
        /// What the figures count: "px", or "%" for a level.
        public var unit = "px"
        /// Each recording frame at which either side has the feature, in the figures' unit.
        public var samples: [Sample] = []
    }

    /// One recording frame's measures of a feature.
    public struct Sample: Sendable, Codable {
        /// The frame's time in the recording.
        public var t: Double
        public var recorded: Double?
        public var rendered: Double?
        /// For a tracked layer: how far the recording's frame is from the layer's look where the
        /// tracker found it (mean absolute difference, levels 0...255). It grows as the layer is
        /// covered or its look changes, and a frame past the tracker's limit has no `recorded`.
        public var difference: Double?
    }

    /// Seconds between the recording's frames.
    public var interval: Double
    /// The storyboard's time at the recording's first frame, and whether it was found (rather
    /// than given).
    public var start = 0.0
    public var foundStart = false
    public var recordingSeconds: Double
    public var renderSeconds: Double
    public var features: [Feature]
    /// The recording's frames in which some feature moves (all of them, where none does), and
    /// how many of those compare at least one feature in both.
    public var motionFrames = 0
    public var comparedFrames = 0
    /// A line for each picture written.
    public var written: [String] = []
    /// The screen found in frames that hold more than it, when none was given.
    public var foundScreen: Crop?
    /// A tracked layer's stretches of the recording, in seconds, where the plan draws it whole
    /// and uncovered but its rows leave it out: the tracker does not find it in the recording
    /// there, or, run on our own render, does not find it where the plan puts it.
    public struct Unfollowed: Sendable, Codable {
        public var layer: String
        public var spans: [ClosedRange<Double>]
    }
    public var unfollowed: [Unfollowed] = []
}

/// Scores a storyboard against a recording: each feature tracked frame by frame in both, its
/// error at the same instants, the lag that aligns them, and per stretch of the recording's
/// motion the same, as captured where the capture samples the display unevenly.
public enum Scorer {
    /// Throws unless `window` starts within the recording.
    static func check(_ window: ClosedRange<Double>, in recording: RecordedSide) throws {
        guard window.lowerBound < recording.duration else {
            throw ScoreError.windowOutside(window, duration: recording.duration)
        }
    }

    /// `request` with the screen found in the recording's frames where they are not the
    /// canvas's shape and no screen is given (a simulator's window), and what was found.
    static func withScreen(
        _ request: ScoreRequest, source: RecordingSource, base: Transition
    ) throws -> (ScoreRequest, Crop?) {
        guard request.screen == nil else { return (request, nil) }
        var request = request
        do {
            request.screen = try ScreenFinder.screen(of: source.open(), canvas: base.canvas, duration: base.duration) {
                base.frame(at: $0).bitmap
            }
        } catch let error as ScreenNotFound {
            throw ScoreError.screenNotFound(error)
        }
        return (request, request.screen)
    }

    /// The recording read for `request`: the screen found first where it must be, then one
    /// pass keeping what its features and layers read; the screen checked against its frames.
    static func recorded(_ request: ScoreRequest, source: RecordingSource, images: ImageCache) throws -> (
        ScoreRequest, RecordedSide, Crop?
    ) {
        let base = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
            images: images)
        var (request, foundScreen) = try withScreen(request, source: source, base: base)
        let picture = TrackedLayers.picture(canvas: base.canvas, screen: request.screen)
        let height = RecordingStart.height(canvas: base.canvas)
        let recorded = try RecordedSide(
            request, source: source, picture: picture, keepingPictures: !request.track.isEmpty,
            small: request.start != nil ? nil : { RecordingStart.small($0, height: height) })
        if request.start == nil { request.start = try start(of: recorded, for: request, images: images) }
        return (request, recorded, foundScreen)
    }

    /// The storyboard's time at `recorded`'s first frame for `request`'s values: the one
    /// alignment (where the whole frames agree best, as fit finds it), to the render's frame as
    /// the render is sampled (finer is each feature's lag's to find).
    static func start(of recorded: RecordedSide, for request: ScoreRequest, images: ImageCache) throws -> Double {
        let t = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
            width: Fitter.frameWidth, images: images)
        let times = (0..<recorded.count).map { Double($0) * recorded.interval }
        let fps = RenderedSide.fps(request, interval: recorded.interval)
        return try RecordingStart.find(
            small: recorded.small, times: times, height: RecordingStart.height(canvas: t.canvas),
            range: RecordingStart.range(length: times.last ?? 0, duration: t.duration), transition: t, step: 1 / fps)
    }

    /// Where `recording` starts in `request`'s storyboard with its values (its screen and frame
    /// interval as a score reads them): the start ``score(_:source:images:)`` finds.
    public static func start(
        of recording: FrameSequence, for request: ScoreRequest, images: ImageCache = ImageCache()
    ) throws -> Double {
        var request = request
        (request.start, request.features, request.track) = (nil, [], [])
        return try recorded(request, source: RecordingSource(recording), images: images).0.start ?? 0
    }

    public static func score(
        _ request: ScoreRequest, recording: FrameSequence, images: ImageCache = ImageCache()
    ) throws -> ScoreResult {
        try score(request, source: RecordingSource(recording), images: images)
    }

    public static func score(
        _ request: ScoreRequest, source: RecordingSource, images: ImageCache = ImageCache()
    ) throws -> ScoreResult {
        let given = request.start
        let (request, recorded, foundScreen) = try recorded(request, source: source, images: images)
        let rendered = try RenderedSide(request, recorded: recorded, images: images)
        let dt = recorded.interval
        let layers = try TrackedLayers(
            request.track, request: request, pictures: recorded.pictures, size: recorded.size, interval: dt,
            images: images)
        var tracks: [(RecordingFeature, [Double?], [Double?])] = []
        var motion = Set<Int>()
        var compared: [([Double?], [Double?])] = []
        /// One feature's figures from its positions in both, and ours at the capture model's
        /// rate where it has them.
        func scored(
            _ name: String, _ a: [Double?], _ b: [Double?], unit: String = "px", difference: [Double?] = [],
            fine: ([Range<Int>]) -> [Double?]?
        ) -> ScoreResult.Feature {
            compared.append((a, b))
            let samples = (0..<max(a.count, b.count)).compactMap { i -> ScoreResult.Sample? in
                let (x, y) = (i < a.count ? a[i] : nil, i < b.count ? b[i] : nil)
                guard x != nil || y != nil else { return nil }
                return .init(
                    t: Double(i) * dt, recorded: x, rendered: y, difference: i < difference.count ? difference[i] : nil)
            }
            let spans = MotionScore.stretches(a)
            motion.formUnion(spans.flatMap { $0 })
            guard let e = MotionScore.errors(a, b) else {
                return .init(
                    name: name, frames: 0, rms: 0, worst: 0, worstAt: 0, lag: nil, stretches: [], unit: unit,
                    samples: samples)
            }
            let measured = (0..<min(a.count, b.count)).filter { a[$0] != nil }
            let moved = measured.compactMap { a[$0] }
            // A feature the recording barely moves has no lag to find.
            let lag =
                (moved.max() ?? 0) - (moved.min() ?? 0) >= 3 ? MotionScore.bestLag(a, b, frames: measured) : nil
            let fine = fine(spans)
            let stretches = spans.map { span -> ScoreResult.Stretch in
                let frames = span.filter { $0 < b.count }
                return .init(
                    start: Double(span.lowerBound) * dt, end: Double(span.upperBound - 1) * dt,
                    rms: MotionScore.rms(a, b, lag: 0, frames: frames),
                    lag: MotionScore.bestLag(a, b, frames: frames).map { .init(frames: $0.lag, rms: $0.rms) },
                    captured: fine.map { CaptureModel.bestFit(a, fine: $0, interval: dt, frames: frames) } ?? nil)
            }
            return .init(
                name: name, frames: e.count, rms: e.rms, worst: e.worst, worstAt: Double(e.worstFrame) * dt,
                lag: lag.map { .init(frames: $0.lag, rms: $0.rms) }, stretches: stretches, unit: unit, samples: samples)
        }
        var features = request.features.map { feature -> ScoreResult.Feature in
            let a = recorded.track(feature)
            let b = rendered.track(feature)
            tracks.append((feature, a, b))
            // Ours is needed as far out as the capture fit's lag reaches, and a display frame.
            return scored(feature.name, a, b, unit: feature.isLevel ? "%" : "px") {
                rendered.trackFine(feature, around: $0, interval: dt, reach: 0.2)
            }
        }
        // A tracked layer's plan gives its place at any instant, not at the fine frames' alone.
        features += layers.series.map {
            scored($0.name, $0.recorded, $0.rendered, difference: $0.difference) { _ in nil }
        }
        var result = ScoreResult(
            interval: dt, recordingSeconds: recorded.seconds, renderSeconds: rendered.seconds, features: features)
        result.foundScreen = foundScreen
        (result.start, result.foundStart) = (request.start ?? 0, given == nil)
        result.unfollowed = layers.unfollowed.filter { !$0.frames.isEmpty }.map { layer, frames in
            .init(
                layer: layer,
                spans: MotionScore.runs(frames).map { Double($0.lowerBound) * dt...Double($0.upperBound - 1) * dt })
        }
        // A score that compared too little of the motion says nothing: it is refused, naming
        // what each feature compared, before any picture is written.
        motion = motion.filter { $0 < recorded.count }
        if motion.isEmpty { motion = Set(0..<recorded.count) }
        let both = motion.filter { i in compared.contains { a, b in i < b.count && a[i] != nil && b[i] != nil } }
        (result.motionFrames, result.comparedFrames) = (motion.count, both.count)
        guard 2 * both.count >= motion.count else {
            throw ScoreError.tooFewCompared(
                compared: both.count, motion: motion.count, features: features.map { ($0.name, $0.frames) })
        }
        let pictures = ScorePictures(
            recorded: recorded, rendered: rendered, tracks: tracks, result: result, source: source)
        if let path = request.sideBySide { result.written.append(try pictures.writeSideBySide(to: path)) }
        if let path = request.sheet { result.written.append(try pictures.writeSheet(to: path)) }
        return result
    }
}

/// Where a measurement reads its recording: a file, read a frame at a time as often as a pass
/// needs (the measuring pass, then the pictures'), or frames already in memory.
public struct RecordingSource: Sendable {
    let open: @Sendable () throws -> FrameReader
    /// Told the capture's likely rate when the file's times misstate it.
    let suspected: @Sendable (CaptureRate) -> Void
    /// The fits' passes over frames in memory, kept for the next fit of the same frames (a
    /// file is read again each time: it may have changed).
    let fitPasses: FitPasses?

    /// The recording at `path` (any file `FrameReader.open` reads), warning through `events`
    /// that `what` (the figures measured) is off when its times look like another rate's.
    public init(path: String, events: MeasureEvents = MeasureEvents(), measuring what: String) {
        open = { try FrameReader.open(path) }
        suspected = { events.warning($0.advice(for: path, measuring: what)) }
        fitPasses = nil
    }

    /// Frames in memory.
    public init(_ frames: FrameSequence) {
        self.init(frames, passes: FitPasses())
    }

    /// Frames in memory, whose fits' passes `passes` keeps.
    init(_ frames: FrameSequence, passes: FitPasses) {
        open = { FrameReader(frames) }
        suspected = { _ in }
        fitPasses = passes
    }
}

/// The recording as a score reads it, from one pass: its frames at one step, all of one size,
/// each kept as the parts its features read (and the screen at the layer tracker's working
/// size, where layers are tracked), so that memory goes with what is measured.
struct RecordedSide {
    let features: [RecordingFeature]
    /// Per frame, each feature's part of it, in `features`' order, where the feature reads it.
    let frames: [[ScoreImage?]]
    /// Per frame, the screen as the layer tracker reads it (empty where no layer is tracked).
    let pictures: [LumaImage]
    /// Per frame, the screen as whole frames are aligned (empty where the start is given).
    let small: [LumaImage]
    /// Per frame, the recording's frame it shows, for the pass that draws the pictures.
    let stored: [Int]
    /// Seconds between the frames.
    let interval: Double
    /// The recording's frame size and length (retimed as asked).
    let size: (width: Int, height: Int)
    let duration: Double
    var count: Int { stored.count }
    var seconds: Double { Double(count) * interval }

    init(
        _ request: ScoreRequest, source: RecordingSource, picture: ((Bitmap) -> LumaImage)? = nil,
        keepingPictures: Bool = false, small: ((LumaImage) -> LumaImage)? = nil
    ) throws {
        // `picture` makes the screen at the tracker's width, kept where layers are tracked;
        // `small` makes the whole frame's alignment picture from it.
        precondition(picture != nil || (!keepingPictures && small == nil))
        var regions: [PixelRect]?
        // A frame's parts that no feature reads are dropped as the next frame comes, where the
        // file's times are the ones measured.
        let settle: ((inout ([ScoreImage?], LumaImage?, LumaImage?), Double, Double) -> Void)? =
            request.frameInterval != nil
            ? nil
            : { kept, start, end in
                for (j, feature) in request.features.enumerated()
                where !feature.mayRead(from: start, to: end, margin: 0.05) {
                    kept.0[j] = nil
                }
            }
        let pass = try RecordingPass(source.open(), frameInterval: request.frameInterval, settle: settle) {
            bitmap, _, start, end -> ([ScoreImage?], LumaImage?, LumaImage?) in
            if regions == nil {
                if let screen = request.screen, !screen.mostlyInside(width: bitmap.width, height: bitmap.height) {
                    throw ScoreError.screenOutside(screen, width: bitmap.width, height: bitmap.height)
                }
                for feature in request.features { try feature.check(width: bitmap.width, height: bitmap.height) }
                regions = request.features.map { $0.region(width: bitmap.width, height: bitmap.height) }
            }
            let working = keepingPictures || small != nil ? picture?(bitmap) : nil
            // Only the parts some feature reads while it shows, where the file's times are
            // measured (`settle` would drop the others; a part found missing is read again).
            let reads = request.features.map {
                request.frameInterval != nil || $0.mayRead(from: start, to: end, margin: 0.05)
            }
            return (
                regions!.indices.map { j in reads[j] ? ScoreImage(bitmap, region: regions![j]) : nil },
                keepingPictures ? working : nil, working.flatMap { w in small.map { $0(w) } }
            )
        }
        pass.suspectedRate.map(source.suspected)
        let starts = pass.starts
        let steps = zip(starts, starts.dropFirst()).map { $1 - $0 }.sorted()
        // At least a 240 Hz frame: frames stored at one instant are one moment.
        let dt =
            request.frameInterval ?? CaptureRate.step(starts: starts, median: max(steps[steps.count / 2], 1.0 / 240))
        let count = Int((pass.duration / dt).rounded())
        guard count <= Fitter.maximumFrames else {
            throw FitError.tooLong(frames: count, seconds: Double(count) * dt)
        }
        // The frame on screen at each step: a file that stores a still stretch as one long
        // frame is read as its capture had it.
        let stored = (0..<max(1, count)).compactMap { pass.index(atMoment: Double($0) * dt) }
        self.stored = stored
        let features = request.features
        // Only what each feature reads, now that the steps are known.
        let reads = { (j: Int, i: Int) in
            FeatureTracker.reads(features[j], frame: i, of: stored.count, interval: dt)
        }
        var frames = stored.indices.map { i in
            features.indices.map { j in reads(j, i) ? pass.kept[stored[i]].0[j] : nil }
        }
        // A moment the pass could not place (past the recording's end, or steps longer than its
        // margin) is read again.
        let missing = stored.indices.flatMap { i in
            features.indices.filter { j in reads(j, i) && frames[i][j] == nil }.map { j in (i, j) }
        }
        if !missing.isEmpty {
            let reader = RecordingRereader(try source.open())
            for (i, j) in missing.sorted(by: { stored[$0.0] < stored[$1.0] }) {
                frames[i][j] = ScoreImage(
                    try reader.frame(stored[i]),
                    region: features[j].region(width: pass.width, height: pass.height))
            }
        }
        self.frames = frames
        pictures = keepingPictures ? stored.map { pass.kept[$0].1! } : []
        self.small = small == nil ? [] : stored.map { pass.kept[$0].2! }
        self.features = features
        interval = dt
        size = (pass.width, pass.height)
        duration = pass.duration
    }

    func track(_ feature: RecordingFeature) -> [Double?] {
        let j = features.firstIndex(of: feature)!
        return FeatureTracker(feature: feature, frames: frames.count, interval: interval) { frames[$0][j]! }
            .positions()
    }
}

/// The render as a score reads it: at each recording frame's instant, placed on the
/// recording's frame and kept as the parts its features read; and where the capture steps
/// unevenly, at twice the display's rate too.
struct RenderedSide {
    let features: [RecordingFeature]
    /// Per recording frame it lasts to, each feature's part of ours, where the feature reads it.
    let frames: [[ScoreImage?]]
    let interval: Double
    /// The storyboard's time at the recording's first frame.
    let start: Double
    /// How long the render lasts.
    let seconds: Double
    let fine: FineFrames?
    /// The transition sampled, its frame at each recording frame, and where it is placed: to
    /// draw ours again for the pictures.
    let transition: Transition
    let shown: [Int]
    let size: (width: Int, height: Int)
    let screen: Crop?

    init(_ request: ScoreRequest, recorded: RecordedSide, images: ImageCache) throws {
        let dt = recorded.interval
        let fps = Self.fps(request, interval: dt)
        func sampled(fps: Double) throws -> Transition {
            try Transition(
                request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
                fps: fps, scale: 1, images: images)
        }
        let t = try sampled(fps: fps)
        let times = t.frameTimes
        seconds = Double(times.count) / fps
        let start = request.start ?? 0
        self.start = start
        // On as far as ours lasts.
        let shown = (0...max(0, Int(((seconds - start) / dt).rounded(.toNearestOrEven)))).map {
            Self.frame($0, interval: dt, fps: fps, start: start)
        }.filter { $0 < times.count }
        let regions = request.features.map { $0.region(width: recorded.size.width, height: recorded.size.height) }
        // Each feature's frames (a tracked layer's place is planned): ours is rendered where
        // one reads it.
        let reads = request.features.map { feature in
            shown.indices.map { FeatureTracker.reads(feature, frame: $0, of: shown.count, interval: dt) }
        }
        var wanted: [Int: Set<Int>] = [:]
        for i in shown.indices {
            for j in regions.indices where reads[j][i] { wanted[shown[i], default: []].insert(j) }
        }
        let needed = wanted.keys.sorted()
        var parts: [Int: [ScoreImage?]] = [:]
        // Placed a few at a time, on every core: a frame's parts are a function of its pixels.
        var batch: [(k: Int, bitmap: Bitmap)] = []
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let wants = wanted
        func place() {
            let placed = Mutex([[ScoreImage?]?](repeating: nil, count: batch.count))
            let batch = batch
            DispatchQueue.concurrentPerform(iterations: batch.count) { b in
                let j = wants[batch[b].k]!
                let image = ScoreImage(batch[b].bitmap)
                let cut = regions.indices.map {
                    j.contains($0) ? image.placed(in: recorded.size, screen: request.screen, part: regions[$0]) : nil
                }
                placed.withLock { $0[b] = cut }
            }
            for (b, cut) in placed.withLock({ $0 }).enumerated() { parts[batch[b].k] = cut! }
        }
        var k = 0
        try t.forEachFrame(at: needed.map { times[$0] }) { frame in
            batch.append((needed[k], frame.bitmap))
            k += 1
            if batch.count == 2 * cores {
                place()
                batch = []
            }
        }
        place()
        frames = shown.indices.map { i in regions.indices.map { reads[$0][i] ? parts[shown[i]]![$0] : nil } }
        self.shown = shown
        features = request.features
        interval = dt
        transition = t
        size = recorded.size
        screen = request.screen
        fine =
            try CaptureModel.stepsUnevenly(dt)
            ? FineFrames(
                sampled(fps: CaptureModel.fineFPS), size: recorded.size, screen: request.screen, regions: regions)
            : nil
    }

    /// The rate the render is sampled at: the request's, or the recording's within 1...120 fps.
    static func fps(_ request: ScoreRequest, interval dt: Double) -> Double { request.fps ?? min(120, max(1, 1 / dt)) }

    /// The render's frame shown at recording frame `i`, the recording starting `start` seconds
    /// into the storyboard (before it: the first frame).
    static func frame(_ i: Int, interval dt: Double, fps: Double, start: Double = 0) -> Int {
        max(0, Int(((Double(i) * dt + start) * fps).rounded(.toNearestOrEven)))
    }

    /// Ours at recording frame `i`, whole, as the recording shows its screen (for pictures).
    func picture(_ i: Int) throws -> ScoreImage {
        ScoreImage(transition.frame(at: transition.frameTimes[shown[i]]).bitmap).placed(in: size, screen: screen)
    }

    func track(_ feature: RecordingFeature) -> [Double?] {
        let j = features.firstIndex(of: feature)!
        return FeatureTracker(feature: feature, frames: frames.count, interval: interval) { frames[$0][j]! }
            .positions()
    }

    /// The feature in the fine frames, within `reach` seconds around each stretch of the
    /// recording's frames; nil where the capture steps evenly.
    func trackFine(_ feature: RecordingFeature, around spans: [Range<Int>], interval dt: Double, reach: Double)
        -> [Double?]?
    {
        guard let fine else { return nil }
        let j = features.firstIndex(of: feature)!
        // The stretches in the storyboard's time, which the fine frames keep.
        let windows = spans.map {
            Double($0.lowerBound) * dt - reach + start...Double($0.upperBound - 1) * dt + reach + start
        }
        // The frames within them, rendered on every core before the tracker asks for each.
        fine.render(
            fine.times.indices.filter { i in windows.contains { $0.contains(Double(i) / CaptureModel.fineFPS) } })
        let positions = FeatureTracker(
            feature: feature, frames: fine.count, interval: 1 / CaptureModel.fineFPS, frame: { fine.frame($0)[j] }
        )
        .positions(within: windows)
        // Indexed from the recording's first frame, as its own positions are.
        let shift = Int((start * CaptureModel.fineFPS).rounded())
        return shift >= 0
            ? Array(positions.dropFirst(shift)) : [Double?](repeating: nil, count: -shift) + positions
    }
}

/// A render's frames at the capture model's rate, each rendered, placed and cut into the
/// features' parts when first asked for.
final class FineFrames {
    let transition: Transition
    let times: [Double]
    let size: (width: Int, height: Int)
    let screen: Crop?
    let regions: [PixelRect]
    private var made: [Int: [ScoreImage]] = [:]

    init(_ transition: Transition, size: (width: Int, height: Int), screen: Crop?, regions: [PixelRect]) {
        self.transition = transition
        times = transition.frameTimes
        self.size = size
        self.screen = screen
        self.regions = regions
    }

    var count: Int { times.count }

    private func parts(_ bitmap: Bitmap) -> [ScoreImage] {
        let image = ScoreImage(bitmap)
        return regions.map { image.placed(in: size, screen: screen, part: $0) }
    }

    /// Renders frames `indices` not made yet, on every core.
    func render(_ indices: [Int]) {
        let missing = indices.filter { made[$0] == nil }
        guard !missing.isEmpty else { return }
        var k = 0
        try? transition.forEachFrame(at: missing.map { times[$0] }) { frame in
            made[missing[k]] = parts(frame.bitmap)
            k += 1
        }
    }

    /// Frame `i`'s parts, one per feature.
    func frame(_ i: Int) -> [ScoreImage] {
        if let made = made[i] { return made }
        let image = parts(transition.frame(at: times[i]).bitmap)
        made[i] = image
        return image
    }
}

extension ScoreResult {
    /// The table `flipbook score` prints: per feature, then per stretch of motion.
    public func table(title: String) -> String {
        func f(_ format: String, _ args: CVarArg...) -> String { String(format: format, arguments: args) }
        func lagText(_ lag: Lag?) -> String {
            guard let lag else { return "\(right("-", 7)) \(right("-", 7)) \(right("-", 9))" }
            return f("%+7.0f %+7.2f %9.1f", lag.frames * interval * 1000, lag.frames, lag.rms)
        }
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func right(_ s: String, _ n: Int) -> String {
            s.count >= n ? s : String(repeating: " ", count: n - s.count) + s
        }
        var lines = [f("%@  (one frame %.0f ms; lag: ours later than the recording is +)", title, interval * 1000)]
        let captured = features.contains { $0.stretches.contains { $0.captured != nil } }
        let extra = captured ? "   as captured:  RMS  worst phase lag ms" : ""
        // As wide as the longest name: every figure stands under its heading.
        let name = features.map(\.name.count).reduce(18, max)
        lines.append(
            "  " + pad("feature", name)
                + " frames  RMS px  worst px   at s  lag ms  frames  RMS then"
                + extra)
        for feature in features {
            guard feature.frames > 0 else {
                lines.append("  \(pad(feature.name, name)) not found in both")
                continue
            }
            lines.append(
                "  \(pad(feature.name, name))"
                    + f(" %6d %7.1f %+9.1f %6.2f ", feature.frames, feature.rms, feature.worst, feature.worstAt)
                    + lagText(feature.lag))
            for s in feature.stretches {
                let rms = s.rms.map { f("%7.1f", $0) } ?? right("-", 7)
                let fit =
                    s.captured.map {
                        String(repeating: " ", count: 16)
                            + f("%4.1f %+6.1f %5.1f %+6.0f", $0.rms, $0.worst, $0.phase, $0.lag * 1000)
                    } ?? ""
                // A stretch's label runs on under the frames column, which it leaves empty.
                lines.append(
                    "    " + pad(f("moving %.2f-%.2f s", s.start, s.end), name + 5)
                        + " \(rms) \(pad("", 9)) \(pad("", 6)) "
                        + lagText(s.lag) + fit)
            }
        }
        if features.contains(where: { $0.unit != "px" }) {
            lines.append("  (a level's figures are per cent of the way between its two looks, not px)")
        }
        for u in unfollowed {
            let spans = u.spans.map { f("%.2f-%.2f s", $0.lowerBound, $0.upperBound) }.joined(separator: ", ")
            lines.append(
                "  \(u.layer): not followed at \(spans), left out of its rows: the tracker does not find it there in the recording, or finds its look there without its outline (content moving within it), or, on our own render, does not find it where the plan puts it"
            )
        }
        return lines.joined(separator: "\n")
    }
}
