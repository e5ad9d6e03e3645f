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

    /// The keys it takes, its own first; `animate` and `drag` also take changes.
    public var keys: [String] {
        switch self {
        case .animate: ["animate", "delay", "crossing"]
        case .drag: ["drag", "crossing"]
        case .if: ["if", "then", "else"]
        case .require: ["require", "message"]
        default: [rawValue]
        }
    }

    /// Whether its keys besides `keys` are changes (`layer.property: value`, `pose:`).
    public var takesChanges: Bool { self == .animate || self == .drag }

    /// The kinds' names, in order.
    static let names = allCases.map(\.rawValue)
}
