/// How well a fit determines each value: how far it can move, the others held at their fitted
/// values, before the residual rises by a stated amount. A value whose range is wide moves the
/// motion little: the recording does not pin it down, whatever the search printed.
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
                    for _ in 0..<8 {
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
}
