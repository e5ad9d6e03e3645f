import Geometry

/// One thing to draw, in output pixels, with everything resolved.
public struct DrawCommand: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A solid colour filling `rect`, rounded by `cornerRadius`.
        case fill(Color)
        /// `sourceRect` of `image` drawn into `rect`.
        case snapshot(image: String, sourceRect: Rect)
    }

    /// Where a draw may paint: a rect, rounded by `cornerRadius`.
    public struct Clip: Sendable, Hashable {
        public var rect: Rect
        public var cornerRadius: Double
    }

    /// The layer's name.
    public var layer: String
    public var kind: Kind
    /// The destination, in output pixels.
    public var rect: Rect
    /// The layer's scale on screen (its own times its ancestors').
    public var scale: Double
    /// Opacity, 0...1: the layer's alpha times its ancestors'.
    public var alpha: Double
    /// For fills, their rounding in pixels.
    public var cornerRadius: Double
    public var clip: Clip?
}

/// What a plan shows at one moment: commands in drawing order, bottom first.
public struct DrawList: Sendable, Hashable {
    public var time: Double
    /// Output pixels per point.
    public var scale: Double
    /// The canvas in output pixels.
    public var size: Size
    public var commands: [DrawCommand]
}

/// Times at which to sample a plan: `i / fps` for every frame that starts before `duration`.
package func frameTimes(fps: Double, duration: Double) -> [Double] {
    guard fps > 0, duration > 0 else { return [0] }
    let count = max(1, Int((duration * fps - 1e-9).rounded(.up)))
    return (0..<count).map { Double($0) / fps }
}
