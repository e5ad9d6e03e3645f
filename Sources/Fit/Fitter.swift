import Foundation
import Synchronization

import struct Flipbook.Bitmap
import struct Flipbook.FrameSequence
import class Flipbook.ImageCache
import struct Flipbook.Motion
import struct Flipbook.Transition

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
        public var range: ClosedRange<Double>
    }

    /// How far the render is from the recording, before and after: for a tracked layer, the
    /// RMS and worst distance of its edges in points; for the whole frame, the mean absolute
    /// difference in levels (0...255).
    public struct Residual: Sendable {
        public var layer: String?
        public var rmsBefore: Double
        public var worstBefore: Double
        public var rmsAfter: Double
        public var worstAfter: Double
        /// For a tracked layer: the instants compared after the fit, and how many of them were
        /// farther than the cap (where the tracker took something else for the layer: another
        /// layer over it); the RMS and worst count the others.
        public var instants = 0
        public var beyondCap = 0
        public var unit: String { layer == nil ? "levels" : "pt" }
    }

    public var values: [Value]
    /// The storyboard time of the recording's first frame, before and after.
    public var offsetBefore: Double
    public var offsetAfter: Double
    public var residuals: [Residual]
    public var evaluations: Int
    /// The recording's frames and their times (after `--frame-interval`).
    public var frameTimes: [Double]
    /// `key=value` for each fitted value, as `--set` takes them.
    public var assignments: [String] { values.map { "\($0.key)=\(Self.text($0.after))" } }
    /// The UIKit code of each fitted animation param.
    public var code: [(key: String, lines: [String])]

    /// A value to four decimals, as configs print them.
    public static func text(_ v: Double) -> String {
        let r = (v * 10_000).rounded() / 10_000
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : "\(r)"
    }
}

/// Finds the values of a scene's params that make its storyboard move like a recording:
/// UIKit's own curves, searched within the params' declared ranges by Nelder–Mead, with the
/// recording's start in the storyboard found too.
public enum Fitter {
    /// The width of the pictures a layer is followed in, in pixels: enough for sub-point motion.
    static let workingWidth = 160
    /// The width of whole frames compared: motion shows in the mean difference at any size,
    /// and each evaluation renders every instant of the recording.
    static let frameWidth = 80

    public static func fit(
        _ request: FitRequest, recording: FrameSequence, images: ImageCache = ImageCache()
    ) throws -> FitResult {
        guard recording.frames.count >= 2 else {
            throw FitError.tooShort(frames: recording.frames.count)
        }
        let base = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
            images: images)
        let keys = try resolveKeys(request, base)
        let canvas = base.canvas
        let k = Double(workingWidth) / canvas.width
        let height = Int((canvas.height * k).rounded())
        let first = recording.frames[0].bitmap
        if let crop = request.crop {
            guard crop.x >= 0, crop.y >= 0, crop.width > 1, crop.height > 1, crop.x + crop.width <= first.width,
                crop.y + crop.height <= first.height
            else { throw FitError.crop(crop, width: first.width, height: first.height) }
        }
        let starts = recording.frames.indices.map { i in
            request.frameInterval.map { Double(i) * $0 } ?? recording.frames[i].start
        }
        let end = request.frameInterval.map { Double(recording.frames.count) * $0 } ?? recording.duration
        let (times, shown) = Fitter.uniformSamples(starts: starts, end: end)
        let pictures = recording.frames.map {
            LumaImage($0.bitmap, crop: request.crop, width: workingWidth, height: height)
        }
        let motion = zip(pictures, pictures.dropFirst()).map { $0.meanDifference($1) }.max() ?? 0
        guard motion >= 0.25 else { throw FitError.noMotion }

