import struct Planner.Plan

/// The moments at which a step of a storyboard first shows in a recording's frames: each
/// frame's time less the display's latency (`Plan.presentationLatency`). A step made at `t`
/// shows in every frame whose edge is at or after `t`, so two times between the same two edges
/// draw the same frames.
struct FrameEdges: Sendable {
    /// Ascending, in the scene's seconds.
    let edges: [Double]

    /// The edges of frames starting at `starts` (ascending), in the same seconds.
    init(starts: [Double]) {
        edges = starts.map { $0 - Plan.presentationLatency }
    }

    /// How near an edge a time may be and still count as on it (a sum's rounding error).
    static let tie = 1e-9
    /// How far from an edge a written time keeps, so that summing the file's holds and
    /// durations, in whatever order, leaves it on its side.
    static let margin = 1e-6

    /// How many edges come before `t`: the frames from that one on show a step made at `t` (a
    /// time on an edge shows in that edge's frame).
    func between(_ t: Double) -> Int {
        var (low, high) = (0, edges.count)
        while low < high {
            let mid = (low + high) / 2
            if edges[mid] < t - Self.tie { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The time a file writes for `fitted`: `preferred` (a time to four places) where it
    /// falls between the same two edges, else the time to those places nearest `fitted` that
    /// does. A time at or before 0 shows at once, whatever the edges; and where the edges
    /// leave no such time, `preferred`.
    func kept(_ fitted: Double, preferring preferred: Double) -> Double {
        guard fitted > 0, !edges.isEmpty else { return preferred }
        let k = between(fitted)
        let low = k > 0 ? edges[k - 1] + Self.margin : -Double.infinity
        let high = k < edges.count ? edges[k] - Self.margin : Double.infinity
        if preferred >= low, preferred <= high { return preferred }
        let (first, last) = ((low * FitResult.places).rounded(.up), (high * FitResult.places).rounded(.down))
        guard first <= last else { return preferred }
        return min(max((fitted * FitResult.places).rounded(), first), last) / FitResult.places
    }
}
