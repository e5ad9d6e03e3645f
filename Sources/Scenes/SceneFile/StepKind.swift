/// The kinds of step a storyboard or a phase lists, each declared once: its doc, the keys it
/// takes, and whether its other keys are changes (`layer.property: value`, `pose:`). The
/// parser, the reference and the JSON Schema read this list: a new kind is one case here, and
/// the compiler then asks the parser (whose switch over these cases is exhaustive) for its
/// `SceneStep.Body`, and the check and the interpreter for what that body means.
public enum StepKind: String, CaseIterable, Sendable {
    case hold, set, animate, parallel, sequence, drag
    case `if`, `let`, require

    /// What it does, for the reference and the schema.
    public var doc: String {
        switch self {
        case .hold: "`hold: seconds` (`0.3`, `0.3s`, `300ms` or an expression): nothing happens for a while"
        case .set: "`set: {layer.property: value, pose: name}`: changes at once"
        case .animate:
            "`animate: curve` with `layer.property: value` keys, `pose:` and `delay:`: one UIView.animate block; `crossing:` runs steps when its progress passes a point"
        case .parallel: "`parallel: [steps]`: start together; lasts as long as the longest"
        case .sequence: "`sequence: [steps]`: one after another"
        case .drag:
            "`drag: {gesture}` with `layer.property: value` keys: the changes follow the finger's progress (see below); `crossing:` runs steps when the drag passes a point"
        case .if: "`if: test` with `then: [steps]` and `else: [steps]`, decided when the plan is built"
        case .let: "`let: {name: value}`: values for later steps and phases (state such as `detail: true`)"
        case .require: "`require: test` with `message:`: the storyboard is an error unless the test holds"
        }
    }

    /// What a step's key holds: what the parser reads there and the schema allows.
    public enum Holds: Sendable {
        /// A value or an expression.
        case value
        /// A list of steps.
        case steps
        /// Changes: `layer.property: value` and `pose:`.
        case changes
        /// Named values.
        case values
        /// A gesture (`drag:`'s distance, velocity, path).
        case gesture
        /// Points of progress, each with the steps to run there.
        case crossing
    }

    /// The keys it takes, its own first, each with what it holds; `animate` and `drag` also
    /// take changes.
    public var fields: [(key: String, holds: Holds)] {
        switch self {
        case .hold: [("hold", .value)]
        case .set: [("set", .changes)]
        case .animate: [("animate", .value), ("delay", .value), ("crossing", .crossing)]
        case .parallel: [("parallel", .steps)]
        case .sequence: [("sequence", .steps)]
        case .drag: [("drag", .gesture), ("crossing", .crossing)]
        case .if: [("if", .value), ("then", .steps), ("else", .steps)]
        case .let: [("let", .values)]
        case .require: [("require", .value), ("message", .value)]
        }
    }

    /// The keys it takes, its own first.
    public var keys: [String] { fields.map(\.key) }

    /// Whether its keys besides `keys` are changes (`layer.property: value`, `pose:`).
    public var takesChanges: Bool { self == .animate || self == .drag }

    /// The kinds' names, in order.
    static let names = allCases.map(\.rawValue)
}