        let problem = try Problem(
            request: request, keys: keys, base: base, images: images, times: times, shown: shown, pictures: pictures,
            k: k, height: height)
        let start = keys.map(\.value)
        let before = try problem.measure(start, offset: problem.initialOffsets.first)
        // A key that moves nothing (a duration the curve ignores, a param the storyboard does
        // not read) would leave the search wandering: it is an error, named.
        for (i, key) in keys.enumerated() {
            var other = start
            let span = key.range.upperBound - key.range.lowerBound
            other[i] = start[i] + (start[i] + span * 0.1 <= key.range.upperBound ? span * 0.1 : -span * 0.1)
            if try !problem.moves(from: start, to: other, offset: before.offset) {
                throw FitError.noEffect(key: key.key)
            }
        }
        var best = (values: start, offset: before.offset, score: before.score)
        var steps = keys.map { key in
            let span = key.range.upperBound - key.range.lowerBound
            return min(span / 4, max(abs(key.value) * 0.25, span * 0.02))
        }
        var bounds = keys.map(\.range)
        // Whole frames: the recording's start is searched with the values (its own dimension);
        // a tracked layer's best start is found exactly for each set of values.
        let searchesOffset = problem.tracks.isEmpty
        if searchesOffset {
            steps.append(0.04)
            bounds.append(problem.offsetRange)
        }
        // From each candidate start (whole frames: the best alignment as the values are now,
        // and the alignment of the first motion), runs restart from the last one's end with
        // smaller steps, which gets Nelder–Mead out of a simplex that collapsed early (a
        // duration and the start trade against each other); they stop once a run gains less
        // than a percent. The best of all wins.
        // A coarse look around first (up to three keys): each value at 0.6 to 1.6 times its
        // own, every combination; the best point found starts the search. A spring's duration
        // and damping trade against each other and against the start, so a search from the
        // scene's values alone can end in the wrong valley.
        if keys.count <= 3 {
            let factors = [0.6, 0.8, 1, 1.25, 1.6]
            var grid: [[Double]] = [[]]
            for key in keys {
                let candidates = Set(
                    factors.map { min(max(key.value * $0, key.range.lowerBound), key.range.upperBound) })
                grid = grid.flatMap { point in candidates.sorted().map { point + [$0] } }
            }
            for point in grid where point != best.values {
                for offset in searchesOffset ? problem.initialOffsets : [best.offset] {
                    let m = try problem.measure(point, offset: searchesOffset ? offset : nil)
                    if m.score < best.score { best = (point, m.offset, m.score) }
                }
            }
        }
        let origin = best
        for offset in searchesOffset ? problem.initialOffsets : [origin.offset] {
            var current = (
                values: origin.values, offset: offset, score: try problem.measure(origin.values, offset: offset).score
            )
            for run in 0..<4 {
                let result = NelderMead.minimize(
                    start: current.values + (searchesOffset ? [current.offset] : []),
                    steps: steps.map { $0 / pow(3, Double(run)) }, bounds: bounds,
                    maximumEvaluations: 40 + 30 * bounds.count
                ) { point in
                    let values = Array(point.prefix(keys.count))
                    return (try? problem.measure(values, offset: searchesOffset ? point.last! : nil).score) ?? .infinity
                }
                guard result.score < current.score else { break }
                let values = Array(result.point.prefix(keys.count))
                let m = try problem.measure(values, offset: searchesOffset ? result.point.last! : nil)
                let gain = (current.score - m.score) / max(current.score, 1e-9)
                current = (values, m.offset, m.score)
                if gain < 0.01 && run > 0 { break }
            }
            if current.score < best.score { best = current }
        }
        let after = try problem.measure(best.values, offset: searchesOffset ? best.offset : nil)
        var residuals: [FitResult.Residual] = []
        for (i, layer) in (request.track.isEmpty ? [nil] : request.track.map { Optional($0) }).enumerated() {
            residuals.append(
                FitResult.Residual(
                    layer: layer, rmsBefore: before.layers[i].rms, worstBefore: before.layers[i].worst,
                    rmsAfter: after.layers[i].rms, worstAfter: after.layers[i].worst, instants: after.layers[i].count,
                    beyondCap: after.layers[i].beyond))
        }
        let fitted = try problem.transition(best.values)
        let animations = Set(keys.compactMap(\.animation))
        return FitResult(
            values: zip(keys, best.values).map {
                FitResult.Value(key: $0.key, before: $0.value, after: $1, range: $0.range)
            },
            offsetBefore: before.offset, offsetAfter: after.offset, residuals: residuals,
            evaluations: problem.evaluations.value, frameTimes: starts,
            code: animations.sorted().compactMap { key in fitted.motion(of: key).map { (key, $0.code) } })
    }

    /// Instants at the recording's finest frame interval from its first frame to its end, and
    /// the frame showing at each: a frame held long (a GIF's merged hold) counts for as long as
    /// it shows, not once.
    static func uniformSamples(starts: [Double], end: Double) -> (times: [Double], shown: [Int]) {
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }.filter { $0 > 0.001 }
        let step = max(1.0 / 60, gaps.min() ?? 1.0 / 30)
        let last = max(end, (starts.last ?? 0) + step)
        var times: [Double] = [], shown: [Int] = []
        var t = starts[0], frame = 0
        while t < last - step / 2 && times.count < 20_000 {
            while frame + 1 < starts.count && starts[frame + 1] <= t + 1e-9 { frame += 1 }
            times.append(t)
            shown.append(frame)
            t += step
        }
        return (times, shown)
    }

    /// A key to fit, with its value now and the range searched.
    struct Key {
        var key: String
        var value: Double
        var range: ClosedRange<Double>
        /// The animation param it is a part of.
        var animation: String?
    }

    static func resolveKeys(_ request: FitRequest, _ t: Transition) throws -> [Key] {
        guard !request.keys.isEmpty else { throw FitError.noKeys }
        let params = t.parameters
        return try request.keys.map { key in
            if let p = params.first(where: { $0.key == key }) {
                guard [.number, .seconds, .integer].contains(p.kind) else {
                    if p.kind == .animation {
                        throw FitError.notANumber(key: key, kind: "an animation; fit \(key).duration or \(key).damping")
                    }
                    throw FitError.notANumber(key: key, kind: "a \(p.kind.rawValue)")
                }
                guard let range = request.ranges[key] ?? (p.declaresRange ? p.range : nil) else {
                    throw FitError.noRange(key: key)
                }
                return Key(key: key, value: Double(p.value) ?? 0, range: range)
            }
            let parent = key.split(separator: ".").dropLast().joined(separator: ".")
            let part = key.split(separator: ".").last.map(String.init) ?? ""
            if let p = params.first(where: { $0.key == parent }), let a = p.animation {
                let parts: [String: (Double, ClosedRange<Double>)] = [
                    "duration": (a.duration, 0.01...10), "damping": (a.damping, 0.01...1),
                    "velocity": (a.velocity, -50...50),
                ]
                guard let (value, range) = parts[part] else {
                    throw FitError.notANumber(key: key, kind: "the curve spec of an animation")
                }
                return Key(key: key, value: value, range: request.ranges[key] ?? range, animation: parent)
            }
            throw FitError.unknownKey(key, known: params.map(\.key))
        }
    }
}

