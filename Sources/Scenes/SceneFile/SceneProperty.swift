import Planner

/// What a step's change sets (`layer.property: value`): one of the planner's layer properties,
/// or `frame`, which sets the centre and the size together.
public enum SceneProperty: Hashable, Sendable {
    case frame
    case layer(LayerProperty)

    /// Every one, in the reference's order.
    public static let allCases: [SceneProperty] = [.frame] + LayerProperty.allCases.map { .layer($0) }

    /// The property `name` names: its own name, or `position` for `center`.
    public init?(name: String) {
        if name == "frame" {
            self = .frame
        } else if let property = LayerProperty(rawValue: name == "position" ? "center" : name) {
            self = .layer(property)
        } else {
            return nil
        }
    }

    /// Its name in a scene file.
    public var name: String {
        guard case .layer(let property) = self else { return "frame" }
        return property.rawValue
    }

    /// What its value is, for the reference.
    public var doc: String {
        guard case .layer(let property) = self else { return "a rect: position and size together" }
        switch property {
        case .center: return "a point: where the layer's centre is (`position` is the same)"
        case .size: return "[width, height]"
        case .scale, .alpha, .cornerRadius, .z: return "a number"
        case .background: return "a colour"
        case .hidden: return "true or false (switches when its animation ends)"
        case .contentOffset: return "a point: the image's scroll, as `UIScrollView.contentOffset`"
        }
    }

    /// Every name a change may use, `position` included.
    static let names = allCases.map(\.name) + ["position"]
}
