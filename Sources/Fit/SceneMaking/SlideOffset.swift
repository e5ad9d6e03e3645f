/// How far a screen that slides whole (a push's, a sheet's) is drawn from where a recording's
/// frame shows it: the shift along its slide that best lays the render's part of it over the
/// frame. A screen of text drawn a few points off differs from the frame by many levels, as a
/// wrong move does; its shift says how far off it is.
enum SlideOffset {
    /// The farthest a shift is looked for either way, in pixels of the pictures compared.
    static let reach = 8

    /// A frame counts where the sliding screen shows over this share of the picture: less of
    /// it, near the edge, says too little about where it is.
    static let leastShown = 0.1

    /// The pixels of a picture `width` x `height`, `k` of them a point, wholly inside a screen
    /// drawn at `bounds` (points), a pixel clear of its edges (which a pixel's blend of both
    /// screens draws) and below a status bar `bar` points tall that does not slide; nil where
    /// none is.
    static func box(
        inside bounds: (x: Double, y: Double, width: Double, height: Double), k: Double, bar: Double, width: Int,
        height: Int
    ) -> LumaImage.Box? {
        let x0 = max(0, Int((bounds.x * k).rounded(.up)) + 1)
        let x1 = min(width - 1, Int(((bounds.x + bounds.width) * k).rounded(.down)) - 2)
        let y0 = max(0, Int((max(bounds.y, bar) * k).rounded(.up)) + 1)
        let y1 = min(height - 1, Int(((bounds.y + bounds.height) * k).rounded(.down)) - 2)
        guard x0 <= x1, y0 <= y1 else { return nil }
        return (x0...x1, y0...y1)
    }

    /// The shift (in pixels of `picture`, to a fraction of one; + where the frame shows the
    /// screen further right or down than the render) that best lays `render`'s pixels in `box`
    /// over `picture` along `axis`; their mean difference there; and how much less the whole
    /// picture's mean difference is with them there (the box's share of it). Nil where the box
    /// is too small a share of the picture to say.
    static func shift(
        render: LumaImage, picture: LumaImage, box: LumaImage.Box, axis: RecordingFeature.Axis
    ) -> (shift: Double, residual: Double, gain: Double)? {
        let (w, h) = (picture.width, picture.height)
        guard render.width == w, render.height == h, box.x.lowerBound >= 0, box.x.upperBound < w,
            box.y.lowerBound >= 0, box.y.upperBound < h,
            Double(box.x.count * box.y.count) >= leastShown * Double(w * h)
        else { return nil }
        /// The mean difference with the frame's pixels `s` further along the axis, over the
        /// box's pixels that stay inside it; nil where fewer than half do.
        func difference(_ s: Int) -> Double? {
            let (dx, dy) = axis == .x ? (s, 0) : (0, s)
            guard
                let d = render.meanDifference(picture, in: box, shiftedBy: dx, dy, within: (0...(w - 1), 0...(h - 1))),
                2 * d.count >= box.x.count * box.y.count
            else { return nil }
            return d.mean
        }
        let differences = (-reach...reach).map { difference($0) }
        guard
            let best = differences.indices.filter({ differences[$0] != nil }).min(by: {
                (differences[$0]!, abs($0 - reach)) < (differences[$1]!, abs($1 - reach))
            })
        else { return nil }
        // Between whole pixels: the parabola through the best and its neighbours.
        var fraction = 0.0
        if best > 0, best < differences.count - 1, let a = differences[best - 1], let c = differences[best + 1] {
            let b = differences[best]!, curve = a - 2 * b + c
            if curve > 0 { fraction = min(0.5, max(-0.5, 0.5 * (a - c) / curve)) }
        }
        let share = Double(box.x.count * box.y.count) / Double(w * h)
        return (Double(best - reach) + fraction, differences[best]!, (differences[reach]! - differences[best]!) * share)
    }
}