/// The search's objective, with what stays the same between evaluations: the recording's
/// pictures, and for tracked layers, where each shows in each frame.
final class Problem: Sendable {
    let request: FitRequest
    let keys: [Fitter.Key]
    let images: ImageCache
    /// The instants compared, and the recording frame showing at each.
    let times: [Double]
    let shown: [Int]
    let pictures: [LumaImage]
    let k: Double
    let height: Int
    /// Per tracked layer, its match in each recording frame (nil where it could not be followed).
    let tracks: [[LayerTracker.Match?]]
    /// Per tracked layer, the instants compared: those at which the scene, as it is, draws the
    /// layer (at the whole-frame alignment). Elsewhere the recording shows something else there
    /// (the layer hidden, another over it), which is not its motion. One set for every
    /// evaluation, so that scores compare.
    let compared: [[Bool]]
    /// For whole frames: the recording's frames at `Fitter.frameWidth`.
    let small: [LumaImage]
    let smallHeight: Int
    /// Candidates for the storyboard time of the recording's first frame, as the scene's
    /// values have it now: the best alignment of every frame, then that of the first motion.
    let initialOffsets: [Double]
    /// The offsets searched.
    let offsetRange: ClosedRange<Double>
    let evaluations = Counter()
    /// The farthest a tracked layer's edges count in the search, in points.
    static let cap = 24.0

