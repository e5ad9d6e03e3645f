import Geometry

/// A property of a layer that animations can change, named as a scene file's change names it
/// (UIView's `center`, `alpha`; `background` and `z` for the colour and the stacking order).
public enum LayerProperty: String, Sendable, Hashable, CaseIterable {
    case center, size, scale, alpha, cornerRadius, background, z, hidden, contentOffset
}

/// A value of an animatable property.
public enum AnimatableValue: Sendable, Hashable, CustomStringConvertible {
    case number(Double)
    case point(Point)
    case size(Size)
    case color(Color)
    case flag(Bool)

    /// The value a fraction `p` of the way to `other` (extrapolating past 1 for springs).
    /// Colours interpolate per channel, clamped; flags switch at the end.
    public func interpolated(to other: AnimatableValue, _ p: Double) -> AnimatableValue {
        switch (self, other) {
        case (.number(let a), .number(let b)): return .number(lerp(a, b, p))
        case (.point(let a), .point(let b)): return .point(Point(x: lerp(a.x, b.x, p), y: lerp(a.y, b.y, p)))
        case (.size(let a), .size(let b)):
            return .size(Size(width: max(0, lerp(a.width, b.width, p)), height: max(0, lerp(a.height, b.height, p))))
        case (.color(let a), .color(let b)):
            func ch(_ x: UInt8, _ y: UInt8) -> UInt8 {
                UInt8(max(0, min(255, lerp(Double(x), Double(y), p).rounded())))
            }
            return .color(Color(r: ch(a.r, b.r), g: ch(a.g, b.g), b: ch(a.b, b.b), a: ch(a.a, b.a)))
        case (.flag, .flag): return p >= 1 ? other : self
        default: return p >= 1 ? other : self
        }
    }

    public var description: String {
        switch self {
        case .number(let v): return "\(v)"
        case .point(let p): return "\(p)"
        case .size(let s): return "\(s)"
        case .color(let c): return "\(c)"
        case .flag(let f): return "\(f)"
        }
    }
}

extension LayerState {
    /// The current value of `property`.
    public func value(of property: LayerProperty) -> AnimatableValue {
        switch property {
        case .center: return .point(position)
        case .size: return .size(size)
        case .scale: return .number(scale)
        case .alpha: return .number(alpha)
        case .cornerRadius: return .number(cornerRadius)
        case .background: return .color(backgroundColor ?? .clear)
        case .z: return .number(zIndex)
        case .hidden: return .flag(isHidden)
        case .contentOffset: return .point(contentOffset)
        }
    }

    /// Sets `property` (a value of the wrong kind is ignored).
    public mutating func set(_ property: LayerProperty, _ value: AnimatableValue) {
        switch (property, value) {
        case (.center, .point(let p)): position = p
        case (.size, .size(let s)): size = s
        case (.scale, .number(let v)): scale = v
        case (.alpha, .number(let v)): alpha = v
        case (.cornerRadius, .number(let v)): cornerRadius = max(0, v)
        case (.background, .color(let c)): backgroundColor = c.a == 0 ? nil : c
        case (.z, .number(let v)): zIndex = v
        case (.hidden, .flag(let f)): isHidden = f
        case (.contentOffset, .point(let p)): contentOffset = p
        default: break
        }
    }
}

/// One property change of one layer: the unit of an animation block.
public struct Change: Sendable, Hashable {
    public var layer: LayerID
    public var property: LayerProperty
    public var value: AnimatableValue

    public init(_ layer: LayerID, _ property: LayerProperty, _ value: AnimatableValue) {
        self.layer = layer
        self.property = property
        self.value = value
    }

    /// Changes that move a layer's frame (position and size together).
    public static func frame(_ layer: LayerID, _ frame: Rect, anchor: Point = Point(x: 0.5, y: 0.5)) -> [Change] {
        [
            Change(
                layer, .center,
                .point(Point(x: frame.minX + anchor.x * frame.width, y: frame.minY + anchor.y * frame.height))),
            Change(layer, .size, .size(frame.size)),
        ]
    }
}
