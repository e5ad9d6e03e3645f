import Foundation
import Synchronization

/// Follows one layer through a recording: in each frame, the translation and scale at which
/// the layer's look (a template cut from the recording) matches best, to a sixteenth of a
/// working pixel. It follows the motion of the layer as a whole, not its exact pixels, so a
/// recording of other content still tracks where the layer has texture of its own.
struct LayerTracker {
    /// The layer's look: the recording's pixels where the plan first shows it.
    let template: LumaImage
    /// Where the template was cut, in working pixels.
    let templateRect: (x: Double, y: Double, width: Double, height: Double)

    /// One frame's match: the layer's rect in working pixels and how well it matched (mean
    /// absolute difference, 0...255).
    struct Match {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
        var error: Double
        var centerX: Double { x + width / 2 }
        var centerY: Double { y + height / 2 }

        /// How far a layer placed at `place` (its left, top and width, in points) is from the
        /// match (pixels, `k` a point): the RMS of its left, top and right edges' distances, in
        /// points. A layer's look is its top at its width, and its height may grow apart from
        /// its width (a card opening to full screen).
        func distance(from place: (x: Double, y: Double, width: Double), k: Double) -> Double {
            let d = [place.x - x / k, place.y - y / k, place.x + place.width - (x + width) / k]
            return (d.reduce(0) { $0 + $1 * $1 } / 3).squareRoot()
        }

        /// How sharply `picture` changes across the match's left, right and top sides: the mean
        /// difference (levels) between the pixel a pixel and a half in from a side and the one as
        /// far out, along the side; nil for a side whose outside is off the picture.
        func sides(in picture: LumaImage) -> [Double?] {
            let (w, h) = (Double(picture.width), Double(picture.height))
            // Pixel i's value is sampled at i, so a point p of the frame is sampled at p − 0.5.
            func across(along: StrideThrough<Double>, _ point: (Double) -> (Double, Double, Double, Double)) -> Double {
                var sum = 0.0, count = 0
                for p in along {
                    let (ix, iy, ox, oy) = point(p - 0.5)
                    sum += Double(abs(picture.sample(ix, iy) - picture.sample(ox, oy)))
                    count += 1
                }
                return count == 0 ? 0 : sum / Double(count)
            }
            let rows = stride(from: y + 2, through: y + height - 2, by: 1)
            let columns = stride(from: x + 2, through: x + width - 2, by: 1)
            let (left, right, top) = (x - 0.5, x + width - 0.5, y - 0.5)
            return [
                left - 1.5 >= 0 ? across(along: rows) { (left + 1.5, $0, left - 1.5, $0) } : nil,
                right + 1.5 <= w - 1 ? across(along: rows) { (right - 1.5, $0, right + 1.5, $0) } : nil,
                top - 1.5 >= 0 && y + height <= h ? across(along: columns) { ($0, top + 1.5, $0, top - 1.5) } : nil,
            ]
        }
    }

    /// Samples of the template on a grid, as (u, v) in 0...1 and the value there: a fine grid
    /// for the last steps, a coarse one for the wide search.
    private let grid: [(u: Double, v: Double, value: Float)]
    private let coarse: [(u: Double, v: Double, value: Float)]

    init(template: LumaImage, at rect: (x: Double, y: Double, width: Double, height: Double)) {
        self.template = template
        templateRect = rect
        func samples(_ n: Int) -> [(Double, Double, Float)] {
            (0..<n * n).map { k in
                let u = (Double(k % n) + 0.5) / Double(n), v = (Double(k / n) + 0.5) / Double(n)
                return (u, v, template.sample(u * Double(template.width) - 0.5, v * Double(template.height) - 0.5))
            }
        }
        grid = samples(24)
        coarse = samples(12)
    }

    /// How much the template varies: a flat layer has nothing to follow.
    var contrast: Double {
        let mean = grid.reduce(0) { $0 + Double($1.value) } / Double(grid.count)
        return (grid.reduce(0) { $0 + pow(Double($1.value) - mean, 2) } / Double(grid.count)).squareRoot()
    }

    /// The mean absolute difference of the template drawn with its centre at (cx, cy) and
    /// `scale` times its size, against `frame`; infinity as soon as it is sure to come to more
    /// than `above` (the sum only grows), which a search that keeps only a better match skips.
    func error(
        in frame: LumaImage, cx: Double, cy: Double, scale: Double, fine: Bool = true, above: Double = .infinity
    ) -> Double {
        let w = templateRect.width * scale, h = templateRect.height * scale
        let x0 = cx - w / 2, y0 = cy - h / 2
        let samples = fine ? grid : coarse
        // Past this sum the mean is above `above`, with room for the division's rounding.
        let ceiling = above * Double(samples.count) * (1 + 1e-9)
        var sum: Float = 0
        // Checked every four samples and at the end: infinity exactly when the whole sum passes
        // the ceiling (the sum only grows), however often it is checked.
        for (i, g) in samples.enumerated() {
            sum += abs(frame.sample(x0 + g.u * w - 0.5, y0 + g.v * h - 0.5) - g.value)
            if i & 3 == 3 && Double(sum) > ceiling { return .infinity }
        }
        return Double(sum) > ceiling ? .infinity : Double(sum) / Double(samples.count)
    }