    init(
        request: FitRequest, keys: [Fitter.Key], base: Transition, images: ImageCache, times: [Double],
        shown: [Int], pictures: [LumaImage], k: Double, height: Int
    ) throws {
        self.request = request
        self.keys = keys
        self.images = images
        self.times = times
        self.shown = shown
        self.pictures = pictures
        self.k = k
        self.height = height
        // Offsets that keep at least three quarters of the recording inside the storyboard:
        // past that, a start that shows only a hold would match anything.
        let length = (times.last ?? 0) - (times.first ?? 0)
        let low = -0.25 * length
        offsetRange = low...max(low, base.duration - 0.75 * length)
        let h = Int((base.canvas.height * Double(Fitter.frameWidth) / base.canvas.width).rounded())
        smallHeight = h
        let small = pictures.map { p in
            // Box-filter the working pictures down (the same rule as from the bitmaps).
            LumaImage(
                width: Fitter.frameWidth, height: h,
                pixels: (0..<(Fitter.frameWidth * h)).map { i in
                    let fx = Double(p.width) / Double(Fitter.frameWidth), fy = Double(p.height) / Double(h)
                    return p.sample(
                        (Double(i % Fitter.frameWidth) + 0.5) * fx - 0.5,
                        (Double(i / Fitter.frameWidth) + 0.5) * fy - 0.5)
                })
        }
        self.small = small
        let offsets = try Problem.startOffsets(
            small: shown.map { small[$0] }, times: times, height: h, range: offsetRange, images: images,
            request: request)
        initialOffsets = offsets.count == 2 && abs(offsets[0] - offsets[1]) < 0.03 ? [offsets[0]] : offsets
        // A tracked layer is placed by the first motion's alignment, which holds for a
        // recording of other content (whole frames of other pixels align anywhere).
        let aligned = offsets.last ?? 0
        // The recording frame showing at a storyboard time.
        let frameAt = { (time: Double) -> Int in
            let i = times.lastIndex { $0 <= time - aligned + 1e-9 } ?? 0
            return shown[i]
        }
        tracks = try request.track.map { layer in
            try Problem.follow(layer, in: pictures, base: base, k: k, height: height, frameAt: frameAt)
        }
        // Where the tracked motion lines up with the plan's, as the values are now: an
        // alignment by the layer itself, whatever else the recording shows.
        let tracked = Problem.alignTracks(
            tracks, shown: shown, times: times, base: base, layers: request.track, k: k, range: offsetRange)
        // A quarter second either side must be drawn too: near where the layer appears or goes,
        // the fit's own values move that moment, and the recording there may show another layer.
        compared = request.track.map { layer in
            times.map { time in
                stride(from: -0.25, through: 0.25, by: 0.05).allSatisfy { d in
                    let at = min(max(time + tracked + d, 0), base.duration)
                    return (base.drawnBounds(ofLayer: layer, at: at)?.alpha ?? 0) >= 0.5
                }
            }
        }
    }

    /// The offset at which the tracked layers' places best match the plan's (each instant's
    /// distance capped), over every followed instant.
    static func alignTracks(
        _ tracks: [[LayerTracker.Match?]], shown: [Int], times: [Double], base: Transition, layers: [String],
        k: Double, range: ClosedRange<Double>
    ) -> Double {
        let step = 0.02
        let n = Int((base.duration / step).rounded(.up)) + 1
        let rects = layers.map { layer in
            (0..<n).map { base.bounds(ofLayer: layer, at: min(Double($0) * step, base.duration)) }
        }
        func score(_ offset: Double) -> Double {
            var sum = 0.0, count = 0
            for (l, matches) in tracks.enumerated() {
                for (i, frame) in shown.enumerated() {
                    guard let m = matches[frame] else { continue }
                    let x = min(max(times[i] + offset, 0), base.duration) / step
                    guard let p = rects[l][min(Int(x.rounded()), n - 1)] else { continue }
                    let d = [p.x - m.x / k, p.y - m.y / k, p.x + p.width - (m.x + m.width) / k]
                    let e = min(Problem.cap, (d.reduce(0) { $0 + $1 * $1 } / 3).squareRoot())
                    sum += e * e
                    count += 1
                }
            }
            return count == 0 ? .infinity : sum / Double(count)
        }
        var best = (offset: 0.0, score: Double.infinity)
        var o = range.lowerBound
        while o <= range.upperBound {
            let s = score(o)
            if s < best.score { best = (o, s) }
            o += step
        }
        return best.offset
    }

