import Foundation

import struct Flipbook.Transition

/// Where a tracked layer is in each recording frame, and the offset its motion lines up at.
extension Problem {
    /// The offset at which the tracked layers' places best match the plan's (each instant's
    /// distance capped), over every followed instant.
    static func alignTracks(
        _ tracks: [[LayerTracker.Match?]], shown: [Int], times: [Double], base: Transition, layers: [String],
        k: Double, range: ClosedRange<Double>
    ) -> Double {
        let step = 0.02
        let n = Int((base.duration / step).rounded(.up)) + 1
        let rects = layers.map { layer in
            (0..<n).map { base.contentBounds(ofLayer: layer, at: min(Double($0) * step, base.duration)) }
        }
        func score(_ offset: Double) -> Double {
            var sum = 0.0, count = 0
            for (l, matches) in tracks.enumerated() {
                for (i, frame) in shown.enumerated() {
                    guard let m = matches[frame] else { continue }
                    let x = min(max(times[i] + offset, 0), base.duration) / step
                    guard let p = rects[l][min(Int(x.rounded()), n - 1)] else { continue }
                    let e = min(Problem.cap, m.distance(from: (p.x, p.y, p.width), k: k))
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

    /// Where `layer`'s look is at `time`, in points, when the plan places it wholly on the
    /// canvas, at least `minimumSide` points a side and not covered by another layer; nil
    /// otherwise.
    static func placedLook(of layer: String, in base: Transition, at time: Double, minimumSide: Double) -> (
        x: Double, y: Double, width: Double, height: Double
    )? {
        let canvas = base.canvas
        guard let r = base.contentBounds(ofLayer: layer, at: time), r.width >= minimumSide,
            r.height >= minimumSide, r.x >= -0.5, r.y >= -0.5, r.x + r.width <= canvas.width + 0.5,
            r.y + r.height <= canvas.height + 0.5, base.coveredShare(ofLayer: layer, at: time) < coveredLimit
        else { return nil }
        return r
    }

    /// Finds `layer` in every recording frame. Its look is cut from the recording frame that
    /// shows the storyboard's first instant where the layer is drawn (placed by the whole-frame
    /// alignment), at the plan's place for it then: the recording's own pixels are followed,
    /// whatever the scene's snapshots show. From there it is followed forward and back, each
    /// frame searched around the last match, and the whole frame where that fails. With
    /// `interval`, the pictures' one step in seconds, a frame is searched only as far as the
    /// layer's last step again and ``fastestChange`` in that time.
    static func follow(
        _ layer: String, in pictures: [LumaImage], base: Transition, k: Double, height: Int,
        frameAt: (Double) -> Int, interval: Double? = nil
    ) throws -> [LayerTracker.Match?] {
        guard base.layerNames.contains(layer) else { throw FitError.unknownLayer(layer, known: base.layerNames) }
        let instants = Array(stride(from: 0.0, through: base.duration, by: 0.02))
        // The first stretch of a tenth of a second or more in which the plan holds it still,
        // wholly on screen and not covered by another layer: its middle is the reference, which an alignment a frame or two off
        // still finds at rest. (Recordings start at rest, where the layer shows as it is.)
        func placed(_ time: Double) -> (Double, Double, Double, Double)? {
            placedLook(of: layer, in: base, at: time, minimumSide: 4)
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
        guard let still, let r = base.contentBounds(ofLayer: layer, at: instants[still.start + still.count / 2]) else {
            throw FitError.layerNeverOnScreen(layer)
        }
        let shownAt = instants[still.start + still.count / 2]
        let widths = instants.compactMap { base.contentBounds(ofLayer: layer, at: $0)?.width }.filter { $0 >= 1 }
        // Held still from the storyboard's start: the recording's first frame shows it there.
        let reference = still.start == 0 ? 0 : frameAt(shownAt)
        // The look is the layer's top band, no taller than three quarters of its width: only its
        // left, top and right edges are compared, and a layer whose height changes apart from its
        // width (a card opening to full screen, closing over its body) keeps that band's look.
        let (rx, ry, rw, rh) = (r.x * k, r.y * k, r.width * k, min(r.height, r.width * 0.75) * k)
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
            var before: LayerTracker.Match?
            for i in order {
                let s = last.width / rw
                // Near the last scale, within the plan's; a match already past the plan's
                // scales searches all of them.
                let (low, high) = (max(scales.lowerBound, s * 0.75), min(scales.upperBound, s * 1.33))
                let ahead = before.map { (cx: 2 * last.centerX - $0.centerX, cy: 2 * last.centerY - $0.centerY) }
                let step = ahead.map { max(abs($0.cx - last.centerX), abs($0.cy - last.centerY)) } ?? 0
                let reach = interval.map { max(3, full * Self.fastestChange * $0) + step } ?? .infinity
                let radius = min(full * 0.15, reach)
                func search(_ radius: Double) -> LayerTracker.Match {
                    tracker.match(
                        in: pictures[i], near: (last.centerX, last.centerY, s), radius: radius,
                        scales: low <= high ? low...high : scales, ahead: ahead)
                }
                var m = search(radius)
                // Found at the edge of a narrow search: it may lie past it, so search as wide as
                // without `interval`.
                if radius < full * 0.15
                    && max(abs(m.centerX - last.centerX), abs(m.centerY - last.centerY)) > radius - 1
                {
                    m = search(full * 0.15)
                }
                if m.error > limit {
                    let wide = tracker.match(
                        in: pictures[i], near: (Double(Fitter.workingWidth) / 2, Double(height) / 2, s),
                        radius: full / 2, scales: scales)
                    if wide.error < m.error { m = wide }
                }
                if m.error <= limit {
                    matches[i] = m
                    (before, last) = (last, m)
                }
            }
        }
        let followed = matches.compactMap { $0 }.count
        if followed * 2 < matches.count {
            throw FitError.cannotFollow(layer, frame: matches.firstIndex { $0 == nil } ?? 0)
        }
        // A match whose look is found but whose outline is not there follows content moving
        // within the layer (an image a card reveals as it grows), not the layer: left out.
        let outline = LayerTracker.Match(x: rx, y: ry, width: rw, height: rh, error: 0).sides(in: pictures[reference])
        return matches.enumerated().map { i, m in
            guard let m else { return nil }
            let sides = m.sides(in: pictures[i])
            let faded = zip(outline, sides).contains { was, now in
                guard let was, let now, was >= Self.outlineMinimum else { return false }
                return now < was * Self.outlineShare
            }
            return faded ? nil : m
        }
    }
}
