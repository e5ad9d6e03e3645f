import Foundation
import Geometry
import Synchronization

import struct Flipbook.Bitmap
import class Flipbook.FrameReader
import struct Flipbook.FrameSequence
import class Flipbook.ImageCache
import struct Flipbook.Motion
import struct Flipbook.Transition

/// Finds the values of a scene's params that make its storyboard move like a recording:
/// UIKit's own curves, searched within the params' declared ranges by Nelder–Mead, with the
/// recording's start in the storyboard found too.
public enum Fitter {
    /// The width of the pictures a layer is followed in, in pixels: enough for sub-point motion.
    static let workingWidth = 160
    /// The width of whole frames compared: motion shows in the mean difference at any size,
    /// and each evaluation renders every instant of the recording.
    static let frameWidth = 80
    /// Where a search run stops: its simplex's scores within this share of the best, and its
    /// points within ten times this of each other in every value (a millisecond, a thousandth
    /// of a damping ratio, a thousandth of a point). Renders differ by whole levels at a few
    /// pixels, so a score settles long before its point does at finer steps.
    static let searchTolerance = 1e-4

    /// The most frames and seconds of recording a fit reads: minutes of a 60 Hz capture, far
    /// past any transition, and within memory and time on a laptop.
    public static let maximumFrames = 3600
    public static let maximumSeconds = 120.0

    public static func fit(
        _ request: FitRequest, recording stored: FrameSequence, images: ImageCache = ImageCache()
    ) throws -> FitResult {
        try fit(request, source: RecordingSource(stored), images: images)
    }

    /// Fits `request` to the recording `source` reads, a frame at a time: of each frame it
    /// keeps the screen at the working size and a thumbnail for the sheet's moments.
    public static func fit(
        _ request: FitRequest, source: RecordingSource, images: ImageCache = ImageCache()
    ) throws -> FitResult {
        for key in request.ranges.keys.sorted() where !request.keys.contains(key) {
            throw FitError.rangeForUnfittedKey(key, fitted: request.keys)
        }
        let base = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
            images: images)
        let keys = try resolveKeys(request, base)
        let canvas = base.canvas
        let k = Double(workingWidth) / canvas.width
        let height = Int((canvas.height * k).rounded())
        // Frames of another shape hold more than the screen (a simulator's window, a device
        // frame): the screen is found, or the fit says which --crop it would take.
        var request = request
        var foundScreen: Crop?
        if request.crop == nil {
            do {
                foundScreen = try ScreenFinder.screen(of: source.open(), canvas: canvas, duration: base.duration) {
                    base.frame(at: $0).bitmap
                }
            } catch let error as ScreenNotFound {
                throw FitError.screenNotFound(error)
            }
            request.crop = foundScreen
        }
        let crop = request.crop
        let read = {
            try RecordingPass(source.open(), frameInterval: request.frameInterval) { bitmap in
                if let crop, !crop.fits(width: bitmap.width, height: bitmap.height) {
                    throw FitError.crop(crop, width: bitmap.width, height: bitmap.height)
                }
                return (
                    picture: LumaImage(bitmap, crop: crop, width: workingWidth, height: height),
                    thumbnail: LumaImage(bitmap, crop: crop, width: 48, height: 48)
                )
            }
        }
        let passKey = FitPasses.Key(crop: crop, frameInterval: request.frameInterval, height: height)
        let pass = try source.fitPasses?.pass(passKey, read) ?? read()
        pass.suspectedRate.map(source.suspected)
        let starts = pass.starts
        let (times, shown) = Fitter.uniformSamples(starts: starts, end: pass.duration)
        let pictures = pass.kept.map(\.picture)
        let motion = zip(pictures, pictures.dropFirst()).map { $0.meanDifference($1) }.max() ?? 0
        guard motion >= 0.25 else { throw FitError.noMotion }