    /// The best match in `frame`, searched around `near` (centre and scale) within `radius`
    /// working pixels and the scale range, then refined to a sixteenth of a pixel.
    /// `ahead`, where the layer is likely to be (its last step taken again), only bounds the
    /// search sooner: the match is the same without it.
    func match(
        in frame: LumaImage, near: (cx: Double, cy: Double, scale: Double), radius: Double,
        scales: ClosedRange<Double>, ahead: (cx: Double, cy: Double)? = nil
    ) -> Match {
        var best = (cx: near.cx, cy: near.cy, scale: near.scale, error: Double.infinity)
        var fine = false
        func consider(_ cx: Double, _ cy: Double, _ s: Double) {
            let e = error(in: frame, cx: cx, cy: cy, scale: s, fine: fine, above: best.error)
            if e < best.error { best = (cx, cy, s, e) }
        }
        // Coarse: a grid of centres and log-spaced scales.
        let steps = scales.upperBound / scales.lowerBound > 1.3 ? 7 : 3
        // The scale it was found at nearby is among them: the grid's own may straddle it.
        let scaleList =
            (0..<steps).map { i in
                scales.lowerBound * pow(scales.upperBound / scales.lowerBound, Double(i) / Double(steps - 1))
            } + (scales.contains(near.scale) ? [near.scale] : [])
        let step = max(1, radius / 20)
        func centres(_ from: Double) -> [Double] {
            var all: [Double] = [], c = from - radius
            while c <= from + radius {
                all.append(c)
                c += step
            }
            return all
        }
        let (xs, ys) = (centres(near.cx), centres(near.cy))
        // Rows in bands, a band to a core, each band's first best kept: the first best of the
        // bands in order is the one a search in row order finds (a bound only skips the worse).
        // The grid's point nearest where it was found bounds every band from the start: the
        // best is no worse than it, so a point worse than it is skipped in whichever band.
        func nearest(_ list: [Double], _ value: Double) -> Double {
            list.min { abs($0 - value) < abs($1 - value) } ?? value
        }
        let scale = nearest(scaleList, near.scale)
        let seed = ([(near.cx, near.cy)] + (ahead.map { [($0.cx, $0.cy)] } ?? [])).map { cx, cy in
            error(in: frame, cx: nearest(xs, cx), cy: nearest(ys, cy), scale: scale, fine: false)
        }.min()!
        let bands = min(ys.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let found = Mutex([(cx: Double, cy: Double, scale: Double, error: Double)?](repeating: nil, count: bands))
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            var b = (cx: near.cx, cy: near.cy, scale: near.scale, error: Double.infinity)
            for row in stride(from: band * ys.count / bands, to: (band + 1) * ys.count / bands, by: 1) {
                for x in xs {
                    for s in scaleList {
                        let e = error(in: frame, cx: x, cy: ys[row], scale: s, fine: false, above: min(b.error, seed))
                        if e < b.error { b = (x, ys[row], s, e) }
                    }
                }
            }
            found.withLock { $0[band] = b }
        }
        for b in found.withLock({ $0 }) where b!.error < best.error { best = b! }
        // Fine: halve the steps around the best until a sixteenth of a pixel in place and in
        // width, the scale's steps going on alone once the place's are that fine.
        fine = true
        best.error = error(in: frame, cx: best.cx, cy: best.cy, scale: best.scale)
        var d = step / 2, ds = pow(scales.upperBound / scales.lowerBound, 1 / Double(steps - 1))
        while d >= 0.0625 || (ds - 1) * templateRect.width * best.scale >= 0.0625 {
            let offsets = d >= 0.0625 ? [-d, 0, d] : [0]
            // A step stays its size while it moves the best (a few times at most): place and
            // scale trade against each other, so one move often opens another.
            for _ in 0..<4 {
                let c = best
                for dy in offsets {
                    for dx in offsets {
                        for f in [1 / ds, 1, ds] { consider(c.cx + dx, c.cy + dy, c.scale * f) }
                    }
                }
                if best == c { break }
            }
            d /= 2
            ds = ds.squareRoot()
        }
        let w = templateRect.width * best.scale, h = templateRect.height * best.scale
        return Match(x: best.cx - w / 2, y: best.cy - h / 2, width: w, height: h, error: best.error)
    }
}