    /// The recording's start in the storyboard, as it is now: every storyboard frame on a fine
    /// grid against every recording frame, the offset with the least difference; and the
    /// offset that lines up the first change in each (where the first motion starts).
    static func startOffsets(
        small: [LumaImage], times: [Double], height: Int, range: ClosedRange<Double>,
        images: ImageCache, request: FitRequest
    ) throws -> [Double] {
        let t = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
            width: Fitter.frameWidth, images: images)
        let step = 0.02
        let grid = stride(from: 0.0, through: t.duration, by: step).map { $0 }
        var rendered: [LumaImage] = []
        try t.forEachFrame(at: grid) { rendered.append(LumaImage($0.bitmap, width: Fitter.frameWidth, height: height)) }
        var best = (offset: 0.0, score: Double.infinity)
        var o = range.lowerBound
        while o <= range.upperBound {
            var sum = 0.0
            for (i, picture) in small.enumerated() {
                let x = min(max(times[i] + o, 0), t.duration) / step
                sum += picture.meanDifference(rendered[min(Int(x.rounded()), rendered.count - 1)])
            }
            if sum < best.score { best = (o, sum) }
            o += step
        }
        let moves = { (pictures: [LumaImage]) in pictures.firstIndex { $0.meanDifference(pictures[0]) > 1 } }
        guard let ours = moves(rendered), let theirs = moves(small) else { return [best.offset] }
        return [best.offset, grid[ours] - times[theirs]]
    }

    /// The transition with `values` for the keys.
    func transition(_ values: [Double], width: Int? = nil) throws -> Transition {
        let set = zip(keys, values).map { key, v in
            "\(key.key)=\(FitResult.text(v))"
        }
        return try Transition(
            request.scene, storyboard: request.storyboard, config: request.config,
            set: request.assignments + set, width: width, images: images)
    }

    struct Measure {
        var score: Double
        var offset: Double
        var layers: [(rms: Double, worst: Double, count: Int, beyond: Int)]
    }

    /// How far the transition with `values` is from the recording, at the best offset.
    /// How far the transition with `values` is from the recording: for whole frames at
    /// `offset`, for tracked layers at the best offset for those values.
    func measure(_ values: [Double], offset: Double?) throws -> Measure {
        evaluations.add()
        return tracks.isEmpty ? try measureFrames(values, offset: offset ?? 0) : try measureTracks(values)
    }

    // MARK: Tracked layers

    /// Each tracked layer's rect (points) on a grid of storyboard times, for interpolation.
    /// Whether the storyboard differs between two sets of values: its frames (whole frames) or
    /// the tracked layers' places.
    func moves(from a: [Double], to b: [Double], offset: Double) throws -> Bool {
        guard !tracks.isEmpty else {
            return try abs(measure(a, offset: offset).score - measure(b, offset: offset).score) > 1e-9
        }
        let (ta, tb) = (try transition(a), try transition(b))
        let ra = planRects(ta, step: 0.02), rb = planRects(tb, step: 0.02)
        return ra.count != rb.count
            || zip(ra, rb).contains { x, y in
                x.count != y.count
                    || zip(x, y).contains { p, q in
                        guard let p, let q else { return (p == nil) != (q == nil) }
                        return abs(p.0 - q.0) + abs(p.1 - q.1) + abs(p.2 - q.2) + abs(p.3 - q.3) > 1e-9
                    }
            }
    }

    /// Each tracked layer's place on a grid of storyboard times.
    private func planRects(_ t: Transition, step: Double) -> [[(Double, Double, Double, Double)?]] {
        let n = Int((t.duration / step).rounded(.up)) + 1
        return request.track.map { layer in
            (0..<n).map { i in t.bounds(ofLayer: layer, at: min(Double(i) * step, t.duration)) }
        }
    }

    private func measureTracks(_ values: [Double]) throws -> Measure {
        let t = try transition(values)
        let step = 0.01
        let rects = planRects(t, step: step)
        func rect(_ layer: Int, _ time: Double) -> (Double, Double, Double, Double)? {
            let x = min(max(time, 0), t.duration) / step
            let i = min(Int(x), rects[layer].count - 1), j = min(i + 1, rects[layer].count - 1)
            guard let a = rects[layer][i], let b = rects[layer][j] else { return nil }
            let f = x - Double(i)
            return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f, a.3 + (b.3 - a.3) * f)
        }
        /// Edge distances (points) of every followed frame at `offset`.
        func errors(_ offset: Double) -> [[Double]] {
            tracks.enumerated().map { layer, matches in
                shown.enumerated().compactMap { i, frame -> Double? in
                    guard compared[layer][i], let m = matches[frame] else { return nil }
                    guard let p = rect(layer, times[i] + offset) else { return nil }
                    // The left, top and right edges: the look is the layer's top at its width, and
                    // a layer's height may grow apart from its width (a card opening to full screen).
                    let (x, y, w) = (m.x / k, m.y / k, m.width / k)
                    let d = [p.0 - x, p.1 - y, p.0 + p.2 - x - w]
                    return (d.reduce(0) { $0 + $1 * $1 } / 3).squareRoot()
                }
            }
        }
        // The search's score caps each frame's distance: a frame where the tracker took
        // something else for the layer (another card over it) costs the same whatever the
        // values, instead of outweighing the frames that were followed. The report's RMS
        // counts every frame as it is.
        let cap = Problem.cap
        func score(_ e: [[Double]]) -> Double {
            let all = e.flatMap { $0 }
            return (all.reduce(0) { $0 + min($1, cap) * min($1, cap) } / Double(max(1, all.count))).squareRoot()
        }
        let offset = bestOffset(duration: t.duration) { score(errors($0)) }
        let e = errors(offset)
        return Measure(
            score: score(e), offset: offset,
            layers: e.map { all in
                let near = all.filter { $0 <= cap }
                return (
                    (near.reduce(0) { $0 + $1 * $1 } / Double(max(1, near.count))).squareRoot(), near.max() ?? 0,
                    all.count, all.count - near.count
                )
            })
    }

    /// The offset in `offsetRange` with the least `score`: a grid, then golden-section.
    private func bestOffset(duration: Double, _ score: (Double) -> Double) -> Double {
        let start = min(max(0, offsetRange.lowerBound), offsetRange.upperBound)
        var best = (offset: start, score: score(start))
        var o = offsetRange.lowerBound
        while o <= offsetRange.upperBound {
            let s = score(o)
            if s < best.score { best = (o, s) }
            o += 0.02
        }
        var lo = max(offsetRange.lowerBound, best.offset - 0.02), hi = min(offsetRange.upperBound, best.offset + 0.02)
        let g = (5.0.squareRoot() - 1) / 2
        for _ in 0..<24 {
            let a = hi - g * (hi - lo), b = lo + g * (hi - lo)
            if score(a) < score(b) { hi = b } else { lo = a }
        }
        let refined = (lo + hi) / 2
        return score(refined) <= best.score ? refined : best.offset
    }

    // MARK: Whole frames

    private func measureFrames(_ values: [Double], offset: Double) throws -> Measure {
        let t = try transition(values, width: Fitter.frameWidth)
        var rendered: [LumaImage] = []
        let instants = times.map { min(max($0 + offset, 0), t.duration) }
        try t.forEachFrame(at: instants) {
            rendered.append(LumaImage($0.bitmap, width: Fitter.frameWidth, height: smallHeight))
        }
        let diffs = zip(shown, rendered).map { small[$0].meanDifference($1) }
        let mean = diffs.reduce(0, +) / Double(diffs.count)
        return Measure(score: mean, offset: offset, layers: [(mean, diffs.max() ?? 0, diffs.count, 0)])
    }

    // MARK: Following a layer

    /// Finds `layer` in every recording frame. Its look is cut from the recording frame that
    /// shows the storyboard's first instant where the layer is drawn (placed by the whole-frame
    /// alignment), at the plan's place for it then: the recording's own pixels are followed,
    /// whatever the scene's snapshots show. From there it is followed forward and back, each
    /// frame searched around the last match, and the whole frame where that fails.
    static func follow(
        _ layer: String, in pictures: [LumaImage], base: Transition, k: Double, height: Int,
        frameAt: (Double) -> Int
    ) throws -> [LayerTracker.Match?] {
        guard base.layerNames.contains(layer) else { throw FitError.unknownLayer(layer, known: base.layerNames) }
        let canvas = base.canvas
        let instants = Array(stride(from: 0.0, through: base.duration, by: 0.02))
        // The first stretch of a tenth of a second or more in which the plan holds it still,
        // wholly on screen: its middle is the reference, which an alignment a frame or two off
        // still finds at rest. (Recordings start at rest, where the layer shows as it is.)
        func placed(_ time: Double) -> (Double, Double, Double, Double)? {
            guard let r = base.bounds(ofLayer: layer, at: time), r.width >= 4, r.height >= 4, r.x >= -0.5,
                r.y >= -0.5, r.x + r.width <= canvas.width + 0.5, r.y + r.height <= canvas.height + 0.5
            else { return nil }
            return (r.x, r.y, r.width, r.height)
        }
        var still: (start: Int, count: Int)?
        var run: (start: Int, count: Int, rect: (Double, Double, Double, Double))?
        for (i, time) in instants.enumerated() {
            guard let r = placed(time) else {
                run = nil
                continue
            }
            if let current = run,
                abs(current.rect.0 - r.0) + abs(current.rect.1 - r.1) + abs(current.rect.2 - r.2) < 0.5
            {
                run!.count += 1
            } else {
                run = (i, 1, r)
            }
            if run!.count >= 5 && (still == nil || still!.start == run!.start) { still = (run!.start, run!.count) }
        }
        guard let still, let r = base.bounds(ofLayer: layer, at: instants[still.start + still.count / 2]) else {
            throw FitError.layerNeverOnScreen(layer)
        }
        let shownAt = instants[still.start + still.count / 2]
        let widths = instants.compactMap { base.bounds(ofLayer: layer, at: $0)?.width }.filter { $0 >= 1 }
        // Held still from the storyboard's start: the recording's first frame shows it there.
        let reference = still.start == 0 ? 0 : frameAt(shownAt)
        let (rx, ry, rw, rh) = (r.x * k, r.y * k, r.width * k, r.height * k)
        let tw = max(2, Int(rw.rounded())), th = max(2, Int(rh.rounded()))
        let template = LumaImage(
            width: tw, height: th,
            pixels: (0..<(tw * th)).map { i in pictures[reference].sample(rx + Double(i % tw), ry + Double(i / tw)) })
        let tracker = LayerTracker(template: template, at: (rx, ry, rw, rh))
        guard tracker.contrast >= 3 else { throw FitError.flatLayer(layer) }
        let scales = (widths.min()! / r.width * 0.8)...(widths.max()! / r.width * 1.25)
        let full = Double(max(Fitter.workingWidth, height))
        // A match this far from the template's look (mean difference, levels) is not the layer.
        let limit = max(12, tracker.contrast * 0.8)
        var matches = [LayerTracker.Match?](repeating: nil, count: pictures.count)
        for order in [Array(reference..<pictures.count), Array((0..<reference).reversed())] {
            var last = LayerTracker.Match(x: rx, y: ry, width: rw, height: rh, error: 0)
            for i in order {
                let s = last.width / rw
                var m = tracker.match(
                    in: pictures[i], near: (last.centerX, last.centerY, s), radius: full * 0.15,
                    scales: max(scales.lowerBound, s * 0.75)...min(scales.upperBound, s * 1.33))
                if m.error > limit {
                    let wide = tracker.match(
                        in: pictures[i], near: (Double(Fitter.workingWidth) / 2, Double(height) / 2, s),
                        radius: full / 2, scales: scales)
                    if wide.error < m.error { m = wide }
                }
                if m.error <= limit {
                    matches[i] = m
                    last = m
                }
            }
        }
        let followed = matches.compactMap { $0 }.count
        if followed * 2 < matches.count {
            throw FitError.cannotFollow(layer, frame: matches.firstIndex { $0 == nil } ?? 0)
        }
        return matches
    }
}

/// A count that several threads may add to.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