        let problem = try Problem(
            request: request, keys: keys, base: base, images: images, times: times, shown: shown, pictures: pictures,
            k: k, height: height
        ) { smallHeight, blurred, make in
            source.fitPasses?.small(.init(pass: passKey, height: smallHeight, blurred: blurred), make) ?? make()
        }
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
        // Searched blurred where asked (whole frames), then refined on the frames as they are.
        let blur = request.blursText && request.searches && problem.tracks.isEmpty
        var best = (values: start, offset: before.offset, score: before.score)
        if blur {
            best.score = try problem.measure(start, offset: before.offset, blurred: true).score
        }
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
        if request.searches && request.looksAround && keys.count <= 3 {
            let factors = [0.6, 0.8, 1, 1.25, 1.6]
            var grid: [[Double]] = [[]]
            for key in keys {
                let candidates = Set(
                    factors.map { min(max(key.value * $0, key.range.lowerBound), key.range.upperBound) })
                grid = grid.flatMap { point in candidates.sorted().map { point + [$0] } }
            }
            for point in grid where point != best.values {
                for offset in searchesOffset ? problem.initialOffsets : [best.offset] {
                    let m = try problem.measure(point, offset: searchesOffset ? offset : nil, blurred: blur)
                    if m.score < best.score { best = (point, m.offset, m.score) }
                }
            }
        }
        // Values not searched were found already, with their start where the scene puts it:
        // the recording is aligned there (offset 0) unless a candidate start aligns it better.
        if !request.searches && searchesOffset {
            for offset in [0] + problem.initialOffsets {
                let m = try problem.measure(best.values, offset: offset)
                if m.score < best.score { best = (best.values, m.offset, m.score) }
            }
        }
        let origin = best
        /// Nelder–Mead runs from `current`, each with smaller steps (a third of the last's, from
        /// run `runs.lowerBound`'s), blurred or not.
        func search(
            _ current: (values: [Double], offset: Double, score: Double), runs: Range<Int>, blurred: Bool
        ) throws -> (values: [Double], offset: Double, score: Double) {
            var current = current
            for run in runs {
                let result = NelderMead.minimize(
                    start: current.values + (searchesOffset ? [current.offset] : []),
                    steps: steps.map { $0 / pow(3, Double(run)) }, bounds: bounds,
                    maximumEvaluations: 40 + 30 * bounds.count, tolerance: Fitter.searchTolerance
                ) { point in
                    let values = Array(point.prefix(keys.count))
                    return
                        (try? problem.measure(values, offset: searchesOffset ? point.last! : nil, blurred: blurred)
                        .score) ?? .infinity
                }
                guard result.score < current.score else { break }
                let values = Array(result.point.prefix(keys.count))
                let m = try problem.measure(values, offset: searchesOffset ? result.point.last! : nil, blurred: blurred)
                let gain = (current.score - m.score) / max(current.score, 1e-9)
                current = (values, m.offset, m.score)
                if gain < 0.01 && run > runs.lowerBound { break }
            }
            return current
        }
        let offsets = !request.searches ? [] : searchesOffset ? problem.initialOffsets : [origin.offset]
        // Blurred, the best of the searches from each start is where the search of the frames as
        // they are starts.
        var searchStarts = blur ? [] : offsets.map { (values: origin.values, offset: $0) }
        if blur {
            var found = origin
            for offset in offsets {
                let current = (
                    values: origin.values, offset: offset,
                    score: try problem.measure(origin.values, offset: offset, blurred: true).score
                )
                let answer = try search(current, runs: 0..<4, blurred: true)
                if answer.score < found.score { found = answer }
            }
            searchStarts.append((found.values, found.offset))
            best = (start, before.offset, before.score)
        }
        for start in searchStarts {
            let current = (
                values: start.values, offset: start.offset,
                score: try problem.measure(start.values, offset: start.offset).score
            )
            let found = try search(current, runs: 0..<4, blurred: false)
            if found.score < best.score { best = found }
        }
        let after = try problem.measure(best.values, offset: searchesOffset ? best.offset : nil)
        // Before and after are scored on the same instants; a fit that ends worse, or that
        // compared too little of the recording's motion, is no answer.
        let residuals = Self.residuals(before, after, layers: request.track)
        let (scoreBefore, scoreAfter) = Self.scoresOnCommonInstants(before, after, tracked: !searchesOffset)
        guard scoreAfter <= scoreBefore * (1 + 1e-9) + 1e-12 else {
            throw FitError.worse(before: scoreBefore, after: scoreAfter, unit: residuals[0].unit)
        }
        // The motion that counts: the recording's, or where the tracked layers move.
        let moving =
            searchesOffset
            ? Self.motionInstants(shown: shown, pictures: pictures)
            : try problem.layerMotion(best.values, offset: after.offset)
        let compared = moving.filter { i in
            after.errors.contains { $0[i].map { searchesOffset || $0 <= Problem.cap } ?? false }
        }
        guard compared.count * 2 >= moving.count else {
            throw FitError.tooFewCompared(compared: compared.count, motion: moving.count, layers: request.track)
        }
        // A fit of whole frames whose changes do not match the recording's found no motion of
        // the storyboard's in it, whatever value it ended at.
        let explained = try problem.explainedMotion(
            best.values, offset: after.offset, at: moving, blurred: request.blursText && problem.tracks.isEmpty)
        guard !searchesOffset || explained >= minimumExplained else {
            throw FitError.unexplained(share: explained)
        }
        // How well each value is determined: the residual's rise at the edges of its range.
        let rise = Self.rise(above: after.score, floor: searchesOffset ? riseFloor.levels : riseFloor.points)
        // Whole frames: the start is one of the coordinates, since a duration trades against it.
        let point = best.values + (searchesOffset ? [best.offset] : [])
        let ranges =
            request.determinesRanges
            ? Self.determinedRanges(
                point, bounds: keys.map(\.range) + (searchesOffset ? [problem.offsetRange] : []), best: after.score,
                rise: rise
            ) { p in
                let values = Array(p.prefix(keys.count))
                return (try? problem.measure(values, offset: searchesOffset ? p[keys.count] : nil).score) ?? .infinity
            } : point.map { $0...$0 }
        // On whole frames a time is known no finer than the capture samples it: where a motion
        // starts or ends between two frames, the start and a duration trade one for the other,
        // so a value in seconds is widened by half a frame each way. (A tracked layer's edges
        // place it within a frame, and its ranges hold the truth without.)
        let halfFrame = times.count > 1 ? (times[1] - times[0]) / 2 : 0
        let values = keys.indices.map { i in
            let r = ranges[i], bounds = keys[i].range
            let determined =
                searchesOffset && keys[i].isSeconds
                ? max(bounds.lowerBound, r.lowerBound - halfFrame)...min(bounds.upperBound, r.upperBound + halfFrame)
                : r
            return FitResult.Value(
                key: keys[i].key, before: keys[i].value, after: best.values[i], range: bounds,
                determined: determined, isWeak: Self.isWeak(determined, value: best.values[i], bounds: bounds),
                frameMargin: determined == r ? 0 : halfFrame)
        }
        let fitted = try problem.transition(best.values)
        let animations = Set(keys.compactMap(\.animation))
        return FitResult(
            values: values, rise: rise, motionInstants: moving.count, comparedInstants: compared.count,
            explainedMotion: searchesOffset ? explained : nil,
            offsetBefore: before.offset, offsetAfter: after.offset, residuals: residuals,
            evaluations: problem.evaluations.value, frameTimes: starts, foundScreen: foundScreen,
            code: animations.sorted().compactMap { key in fitted.motion(of: key).map { (key, $0.code) } },
            sheetFrames: FitResult.sheetMoments(pass.kept.map(\.thumbnail)))
    }

    /// Each layer's residual (or the whole frame's), before and after, over the instants both
    /// compared, figured as the search scores it: a tracked layer's distances as an RMS, each
    /// capped; the whole frame's differences as their mean.
    static func residuals(_ before: Problem.Measure, _ after: Problem.Measure, layers: [String]) -> [FitResult.Residual]
    {
        (layers.isEmpty ? [nil] : layers.map { Optional($0) }).enumerated().map { l, layer in
            let pairs = zip(before.errors[l], after.errors[l]).compactMap { pair -> (Double, Double)? in
                guard let a = pair.0, let b = pair.1 else { return nil }
                return (a, b)
            }
            let cap = layer == nil ? Double.infinity : Problem.cap
            func figure(_ e: [Double]) -> Double {
                guard layer != nil else { return e.reduce(0, +) / Double(max(1, e.count)) }
                return Problem.score([e.map { Optional($0) }])
            }
            let (b, a) = (pairs.map(\.0), pairs.map(\.1))
            return FitResult.Residual(
                layer: layer, rmsBefore: figure(b), worstBefore: min(b.max() ?? 0, cap), rmsAfter: figure(a),
                worstAfter: min(a.max() ?? 0, cap), instants: pairs.count, beyondCap: a.filter { $0 > cap }.count)
        }
    }

    /// The search's score of `before` and `after` on the instants both compared: tracked
    /// layers' capped RMS, or the whole frame's mean difference (every instant, both times).
    static func scoresOnCommonInstants(_ before: Problem.Measure, _ after: Problem.Measure, tracked: Bool) -> (
        Double, Double
    ) {
        guard tracked else { return (before.score, after.score) }
        func common(_ m: Problem.Measure, _ other: Problem.Measure) -> [[Double?]] {
            zip(m.errors, other.errors).map { e, o in zip(e, o).map { $1 == nil ? nil : $0 } }
        }
        return (Problem.score(common(before, after)), Problem.score(common(after, before)))
    }

    /// The instants at which the recording moves: another frame shows, and it differs from the
    /// one before by more than capture noise.
    static func motionInstants(shown: [Int], pictures: [LumaImage]) -> [Int] {
        shown.indices.dropFirst().filter { i in
            shown[i] != shown[i - 1] && pictures[shown[i]].meanDifference(pictures[shown[i - 1]]) > motionLevel
        }
    }

    /// The least correlation of a whole-frame fit's changes with the recording's that makes it
    /// an answer: well above unrelated changes (noise correlates about 0), below what a
    /// recording of the storyboard gives, compressed and captured by someone else.
    static let minimumExplained = 0.1

    /// The mean difference (levels, at the working width) past which a frame moves.
    static let motionLevel = 0.25

    /// Instants at the recording's finest frame interval from its first frame to its end, and
    /// the frame showing at each: a frame held long (a GIF's merged hold) counts for as long as
    /// it shows, not once.
    static func uniformSamples(starts: [Double], end: Double) -> (times: [Double], shown: [Int]) {
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }.filter { $0 > 0.001 }
        // Every frame on a capture rate's grid: sampled on that grid, each frame at its
        // capture's time, not its rounded one.
        if let (capture, slots) = CaptureRate.grid(starts: starts), let first = starts.first {
            let count = min(20_000, max(1, Int(((max(end, starts.last! + capture) - first) / capture).rounded())))
            var times: [Double] = [], shown: [Int] = []
            var frame = 0
            for n in 0..<count {
                while frame + 1 < slots.count && slots[frame + 1] <= Double(n) { frame += 1 }
                times.append(first + Double(n) * capture)
                shown.append(frame)
            }
            return (times, shown)
        }
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
        /// Whether it is a time: a `seconds` param or an animation's duration.
        var isSeconds = false
    }

    /// Throws unless `recording` is one a fit can read: two frames or more, within the frame
    /// and time budget, every frame the first one's size. Returns the instants a fit samples.
    @discardableResult
    public static func check(_ stored: FrameSequence, frameInterval: Double?) throws -> [Double] {
        let pass = try RecordingPass(FrameReader(stored), frameInterval: frameInterval) { _ in () }
        return uniformSamples(starts: pass.starts, end: pass.duration).times
    }

    static func resolveKeys(_ request: FitRequest, _ t: Transition) throws -> [Key] {
        guard !request.keys.isEmpty else { throw FitError.noKeys }
        let params = t.parameters
        return try request.keys.map { key in
            if let p = params.first(where: { $0.key == key }) {
                guard [.number, .seconds, .integer].contains(p.kind) else {
                    if let a = p.animation {
                        throw FitError.noSuchPart(key: key, animation: key, curve: a.curve, parts: a.parts)
                    }
                    throw FitError.notANumber(key: key, kind: "a \(p.kind.rawValue)")
                }
                guard let range = request.ranges[key] ?? (p.declaresRange ? p.range : nil) else {
                    throw FitError.noRange(key: key)
                }
                return Key(key: key, value: Double(p.value) ?? 0, range: range, isSeconds: p.kind == .seconds)
            }
            let parent = key.split(separator: ".").dropLast().joined(separator: ".")
            let part = key.split(separator: ".").last.map(String.init) ?? ""
            if let p = params.first(where: { $0.key == parent }), let a = p.animation {
                if part == Transition.Animation.Part.curve {
                    throw FitError.notANumber(key: key, kind: "the curve spec of an animation")
                }
                // By its name or a former one (`damping`).
                guard let named = Transition.Animation.Part(named: part), a.parts.contains(named.name) else {
                    throw FitError.noSuchPart(key: key, animation: parent, curve: a.curve, parts: a.parts)
                }
                return Key(
                    key: key, value: a.value(of: named), range: request.ranges[key] ?? named.range, animation: parent,
                    isSeconds: named == .duration)
            }
            throw FitError.unknownKey(key, known: params.map(\.key))
        }
    }
}
