import Planner

/// A timing curve named as scene files name it (`spring:duration=0.6,dampingRatio=0.7`),
/// sampled as `t,progress` rows and plotted: what `flipbook curve` prints.
public struct CurveTable: Sendable {
    let curve: Curve

    /// Reads `spec`; throws the curve grammar's error, naming what is wrong in it.
    public init(spec: String) throws { curve = try Curve(spec: spec) }

    /// The curve's own length in seconds.
    public var duration: Double { curve.duration }

    /// The curve as its spec spells it.
    public var name: String { curve.description }

    /// `t,progress` rows at `fps` over `duration` seconds, and at the end, with a header.
    public func csv(fps: Double, duration: Double) -> String {
        var out = "t,progress\n"
        for t in CurvePlot.frameTimes(fps: fps, duration: duration) + [duration] {
            out += "\(CurvePlot.number(t, decimals: 6)),\(CurvePlot.number(curve.progress(at: t), decimals: 8))\n"
        }
        return out
    }

    /// The curve drawn over `duration` seconds, a dot at each frame at `fps` (60 at most).
    public func plot(duration: Double, fps: Double) -> Bitmap {
        CurvePlot.render(curve, title: curve.description, duration: duration, fps: min(fps, 60))
    }
}
