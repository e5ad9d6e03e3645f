import Geometry

/// Builds a plan: layers first, then choreography steps, one after another.
public struct PlanBuilder: Sendable {
    public let canvas: Size
    private(set) var layers: [Layer] = []
    private var names: [String: Int] = [:]
    private var steps: [Step] = []

    /// A plan for a screen of `canvas` points.
    public init(canvas: Size) {
        self.canvas = canvas
    }

    /// Adds a layer (drawn after those added before it, among its siblings of equal zIndex).
    @discardableResult
    public mutating func addLayer(_ name: String, content: LayerContent, initial: LayerState, parent: LayerID? = nil)
        throws -> LayerID
    {
        guard names[name] == nil else { throw PlanError.layer("layer '\(name)' is added twice") }
        if let parent, parent.index >= layers.count {
            throw PlanError.layer("layer '\(name)' has a parent that does not exist")
        }
        names[name] = layers.count
        layers.append(Layer(name: name, content: content, initial: initial, parent: parent?.index))
        return LayerID(index: layers.count - 1)
    }

    /// Appends a step, starting when everything before it has completed.
    public mutating func append(_ step: Step) {
        steps.append(step)
    }

    /// The time at which the next appended step will start.
    public var currentTime: Double { steps.reduce(0) { $0 + $1.duration } }

    /// The finished plan: every animation scheduled and its starting value resolved. It lasts
    /// until its last step ends, or `length` seconds: cut short while something still moves
    /// (as a recording stopped mid-motion is), or holding its last state.
    public func build(length: Double? = nil) -> Plan {
        var animations: [PropertyAnimation] = []
        Step.sequence(steps).schedule(at: 0, into: &animations)
        return Plan(canvas: canvas, layers: layers, animations: animations, duration: length ?? currentTime)
    }
}
