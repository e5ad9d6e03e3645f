import Foundation
import Synchronization

import struct Flipbook.Bitmap
import class Flipbook.ImageCache
import struct Flipbook.Transition

/// Layers of the scene scored as features: each followed through the recording by the fit's
/// own tracker (its look cut from the recording where the plan first holds it still, then
/// found frame by frame), and through the render by its plan, as its left edge, top edge and
/// width in the recording's pixels. Only frames where the plan draws the layer (at half
/// opacity or more), wholly on screen and not covered, are measured, on both sides.
struct TrackedLayers {
    /// One layer's three positions, recording and render, a value per recording frame.
    struct Series {
        var name: String
        var recorded: [Double?]
        var rendered: [Double?]
        /// How far the recording's frame is from the layer's look where the tracker found it
        /// (mean absolute difference, levels): the track's confidence, frame by frame.
        var difference: [Double?]
    }

    /// Each layer as the tracker found it in the recording, frame by frame.
    private var found: [(layer: String, matches: [LayerTracker.Match?])] = []
    /// Each layer's recording frames at which the tracker, run on our own render at the same
    /// instants, misses where the plan puts the layer: there its look changes as it moves, so
    /// what it finds in the recording is not the layer, and those frames are left out on both
    /// sides.
    private var lost: [(layer: String, frames: [Int])] = []
    /// Each layer's recording frames at which the plan draws it, whole and uncovered, but it is
    /// not measured: not found in the recording, or `lost`.
    private(set) var unfollowed: [(layer: String, frames: [Int])] = []
    /// How far (working pixels, in left, top or width) the tracker may be from the plan on our
    /// own render and still be following the layer.
    static let selfCheckLimit = 2.0
    /// Working pixels per point, and the screen in the recording's pixels with its pixels per point.
    private var k = 1.0, screen = Crop(x: 0, y: 0, width: 0, height: 0), sx = 1.0, sy = 1.0
    /// Each recording frame's instant as the render samples it.
    private var instants: [Double] = []
    /// The recording's step and the render's rate, which place each frame's instant.
    private var interval = 0.0, fps = 1.0
    /// The layers against the request's own plan.
    private(set) var series: [Series] = []

    /// A recording frame as the tracker reads it: the screen (`screen`, or the whole frame) at
    /// the working width, for a canvas of `canvas` points.
    static func picture(canvas: (width: Double, height: Double), screen: Crop?) -> (Bitmap) -> LumaImage {
        let k = Double(Fitter.workingWidth) / canvas.width
        let height = Int((canvas.height * k).rounded())
        return { LumaImage($0, crop: screen, width: Fitter.workingWidth, height: height) }
    }

