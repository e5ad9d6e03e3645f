/// How well a fit determines each value: how far it can move, the others following as best
/// they can, before the residual rises by a stated amount. A value whose range is wide moves
/// the motion little: the recording does not pin it down, whatever the search printed.
extension Fitter {
    /// How much the residual may rise, in its own unit, at the edges of a value's range: a
    /// tenth of the fitted residual, and never less than `floor`, which is about what a
    /// recording's own noise (its frame times, its palette) moves it by.
    static func rise(above score: Double, floor: Double) -> Double { max(score * 0.1, floor) }

    /// The least rise that counts, for tracked layers (points) and whole frames (levels).
    static let riseFloor = (points: 0.1, levels: 0.5)

    /// A value is weakly determined when its range is wider than this share of the value: it
    /// is known to no better than a quarter either way.
    static let weakShare = 0.5

    /// The range of `values[index]` over which `score` stays within `limit`: from the value,
    /// outward in doubling steps until the score passes it or the search's range ends, then
    /// halved down to the crossing.
    static func determinedRange(
        _ values: [Double], index: Int, bounds: ClosedRange<Double>, limit: Double,
        score: ([Double]) throws -> Double
    ) rethrows -> ClosedRange<Double> {
        let v = values[index]
        let span = bounds.upperBound - bounds.lowerBound
        var edges: [Double] = []
        for direction in [-1.0, 1.0] {
            var inside = v, step = max(abs(v) * 0.005, span * 0.0005)
            var edge = direction < 0 ? bounds.lowerBound : bounds.upperBound
            for _ in 0..<16 {
                let x = min(max(v + direction * step, bounds.lowerBound), bounds.upperBound)
                var point = values
                point[index] = x
                if try score(point) > limit {
                    // The crossing is between the last value inside and this one.
                    var (lo, hi) = (inside, x)
                    for _ in 0..<6 {
                        let mid = (lo + hi) / 2
                        point[index] = mid
                        if try score(point) > limit { hi = mid } else { lo = mid }
                    }
                    edge = lo
                    break
                }
                inside = x
                if x == bounds.lowerBound || x == bounds.upperBound { break }
                step *= 2
            }
            edges.append(edge)
        }
        return min(edges[0], v)...max(edges[1], v)
    }

    /// Whether `range` around `value` is wide enough to call the value weakly determined.
    static func isWeak(_ range: ClosedRange<Double>, value: Double, bounds: ClosedRange<Double>) -> Bool {
        let scale = abs(value) > 1e-6 ? abs(value) : bounds.upperBound - bounds.lowerBound
        return range.upperBound - range.lowerBound > weakShare * scale
    }

    /// Each coordinate's range over which the residual can stay within `best + rise`, the
    /// others free to follow: a duration and a start that trade against each other leave both
    /// wider than either alone. Each coordinate is first probed alone (`determinedRange`);
    /// probes at half those widths, one coordinate and each pair, give the residual's
    /// curvature; the widths a quadratic of that shape allows widen the lone ones. Where the
    /// residual is too rough for a quadratic, the lone ranges stand.
    static func determinedRanges(
        _ point: [Double], bounds: [ClosedRange<Double>], best: Double, rise: Double,
        score: ([Double]) -> Double
    ) -> [ClosedRange<Double>] {
        let alone = point.indices.map { i in
            determinedRange(point, index: i, bounds: bounds[i], limit: best + rise, score: score)
        }
        let n = point.count
        let half = alone.map { max(($0.upperBound - $0.lowerBound) / 2, 1e-9) }
        var h = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for i in 0..<n {
            // Measured at the same scale as the cross terms; where a bound is in the way, as
            // the lone width has it.
            let a = half[i] / 2
            var up = point, down = point
            up[i] += a
            down[i] -= a
            let (fu, fd) = (
                bounds[i].contains(up[i]) ? score(up) : .nan, bounds[i].contains(down[i]) ? score(down) : .nan
            )
            let curvature = (fu + fd - 2 * best) / (a * a)
            h[i][i] = curvature.isFinite && curvature > 0 ? curvature : 2 * rise / (half[i] * half[i])
        }
        for i in 0..<n {
            for j in (i + 1)..<n {
                let (a, b) = (half[i] / 2, half[j] / 2)
                func at(_ si: Double, _ sj: Double) -> Double? {
                    var p = point
                    p[i] += si * a
                    p[j] += sj * b
                    guard bounds[i].contains(p[i]), bounds[j].contains(p[j]) else { return nil }
                    return score(p)
                }
                guard let pp = at(1, 1), let mm = at(-1, -1), let pm = at(1, -1), let mp = at(-1, 1),
                    [pp, mm, pm, mp].allSatisfy(\.isFinite)
                else { continue }
                h[i][j] = (pp + mm - pm - mp) / (4 * a * b)
                h[j][i] = h[i][j]
            }
        }
        guard let inverse = invert(h) else { return alone }
        return point.indices.map { i in
            guard inverse[i][i] > 0 else { return alone[i] }
            let width = (2 * rise * inverse[i][i]).squareRoot()
            let lo = max(bounds[i].lowerBound, min(alone[i].lowerBound, point[i] - width))
            let hi = min(bounds[i].upperBound, max(alone[i].upperBound, point[i] + width))
            return lo...hi
        }
    }

    /// The inverse of a small square matrix (Gauss-Jordan with partial pivoting), or nil when
    /// it is singular.
    static func invert(_ m: [[Double]]) -> [[Double]]? {
        let n = m.count
        var a = m.enumerated().map { i, row in row + (0..<n).map { $0 == i ? 1.0 : 0.0 } }
        for c in 0..<n {
            guard let p = (c..<n).max(by: { abs(a[$0][c]) < abs(a[$1][c]) }), abs(a[p][c]) > 1e-12 else { return nil }
            a.swapAt(c, p)
            let pivot = a[c][c]
            a[c] = a[c].map { $0 / pivot }
            for r in 0..<n where r != c {
                let f = a[r][c]
                if f != 0 { a[r] = zip(a[r], a[c]).map { $0 - f * $1 } }
            }
        }
        return a.map { Array($0[n...]) }
    }
}
