/// A Core Animation cubic Bézier timing function through (0,0), `c1`, `c2`, (1,1).
///
/// Solved as Core Animation does, in double precision and tighter: Newton from t = x, then
/// bisection when the slope vanishes or Newton does not converge, to |X(t) − x| < 1e−9.
public struct CubicBezier: TimingCurve, Hashable {
    public let x1: Double, y1: Double, x2: Double, y2: Double
    public var duration: Double

    // Polynomial coefficients: P(t) = ((a·t + b)·t + c)·t.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, duration: Double = 1) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        self.duration = duration
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    /// `kCAMediaTimingFunctionLinear`.
    public static let linear = CubicBezier(0, 0, 1, 1)
    /// `kCAMediaTimingFunctionEaseIn`.
    public static let easeIn = CubicBezier(0.42, 0, 1, 1)
    /// `kCAMediaTimingFunctionEaseOut`.
    public static let easeOut = CubicBezier(0, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionEaseInEaseOut`: UIView.animate's default curve.
    public static let easeInEaseOut = CubicBezier(0.42, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionDefault`.
    public static let `default` = CubicBezier(0.25, 0.1, 0.25, 1)

    /// The same curve over another duration.
    public func with(duration: Double) -> CubicBezier { CubicBezier(x1, y1, x2, y2, duration: duration) }

    public func progress(at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        return value(atFraction: t / duration)
    }

    /// The curve's output for input fraction `x` in [0, 1].
    public func value(atFraction x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let t = solve(x)
        return ((ay * t + by) * t + cy) * t
    }

    /// The curve's slope dy/dx at x = 1: Y′(1)/X′(1), or the ratio of second derivatives when
    /// both vanish (an end control point at (1, 1), as in linear and easeIn).
    public var endSlope: Double {
        let dx = 3 * (1 - x2), dy = 3 * (1 - y2)
        if abs(dx) > 1e-12 { return dy / dx }
        let ddx = 6 * ax + 2 * bx, ddy = 6 * ay + 2 * by
        return abs(ddx) > 1e-12 ? ddy / ddx : 1
    }

    private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    private func solve(_ x: Double) -> Double {
        let epsilon = 1e-9
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < epsilon { return t }
            let slope = slopeX(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<1024 {
            let value = sampleX(t)
            if abs(value - x) < epsilon { break }
            if value < x { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return t
    }
}