    /// `pictures` are the recording's frames as ``picture(canvas:screen:)`` makes them, one per
    /// step of `interval`, of frames of `size`. The look of each layer is cut from the
    /// recording where the request's plan first holds it still.
    init(
        _ layers: [String], request: ScoreRequest, pictures: [LumaImage], size: (width: Int, height: Int),
        interval dt: Double, images: ImageCache
    ) throws {
        guard !layers.isEmpty, !pictures.isEmpty else { return }
        let base = try Transition(
            request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
            images: images)
        let canvas = base.canvas
        k = Double(Fitter.workingWidth) / canvas.width
        let height = Int((canvas.height * k).rounded())
        // Points to the recording's pixels: into the screen, or over the whole frame.
        screen = request.screen ?? Crop(x: 0, y: 0, width: size.width, height: size.height)
        (sx, sy) = (Double(screen.width) / canvas.width, Double(screen.height) / canvas.height)
        let fps = RenderedSide.fps(request, interval: dt)
        (interval, self.fps) = (dt, fps)
        instants = pictures.indices.map {
            Double(RenderedSide.frame($0, interval: dt, fps: fps, start: request.start ?? 0)) / fps
        }
        let count = pictures.count
        let frameAt: @Sendable (Double) -> Int = { t in min(max(Int((t / dt).rounded()), 0), count - 1) }
        let (instants, k) = (instants, k)
        // The recording's tracks, and the same tracker on our own render (made first), where the
        // plan says where the layer is: the two go on side by side.
        let recorded = Mutex<Result<[[LayerTracker.Match?]], any Error>?>(nil)
        let own = Mutex<Result<[[Int]], any Error>?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            guard side == 1 else {
                let result = Result {
                    try layers.map { layer in
                        try Problem.follow(
                            layer, in: pictures, base: base, k: k, height: height, frameAt: frameAt, interval: dt)
                    }
                }
                recorded.withLock { $0 = result }
                return
            }
            let result = Result {
                // Rendered at the tracker's width: only where the tracker finds the layer is read.
                let atWorkingWidth = try Transition(
                    request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
                    width: Fitter.workingWidth, images: images)
                var ours: [LumaImage] = []
                try atWorkingWidth.forEachFrame(at: instants.map { min($0, base.duration) }) {
                    ours.append(LumaImage($0.bitmap, width: Fitter.workingWidth, height: height))
                }
                return try layers.map { layer in
                    let followed = try Problem.follow(
                        layer, in: ours, base: base, k: k, height: height, frameAt: frameAt, interval: dt)
                    return instants.indices.filter { i in
                        guard
                            let r = Problem.placedLook(
                                of: layer, in: base, at: min(instants[i], base.duration), minimumSide: 1)
                        else { return false }
                        guard let m = followed[i] else { return true }
                        return max(abs(m.x - r.x * k), abs(m.y - r.y * k), abs(m.width - r.width * k))
                            > Self.selfCheckLimit
                    }
                }
            }
            own.withLock { $0 = result }
        }
        found = Array(zip(layers, try recorded.withLock { $0! }.get()))
        lost = Array(zip(layers, try own.withLock { $0! }.get())).map { (layer: $0, frames: $1) }
        series = rendered(by: base)
        unfollowed = found.map { layer, matches in
            let missed = Set(lost.first { $0.layer == layer }?.frames ?? [])
            return (
                layer,
                instants.indices.filter { i in
                    (matches[i] == nil || missed.contains(i))
                        && Problem.placedLook(of: layer, in: base, at: min(instants[i], base.duration), minimumSide: 1)
                            != nil
                }
            )
        }
    }

    /// The layers against the plan of `request` (other values, the same recording, its own
    /// start): a grid's trial. The tracker's findings are the same; only frames where that plan
    /// draws a layer count.
    func rendered(by request: ScoreRequest, images: ImageCache) throws -> [Series] {
        guard !found.isEmpty else { return [] }
        return rendered(
            by: try Transition(
                request.scene, storyboard: request.storyboard, config: request.config, set: request.assignments,
                images: images),
            at: instants.indices.map {
                Double(RenderedSide.frame($0, interval: interval, fps: fps, start: request.start ?? 0)) / fps
            })
    }

    private func rendered(by plan: Transition, at instants: [Double]? = nil) -> [Series] {
        let instants = instants ?? self.instants
        return found.flatMap { layer, matches -> [Series] in
            let placed = instants.map { t -> (x: Double, y: Double, width: Double)? in
                let t = min(t, plan.duration)
                guard let drawn = plan.drawnBounds(ofLayer: layer, at: t), drawn.alpha >= 0.5,
                    let r = Problem.placedLook(of: layer, in: plan, at: t, minimumSide: 1)
                else { return nil }
                return (r.x, r.y, r.width)
            }
            let missed = Set(lost.first { $0.layer == layer }?.frames ?? [])
            let planned = placed.indices.map { missed.contains($0) ? nil : placed[$0] }
            func recorded(_ value: (LayerTracker.Match) -> Double) -> [Double?] {
                matches.indices.map { i in planned[i] == nil ? nil : matches[i].map(value) }
            }
            let difference = recorded(\.error)
            return [
                Series(
                    name: "\(layer) left", recorded: recorded { Double(screen.x) + $0.x / k * sx },
                    rendered: planned.map { $0.map { Double(screen.x) + $0.x * sx } }, difference: difference),
                Series(
                    name: "\(layer) top", recorded: recorded { Double(screen.y) + $0.y / k * sy },
                    rendered: planned.map { $0.map { Double(screen.y) + $0.y * sy } }, difference: difference),
                Series(
                    name: "\(layer) width", recorded: recorded { $0.width / k * sx },
                    rendered: planned.map { $0.map { $0.width * sx } }, difference: difference),
            ]
        }
    }
}
