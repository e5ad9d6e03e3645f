import Foundation
import Geometry
import Synchronization

import struct Flipbook.Bitmap
import struct Flipbook.FrameSequence
import class Flipbook.ImageCache
import struct Flipbook.Motion
import struct Flipbook.Transition

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
    /// For whole frames: the recording's frames at `Fitter.frameWidth`, and blurred over about a
    /// line of text where the request says (`FitRequest.blursText`; else the same).
    let small: [LumaImage]
    let smallHeight: Int
    let blurredSmall: [LumaImage]
    /// Candidates for the storyboard time of the recording's first frame, as the scene's
    /// values have it now: the best alignment of every frame, then that of the first motion.
    let initialOffsets: [Double]
    /// The request's transition at each width asked for, loaded once.
    private let bases = Mutex<[Int?: Transition]>([:])
    /// The offsets searched.
    let offsetRange: ClosedRange<Double>
    let evaluations = Counter()
    /// The blur's reach either side, in pixels of `Fitter.frameWidth` (a few points each).
    static let blur = 2
    /// The farthest a tracked layer's edges count in the search, in points.
    static let cap = 24.0
    /// The share of a tracked layer others may cover where it is compared or its look taken.
    static let coveredLimit = 0.25
    /// A side of a followed layer this sharp (levels across it) where its look is cut counts
    /// as its outline; a match where that side is under `outlineShare` of it is not the layer.
    static let outlineMinimum = 8.0
    static let outlineShare = 0.5
    /// How far from where its last step again would put it a followed layer is searched for,
    /// in screens per second between frames: at a tenth of a second, 15 % of the screen (the
    /// whole of fit's search).
    static let fastestChange = 1.5

    init(
        request: FitRequest, keys: [Fitter.Key], base: Transition, images: ImageCache, times: [Double],
        shown: [Int], pictures: [LumaImage], k: Double, height: Int,
        small made: (_ height: Int, _ blurred: Bool, _ make: () -> FitPasses.Small) -> FitPasses.Small = { $2() }
    ) throws {
        self.request = request
        self.keys = keys
        self.images = images
        self.times = times
        self.shown = shown
        self.pictures = pictures
        self.k = k
        self.height = height
        let length = (times.last ?? 0) - (times.first ?? 0)
        offsetRange = RecordingStart.range(length: length, duration: base.duration)
        let h = RecordingStart.height(canvas: base.canvas)
        smallHeight = h
        // Made by `made` (a pass's fits share them) as this makes them.
        let (small, blurredSmall) = made(h, request.blursText) {
            let small = pictures.map { RecordingStart.small($0, height: h) }
            return (small, request.blursText ? small.map { $0.boxBlurred(radius: Problem.blur) } : small)
        }
        (self.small, self.blurredSmall) = (small, blurredSmall)
        let offsets = try RecordingStart.candidates(
            small: shown.map { small[$0] }, times: times, height: h, range: offsetRange,
            transition: Transition(
                request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
                width: Fitter.frameWidth, images: images))
        initialOffsets = offsets.count == 2 && abs(offsets[0] - offsets[1]) < 0.03 ? [offsets[0]] : offsets
        // A tracked layer is placed by the first motion's alignment, which holds for a
        // recording of other content (whole frames of other pixels align anywhere).
        let aligned = offsets.last ?? 0
        // The recording frame showing at a storyboard time.
        let frameAt = { (time: Double) -> Int in
            let i = times.lastIndex { $0 <= time - aligned + 1e-9 } ?? 0
            return shown[i]
        }
        let tracks = try request.track.map { layer in
            try request.placed[layer]
                ?? Problem.follow(layer, in: pictures, base: base, k: k, height: height, frameAt: frameAt)
        }
        self.tracks = tracks
        // Where the tracked motion lines up with the plan's, as the values are now: an
        // alignment by the layer itself, whatever else the recording shows.
        let tracked = Problem.alignTracks(
            tracks, shown: shown, times: times, base: base, layers: request.track, k: k, range: offsetRange)
        // A quarter second either side must be drawn, and not covered, too: near where the
        // layer appears, goes or passes under another, the fit's own values move that moment,
        // and the recording there may show another layer.
        compared = request.track.enumerated().map { l, layer in
            // A place given is where the layer is compared: whether the scene draws it there
            // depends on the values searched.
            if request.placed[layer] != nil { return shown.map { tracks[l][$0] != nil } }
            return times.map { time in
                stride(from: -0.25, through: 0.25, by: 0.05).allSatisfy { d in
                    let at = min(max(time + tracked + d, 0), base.duration)
                    return (base.drawnBounds(ofLayer: layer, at: at)?.alpha ?? 0) >= 0.5
                        && base.coveredShare(ofLayer: layer, at: at) < Problem.coveredLimit
                }
            }
        }
    }

    /// The transition with `values` for the keys: the request's, loaded once per width, planned
    /// again with them.
    func transition(_ values: [Double], width: Int? = nil) throws -> Transition {
        let set = zip(keys, values).map { key, v in
            "\(key.key)=\(FitResult.text(v))"
        }
        let loaded = try bases.withLock { bases in
            if let base = bases[width] { return base }
            let base = try Transition(
                request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
                width: width, images: images)
            bases[width] = base
            return base
        }
        return try loaded.setting(set, images: images)
    }

    struct Measure {
        var score: Double
        var offset: Double
        /// Per tracked layer (or the whole frame), the distance at each instant: nil where it
        /// was not compared.
        var errors: [[Double?]]
    }

    /// How far the transition with `values` is from the recording: for whole frames at
    /// `offset`, for tracked layers at the best offset for those values.
    func measure(_ values: [Double], offset: Double?, blurred: Bool = false) throws -> Measure {
        evaluations.add()
        return tracks.isEmpty
            ? try measureFrames(values, offset: offset ?? 0, blurred: blurred) : try measureTracks(values)
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
            (0..<n).map { i in t.contentBounds(ofLayer: layer, at: min(Double(i) * step, t.duration)) }
        }
    }

    private func measureTracks(_ values: [Double]) throws -> Measure {
        let t = try transition(values)
        // Given places are compared at a millisecond's grid: a move the screen shows two
        // refreshes after it starts jumps there, which a coarser grid's interpolation smears
        // over the frame that first shows it.
        let step = request.placed.isEmpty ? 0.01 : 0.001
        let rects = planRects(t, step: step)
        func rect(_ layer: Int, _ time: Double) -> (Double, Double, Double, Double)? {
            let x = min(max(time, 0), t.duration) / step
            let i = min(Int(x), rects[layer].count - 1), j = min(i + 1, rects[layer].count - 1)
            guard let a = rects[layer][i], let b = rects[layer][j] else { return nil }
            let f = x - Double(i)
            return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f, a.3 + (b.3 - a.3) * f)
        }
        /// Edge distances (points) at every instant at `offset`; nil where not compared.
        func errors(_ offset: Double) -> [[Double?]] {
            tracks.enumerated().map { layer, matches in
                shown.enumerated().map { i, frame -> Double? in
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
        let offset = bestOffset(duration: t.duration) { Problem.score(errors($0)) }
        let e = errors(offset)
        return Measure(score: Problem.score(e), offset: offset, errors: e)
    }

    /// The score of tracked layers' distances: their RMS over every compared instant, each
    /// capped at `cap`, so that an instant where the tracker took something else for the layer
    /// (another card over it) costs the same whatever the values, instead of outweighing the
    /// instants that were followed. The search and the report both use it.
    static func score(_ errors: [[Double?]]) -> Double {
        let all = errors.flatMap { $0 }.compactMap { $0 }.map { min($0, cap) }
        return (all.reduce(0) { $0 + $1 * $1 } / Double(max(1, all.count))).squareRoot()
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

    /// The instants at which the plan, with `values` and the recording starting at `offset`,
    /// moves a tracked layer while drawing it; for a layer whose places were given, between the
    /// first and last instants they place it (past those, the recording does not show it).
    func layerMotion(_ values: [Double], offset: Double) throws -> [Int] {
        let t = try transition(values)
        let places = request.track.map { layer in
            times.map { t.drawnBounds(ofLayer: layer, at: min(max($0 + offset, 0), t.duration)) }
        }
        let seen = request.track.enumerated().map { l, layer -> ClosedRange<Int> in
            guard request.placed[layer] != nil, let first = compared[l].firstIndex(of: true),
                let last = compared[l].lastIndex(of: true)
            else { return 0...times.count }
            return first...last
        }
        return times.indices.dropFirst().filter { i in
            places.indices.contains { l in
                let p = places[l]
                guard seen[l].contains(i), let a = p[i - 1], let b = p[i] else { return false }
                return abs(a.x - b.x) + abs(a.y - b.y) + abs(a.width - b.width) + abs(a.height - b.height) > 0.25
            }
        }
    }

    // MARK: Whole frames

    /// Whole frames at `offset`, compared as they are or blurred (`blurredSmall`).
    private func measureFrames(_ values: [Double], offset: Double, blurred: Bool) throws -> Measure {
        let targets = blurred ? blurredSmall : small
        let t = try transition(values, width: Fitter.frameWidth)
        let instants = times.map { min(max($0 + offset, 0), t.duration) }
        let diffs = try pictures(of: t, at: instants, blurred: blurred) { i, picture in
            targets[shown[i]].meanDifference(picture)
        }
        let mean = diffs.reduce(0, +) / Double(diffs.count)
        return Measure(score: mean, offset: offset, errors: [diffs])
    }

    /// `body` of each frame of `t` at `instants` (its index, and its render as `picture` makes
    /// it), in order. The frames are small: rather than hand each between threads, runs of
    /// consecutive frames render side by side on `request.renderThreads` cores, each run in
    /// order on one, where a frame the renderer repeats (the same pixels handed again) is
    /// made a picture once.
    private func pictures<T: Sendable>(
        of t: Transition, at instants: [Double], blurred: Bool, _ body: @Sendable (Int, LumaImage) -> T
    ) throws -> [T] {
        let runs = request.renderThreads <= 1 ? 1 : min(instants.count, request.renderThreads * 4)
        guard runs > 1 else { return try run(0..<instants.count) }
        @Sendable func run(_ range: Range<Int>) throws -> [T] {
            var answers: [T] = []
            answers.reserveCapacity(range.count)
            var last: (bitmap: Bitmap, picture: LumaImage)?
            try t.forEachFrame(at: Array(instants[range]), threads: 1) { frame in
                let picture =
                    last.flatMap { $0.bitmap.sharesPixels(with: frame.bitmap) ? $0.picture : nil }
                    ?? self.picture(frame.bitmap, blurred: blurred)
                last = (frame.bitmap, picture)
                answers.append(body(range.lowerBound + answers.count, picture))
            }
            return answers
        }
        let bounds = (0...runs).map { $0 * instants.count / runs }
        let answers = try Cores.each(Array(0..<runs)) { try run(bounds[$0]..<bounds[$0 + 1]) }
        return answers.flatMap(\.1)
    }

    /// A render at `Fitter.frameWidth`, blurred as `blurredSmall` is or not.
    private func picture(_ bitmap: Bitmap, blurred: Bool) -> LumaImage {
        let picture = LumaImage(bitmap, width: Fitter.frameWidth, height: smallHeight)
        return blurred ? picture.boxBlurred(radius: Problem.blur) : picture
    }

    /// How well the changes of the transition with `values` at `offset` match the recording's:
    /// over the instants where the recording changes, the correlation of its frame-to-frame
    /// differences with the render's (1: the same changes; 0: unrelated, as noise is). Content
    /// that is not ours cancels in a difference, so another app's screens doing the same moves
    /// still match.
    func explainedMotion(_ values: [Double], offset: Double, at motion: [Int], blurred: Bool = false) throws -> Double {
        guard tracks.isEmpty, !motion.isEmpty else { return 1 }
        let t = try transition(values, width: Fitter.frameWidth)
        let rendered = try pictures(of: t, at: times.map { min(max($0 + offset, 0), t.duration) }, blurred: blurred) {
            $1
        }
        let targets = blurred ? blurredSmall : small
        var dr: Double = 0, dd: Double = 0, rr: Double = 0
        for i in motion where i > 0 {
            let (a, b) = (targets[shown[i - 1]].pixels, targets[shown[i]].pixels)
            let (p, q) = (rendered[i - 1].pixels, rendered[i].pixels)
            for k in a.indices {
                let d = Double(b[k] - a[k]), r = Double(q[k] - p[k])
                dr += d * r
                dd += d * d
                rr += r * r
            }
        }
        return dd > 0 && rr > 0 ? dr / (dd * rr).squareRoot() : 0
    }

    // MARK: Following a layer
}

/// A count that several threads may add to.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

extension Bitmap {
    /// Whether `other` holds this bitmap's own storage (a copy that shares it): the same
    /// pixels, known without comparing them.
    func sharesPixels(with other: Bitmap) -> Bool {
        (width, height, rowBytes) == (other.width, other.height, other.rowBytes)
            && pixels.withUnsafeBufferPointer { a in
                other.pixels.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
            }
    }
}
