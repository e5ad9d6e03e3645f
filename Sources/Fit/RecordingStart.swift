import Foundation
import Synchronization

import struct Flipbook.Transition

/// Where a recording starts in a storyboard, found from whole frames at `Fitter.frameWidth`:
/// the one alignment fit starts its search from and score measures at, for a recording with a
/// lead-in of still frames, one cut into the motion or one that starts mid-hold.
enum RecordingStart {
    /// A working picture (the screen at `Fitter.workingWidth`) box-filtered to the width whole
    /// frames are compared at, `height` tall.
    static func small(_ p: LumaImage, height h: Int) -> LumaImage {
        LumaImage(
            width: Fitter.frameWidth, height: h,
            pixels: (0..<(Fitter.frameWidth * h)).map { i in
                let fx = Double(p.width) / Double(Fitter.frameWidth), fy = Double(p.height) / Double(h)
                return p.sample(
                    (Double(i % Fitter.frameWidth) + 0.5) * fx - 0.5, (Double(i / Fitter.frameWidth) + 0.5) * fy - 0.5)
            })
    }

    /// The height of the compared pictures for a canvas of `canvas` points.
    static func height(canvas: (width: Double, height: Double)) -> Int {
        Int((canvas.height * Double(Fitter.frameWidth) / canvas.width).rounded())
    }

    /// The storyboard times the recording's first frame may have: those that keep at least a
    /// quarter of a recording `length` seconds long over a storyboard of `duration` (a lead-in
    /// of still frames, or a tail, may be the rest); past that, a start that shows only a hold
    /// would match anything.
    static func range(length: Double, duration: Double) -> ClosedRange<Double> {
        let low = -0.75 * length
        return low...max(low, duration - 0.25 * length)
    }

    /// Candidates for the storyboard time of the first frame, for pictures `small` shown at
    /// `times`: the offset, on a 0.02 s grid, at which every frame differs least from the
    /// storyboard at its time, then the one that lines up the first change in each (where the
    /// first motion starts). `transition` is rendered at `Fitter.frameWidth`.
    static func candidates(
        small: [LumaImage], times: [Double], height: Int, range: ClosedRange<Double>, transition t: Transition
    ) throws -> [Double] {
        let step = 0.02
        let grid = stride(from: 0.0, through: t.duration, by: step).map { $0 }
        var rendered: [LumaImage] = []
        try t.forEachFrame(at: grid) { rendered.append(LumaImage($0.bitmap, width: Fitter.frameWidth, height: height)) }
        var offsets: [Double] = []
        var o = range.lowerBound
        while o <= range.upperBound {
            offsets.append(o)
            o += step
        }
        let moves = { (pictures: [LumaImage]) in pictures.firstIndex { $0.meanDifference(pictures[0]) > 1 } }
        let ours = moves(rendered), theirs = moves(small)
        let firstMotion = ours.flatMap { o in theirs.map { grid[o] - times[$0] } }
        // Each offset's sum on its own, on every core; the first least wins, as in order. A sum
        // that passes one already made cannot be the least, nor tie it, so it stops there; the
        // offset that lines up the first motion is summed first, to stop the others early.
        let (tried, pictures) = (offsets, rendered)
        let bound = Mutex(Double.infinity)
        @Sendable func sum(_ k: Int) -> Double {
            var sum = 0.0
            for (i, picture) in small.enumerated() {
                let x = min(max(times[i] + tried[k], 0), t.duration) / step
                sum += picture.meanDifference(pictures[min(Int(x.rounded()), pictures.count - 1)])
                if i & 7 == 7, sum > bound.withLock({ $0 }) { return .infinity }
            }
            bound.withLock { $0 = min($0, sum) }
            return sum
        }
        let seed = tried.indices.min { abs(tried[$0] - (firstMotion ?? 0)) < abs(tried[$1] - (firstMotion ?? 0)) }
        let seeded = seed.map { sum($0) }
        let sums = Mutex([Double](repeating: .infinity, count: tried.count))
        DispatchQueue.concurrentPerform(iterations: tried.count) { k in
            let s = k == seed ? seeded! : sum(k)
            sums.withLock { $0[k] = s }
        }
        var best = (offset: 0.0, score: Double.infinity)
        for (k, sum) in sums.withLock({ $0 }).enumerated() where sum < best.score { best = (tried[k], sum) }
        guard let firstMotion else { return [best.offset] }
        return [best.offset, firstMotion]
    }

    /// The start: the best whole-frame candidate, then the best of the multiples of `step`
    /// within a grid step and one `step` of it, each frame against the storyboard rendered at
    /// its own time (a render samples the storyboard every `step`: no finer start shows).
    static func find(
        small: [LumaImage], times: [Double], height: Int, range: ClosedRange<Double>, transition t: Transition,
        step: Double
    ) throws -> Double {
        let coarse = try candidates(small: small, times: times, height: height, range: range, transition: t)[0]
        let reach = Int((0.02 / step).rounded(.up)) + 1, centre = Int((coarse / step).rounded())
        let offsets = (centre - reach...centre + reach).map { Double($0) * step + 0 }.filter(range.contains)
        // Each offset's instants, rendered once each: on a capture at the render's rate they
        // are nearly all shared.
        var instants = Set<Double>()
        for o in offsets { for time in times { instants.insert(Self.instant(time + o, t.duration)) } }
        let sorted = instants.sorted()
        var rendered: [Double: LumaImage] = [:]
        var k = 0
        try t.forEachFrame(at: sorted) {
            rendered[sorted[k]] = LumaImage($0.bitmap, width: Fitter.frameWidth, height: height)
            k += 1
        }
        var best = (offset: offsets.first ?? 0, score: Double.infinity)
        for o in offsets {
            let sum = small.indices.reduce(0.0) {
                $0 + small[$1].meanDifference(rendered[instant(times[$1] + o, t.duration)]!)
            }
            if sum < best.score || (sum == best.score && abs(o) < abs(best.offset)) { best = (o, sum) }
        }
        return best.offset
    }

    /// A storyboard time, within it, to the microsecond (so that equal times render once).
    private static func instant(_ t: Double, _ duration: Double) -> Double {
        (min(max(t, 0), duration) * 1e6).rounded() / 1e6
    }
}
