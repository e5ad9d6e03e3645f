/// A circle that grows over a screen (`ScreenChange.reveal`), as a moving frame shows it against
/// the still before it: its middle, fitted to its edge where the screen shows that edge. Where
/// the circle already runs off the screen (a slow capture's frame), the box around it is cut by
/// the screen's edges and its middle is not the circle's; the edge's curve still is.
enum GrowingCircle {
    /// The middle (x, y, in pixels, pixel `i` spanning `i` to `i + 1`) of the circle `moving`
    /// shows over `still` (the same size), `level` the least difference of a pixel that counts:
    /// the least-squares circle (Kåsa's) through each row's first and last differing pixels, but
    /// those on the screen's left and right edges, fitted again without the points far off the
    /// first fit (another change of the frame, a codec's stray pixel). Nil where fewer than three
    /// points are found or they lie on a line.
    static func middle(still: LumaImage, moving: LumaImage, by level: Float) -> (x: Double, y: Double)? {
        let (w, h) = (still.width, still.height)
        var points: [(x: Double, y: Double)] = []
        for y in 0..<h {
            var (first, last) = (-1, -1)
            for x in 0..<w where abs(moving.pixels[y * w + x] - still.pixels[y * w + x]) > level {
                if first < 0 { first = x }
                last = x
            }
            // The edge between pixels, a pixel spanning its index to the next, across its row's
            // middle.
            guard first >= 0 else { continue }
            if first > 0 { points.append((Double(first), Double(y) + 0.5)) }
            if last < w - 1 { points.append((Double(last + 1), Double(y) + 0.5)) }
        }
        guard let fit = circle(through: points) else { return nil }
        // The points far off it: more than three times the median distance, and a pixel or two.
        let off = points.map {
            abs((($0.x - fit.x) * ($0.x - fit.x) + ($0.y - fit.y) * ($0.y - fit.y)).squareRoot() - fit.r)
        }
        let median = off.sorted()[off.count / 2]
        let kept = zip(points, off).filter { $0.1 <= max(2, 3 * median) }.map(\.0)
        guard let refit = circle(through: kept) else { return nil }
        return (refit.x, refit.y)
    }

    /// The circle (middle and radius) nearest `points` by least squares of `x² + y² + Dx + Ey + F`
    /// (Kåsa's fit, the points taken about their mean); nil where fewer than three or they lie on
    /// a line.
    static func circle(through points: [(x: Double, y: Double)]) -> (x: Double, y: Double, r: Double)? {
        guard points.count >= 3 else { return nil }
        let n = Double(points.count)
        let (mx, my) = (points.map(\.x).reduce(0, +) / n, points.map(\.y).reduce(0, +) / n)
        var (suu, suv, svv, suz, svz, sz) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        for p in points {
            let (u, v) = (p.x - mx, p.y - my)
            let z = u * u + v * v
            (suu, suv, svv) = (suu + u * u, suv + u * v, svv + v * v)
            (suz, svz, sz) = (suz + u * z, svz + v * z, sz + z)
        }
        // About the mean the sums of u and v are 0: F = -Σz / n, and D, E solve a 2x2 system.
        let det = suu * svv - suv * suv
        guard abs(det) > 1e-9 * max(1, suu * svv) else { return nil }
        let d = (-suz * svv + svz * suv) / det
        let e = (-svz * suu + suz * suv) / det
        let f = -sz / n
        let r2 = (d * d + e * e) / 4 - f
        let (x, y) = (mx - d / 2, my - e / 2)
        guard r2 > 0, r2.isFinite, x.isFinite, y.isFinite else { return nil }
        return (x, y, r2.squareRoot())
    }
}
