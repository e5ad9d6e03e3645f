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

    /// Draws `list` over what `view` holds. Commands under the topmost one that paints every
    /// pixel of the view opaquely are skipped: they cannot change a byte (`culling: false`
    /// draws them anyway, for tests).
    public func draw(_ list: DrawList, into view: BitmapView, culling: Bool = true) {
        let frame = Rect(x: 0, y: 0, width: Double(view.width), height: Double(view.height))
        let first = culling ? (list.commands.lastIndex { covers($0, frame) } ?? 0) : 0
        for command in list.commands[first...] {
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

    /// True when `command` alone leaves every pixel of `frame` opaque and independent of what
    /// was under it: a full-frame opaque fill or opaque snapshot, at full opacity, unclipped
    /// inside the frame and with no rounded corners over it.
    public func covers(_ command: DrawCommand, _ frame: Rect) -> Bool {
        guard command.alpha >= 1, command.rect.contains(frame) else { return false }
        if let clip = command.clip, !(clip.cornerRadius == 0 && clip.rect.contains(frame)) { return false }
        switch command.kind {
        case .fill(let color):
            return color.a == 255 && command.cornerRadius == 0
        case .snapshot(let image, let source):
            guard let texture = textures[image] else { return false }
            return texture.isOpaque && !source.isEmpty
        }
    }
}
