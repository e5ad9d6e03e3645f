/// What can go wrong while planning, with the offending value and what was expected.
public enum PlanError: Error, Equatable, CustomStringConvertible {
    /// A curve spec that does not parse.
    case curveSpec(spec: String, problem: String)
    /// A value out of its range.
    case invalidValue(name: String, value: String, expected: String)
    /// A layer name used twice, or a parent that does not exist.
    case layer(String)

    public var description: String {
        switch self {
        case .curveSpec(let spec, let problem): return "curve '\(spec)': \(problem)"
        case .invalidValue(let name, let value, let expected): return "\(name) = \(value): expected \(expected)"
        case .layer(let message): return message
        }
    }
}
