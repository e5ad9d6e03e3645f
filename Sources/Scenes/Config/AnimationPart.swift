/// A numeric part of an animation param (`present.duration`): the one list that configs,
/// `--set`, scene-file values, fits, saves and the studio read the parts' names, ranges and docs
/// from. `curve` is the fourth part, a spec rather than a number.
public enum AnimationPart: String, Sendable, Hashable, CaseIterable {
    case duration, dampingRatio, velocity

    /// The part a key's last component names, by its name or a former one (`damping`).
    public init?(named name: String) {
        guard let part = Self.allCases.first(where: { $0.rawValue == name || $0.formerNames.contains(name) })
        else { return nil }
        self = part
    }

    /// Its name in scene files and configs.
    public var name: String { rawValue }

    /// Names it was read by before, still read (`FormerNames`).
    public var formerNames: [String] { self == .dampingRatio ? ["damping"] : [] }

    /// The values it takes: what a config reads, a fit searches and the studio offers.
    public var range: ClosedRange<Double> {
        switch self {
        case .duration: 0.01...10
        case .dampingRatio: 0.01...1
        case .velocity: -50...50
        }
    }

    /// What it is, for the reference.
    public var doc: String {
        switch self {
        case .duration: "seconds (for a spring: UIKit fits it to this duration)"
        case .dampingRatio: "UIKit's spring damping ratio, 1 for no overshoot (formerly damping)"
        case .velocity: "initial spring velocity, in whole distances per second"
        }
    }

    /// Where it is kept in an animation's setting.
    public var keyPath: WritableKeyPath<AnimationSetting, Double> {
        switch self {
        case .duration: \.duration
        case .dampingRatio: \.damping
        case .velocity: \.velocity
        }
    }

    /// The last key part of an animation's spec: `curve`.
    public static let curve = "curve"
}
