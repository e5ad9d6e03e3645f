import Planner

/// A storyboard's plan, with what tools show beside it: which params it reads and when each
/// of its top-level steps plays.
public struct ScenePlan: Sendable {
    public let plan: Plan
    /// The key paths of the params the storyboard reads (an animation by its own key, an image
    /// param when a layer shows it); the others could change and this storyboard would not.
    public let reads: Set<String>
    /// The storyboard's own steps in order, each a phase's name or a step's kind with its span.
    public let phases: [PhaseSpan]
}

/// A labelled span of a storyboard's time, in seconds.
public struct PhaseSpan: Sendable, Hashable {
    public let name: String
    public let start: Double
    public let end: Double

    public init(name: String, start: Double, end: Double) {
        self.name = name
        self.start = start
        self.end = end
    }
}
