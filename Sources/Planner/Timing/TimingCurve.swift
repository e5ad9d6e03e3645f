/// A timing curve: progress (0 at the start, 1 at rest; springs overshoot) against the time
/// in seconds since the animation began, delay excluded.
public protocol TimingCurve: Sendable {
    /// Progress at `t` seconds. Before 0 it is 0; from `duration` on it is 1 (the model value).
    func progress(at t: Double) -> Double
    /// How long the animation runs: after this its value snaps to 1, as Core Animation does.
    var duration: Double { get }
}

/// Linear interpolation: `a + (b − a)·p`, extrapolating when a spring overshoots.
@inline(__always)
package func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double { a + (b - a) * p }
