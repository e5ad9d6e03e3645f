import Planner

/// The layer properties a step changes (`layer.property: value`), each declared once with its
/// doc; the interpreter's switch over them is exhaustive.
public enum SceneProperty: String, CaseIterable, Sendable {
    case frame, center, size, scale, alpha, cornerRadius, background, z, hidden, contentOffset

    /// The property `name` names: its own name, or `position` for `center`.
    public init?(name: String) {
        if name == "position" { self = .center } else { self.init(rawValue: name) }
    }

    /// What its value is, for the reference.
    public var doc: String {
        switch self {
        case .frame: "a rect: position and size together"
        case .center: "a point: where the layer's centre is (`position` is the same)"
        case .size: "[width, height]"
        case .scale, .alpha, .cornerRadius, .z: "a number"
        case .background: "a colour"
        case .hidden: "true or false (switches when its animation ends)"
        case .contentOffset: "a point: the image's scroll, as `UIScrollView.contentOffset`"
        }
    }

    /// Every name a change may use, `position` included.
    static let names = allCases.map(\.rawValue) + ["position"]

    /// The planner's property a change of it sets; nil for `frame`, which sets two.
    public var planned: LayerProperty? {
        switch self {
        case .frame: nil
        case .center: .position
        case .size: .size
        case .scale: .scale
        case .alpha: .alpha
        case .cornerRadius: .cornerRadius
        case .background: .backgroundColor
        case .z: .zIndex
        case .hidden: .hidden
        case .contentOffset: .contentOffset
        }
    }

    /// How a scene file names a planned property: its own name where a change takes it
    /// (`position`, `alpha`), else the property that sets it (`background`, `z`).
    public static func name(of planned: LayerProperty) -> String {
        if SceneProperty(name: planned.rawValue) != nil { return planned.rawValue }
        return allCases.first { $0.planned == planned }?.rawValue ?? planned.rawValue
    }
}
