import Geometry
import Planner
import Raster

/// Turns a draw list into pixels: each command becomes one raster call.
public struct Compositor: Sendable {
    /// Textures by the image names draw lists use.
    public let textures: [String: Texture]
    public let background: Color

    public init(textures: [String: Texture], background: Color) {
        self.textures = textures
        self.background = background
    }

    /// A new frame with `list` drawn on the background.
    public func render(_ list: DrawList) -> Bitmap {
        var frame = Bitmap(width: Int(list.size.width.rounded()), height: Int(list.size.height.rounded()), fill: background.premultiplied)
        frame.withView { draw(list, into: $0) }
        return frame
    }

    /// Draws `list` over what `view` holds.
    public func draw(_ list: DrawList, into view: BitmapView) {
        for command in list.commands {
            let opacity = UInt8(max(0, min(255, (command.alpha * 255).rounded())))
            if opacity == 0 || command.rect.isEmpty { continue }
            let clip: Clip = command.clip.map { $0.cornerRadius > 0 ? .roundedRect($0.rect, radius: $0.cornerRadius) : .rect($0.rect) } ?? .none
            switch command.kind {
            case .fill(let color):
                let shape: Shape = command.cornerRadius > 0 ? .roundedRect(command.rect, radius: command.cornerRadius) : .rect(command.rect)
                view.fill(shape, color: color.premultiplied, opacity: opacity, clip: clip)
            case .snapshot(let image, let source):
                guard let texture = textures[image] else { continue }
                view.draw(texture, from: source, to: command.rect, opacity: opacity, clip: clip)
            }
        }
    }
}
