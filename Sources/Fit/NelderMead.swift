/// Nelder–Mead's downhill simplex, within bounds: a derivative-free search that needs only
/// the objective's values, which is all a render's distance from a recording gives.
enum NelderMead {
    struct Result {
        var point: [Double]
        var score: Double
        var evaluations: Int
    }

    /// The point in `bounds` with the least `f` found from `start`, the simplex's first edges
    /// `steps` long, in at most `maximumEvaluations` calls of `f`.
    static func minimize(
        start: [Double], steps: [Double], bounds: [ClosedRange<Double>], maximumEvaluations: Int,
        tolerance: Double = 1e-5, _ f: ([Double]) -> Double
    ) -> Result {
        let n = start.count
        func clamp(_ p: [Double]) -> [Double] {
            zip(p, bounds).map { min(max($0, $1.lowerBound), $1.upperBound) }
        }
        var evaluations = 0
        func score(_ p: [Double]) -> Double {
            evaluations += 1
            return f(p)
        }
        var simplex: [(point: [Double], score: Double)] = []
        let origin = clamp(start)
        simplex.append((origin, score(origin)))
        for i in 0..<n {
            var p = origin
            p[i] += steps[i]
            // At an upper bound, step down instead.
            if p[i] > bounds[i].upperBound { p[i] = origin[i] - steps[i] }
            p = clamp(p)
            simplex.append((p, score(p)))
        }
        while evaluations < maximumEvaluations {
            simplex.sort { $0.score < $1.score }
            let best = simplex[0], worst = simplex[n]
            let spread = worst.score - best.score
            let size: Double =
                (1...n).map { (i: Int) -> Double in
                    zip(simplex[i].point, best.point).map { (a: Double, b: Double) -> Double in abs(a - b) }.max() ?? 0
                }.max() ?? 0
            if spread <= tolerance * max(1, abs(best.score)) && size <= tolerance * 10 { break }
            // The centroid of all but the worst.
            var centroid = [Double](repeating: 0, count: n)
            for s in simplex.dropLast() {
                for j in 0..<n { centroid[j] += s.point[j] / Double(n) }
            }
            func along(_ t: Double) -> [Double] {
                clamp((0..<n).map { (j: Int) -> Double in centroid[j] + t * (worst.point[j] - centroid[j]) })
            }
            let reflected = along(-1)
            let r = score(reflected)
            if r < best.score {
                let expanded = along(-2)
                let e = score(expanded)
                simplex[n] = e < r ? (expanded, e) : (reflected, r)
            } else if r < simplex[n - 1].score {
                simplex[n] = (reflected, r)
            } else {
                let contracted = r < worst.score ? along(-0.5) : along(0.5)
                let c = score(contracted)
                if c < min(r, worst.score) {
                    simplex[n] = (contracted, c)
                } else {
                    // Shrink toward the best.
                    for i in 1...n {
                        let p = clamp(
                            (0..<n).map { (j: Int) -> Double in
                                best.point[j] + 0.5 * (simplex[i].point[j] - best.point[j])
                            })
                        simplex[i] = (p, score(p))
                    }
                }
            }
        }
        simplex.sort { $0.score < $1.score }
        return Result(point: simplex[0].point, score: simplex[0].score, evaluations: evaluations)
    }
}
