import Geometry

/// How a snapshot fills its layer's bounds.
public enum ContentMode: String, Sendable, Hashable, CaseIterable {
    /// Stretched to the bounds.
    case scaleToFill
    /// Scaled to cover the bounds, centred, cropped (UIKit's aspectFill).
    case aspectFill
    /// At its natural size, top-aligned and cropped by the bounds.
    case top
    /// At its natural size, bottom-aligned and cropped by the bounds (a bar that slides up as
    /// its layer shrinks).
    case bottom
    /// Scaled to the bounds' width, top-aligned and cropped (a card whose content becomes a
    /// detail page as it grows).
    case fitWidth
}

/// A region of an image, drawn as a layer's content.
public struct Snapshot: Sendable, Hashable {
    /// The image's name, resolved by whoever draws (the planner never sees pixels).
    public var image: String
    /// The region in the image's pixels.
    public var source: Rect
    /// Image pixels per point (2 for @2x screenshots).
    public var pixelsPerPoint: Double
    public var mode: ContentMode

    public init(image: String, source: Rect, pixelsPerPoint: Double, mode: ContentMode = .scaleToFill) {
        self.image = image
        self.source = source
        self.pixelsPerPoint = pixelsPerPoint
        self.mode = mode
    }

    /// The snapshot's natural size in points.
    public var size: Size { Size(width: source.width / pixelsPerPoint, height: source.height / pixelsPerPoint) }
}

/// What a layer shows.
public enum LayerContent: Sendable, Hashable {
    /// Nothing of its own: a container for its children (it may still have a background).
    case none
    /// A solid colour filling its bounds, rounded by the corner radius.
    case color(Color)
    /// A snapshot image region.
    case snapshot(Snapshot)
}

/// A layer's animatable state, as UIKit's view or CALayer holds it: a position (where the
/// anchor sits in the parent) and a size, a scale about the anchor, and the rest.
public struct LayerState: Sendable, Hashable {
    public var position: Point
    public var size: Size
    /// The anchor in unit coordinates of the bounds; (0.5, 0.5) is the centre.
    public var anchor: Point = Point(x: 0.5, y: 0.5)
    public var scale: Double = 1
    public var alpha: Double = 1
    public var cornerRadius: Double = 0
    /// Children are clipped to this layer's rounded bounds.
    public var clipsToBounds = false
    public var backgroundColor: Color? = nil
    /// Among siblings, higher draws later (on top); ties keep insertion order.
    public var zIndex: Double = 0
    public var isHidden = false
    /// How far the snapshot is scrolled, as `UIScrollView.contentOffset`: it moves up and left
    /// by this many points, and the layer's bounds clip it.
    public var contentOffset = Point(x: 0, y: 0)

    /// A state whose frame (before scale) is `frame`, anchored at its centre.
    public init(frame: Rect) {
        position = frame.center
        size = frame.size
    }

    /// The frame in the parent's coordinates, before the scale.
    public var frame: Rect {
        get {
            Rect(
                x: position.x - anchor.x * size.width, y: position.y - anchor.y * size.height,
                width: size.width, height: size.height)
        }
        set {
            size = newValue.size
            position = Point(
                x: newValue.minX + anchor.x * newValue.width, y: newValue.minY + anchor.y * newValue.height)
        }
    }
}

/// A named layer in a plan's tree.
public struct Layer: Sendable, Hashable {
    public var name: String
    public var content: LayerContent
    /// The state at time 0, before any animation.
    public var initial: LayerState
    /// The parent's index in the plan, or nil for a root layer.
    public var parent: Int?

    public init(name: String, content: LayerContent, initial: LayerState, parent: Int? = nil) {
        self.name = name
        self.content = content
        self.initial = initial
        self.parent = parent
    }
}

/// A handle to a layer of a plan.
public struct LayerID: Hashable, Sendable {
    public let index: Int
}
