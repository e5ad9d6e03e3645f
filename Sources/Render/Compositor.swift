import Geometry
import Planner
import Raster

/// Turns a draw list into pixels: each command becomes one raster call.
///
/// Nothing is painted twice where it cannot show: each command skips the pixels that later
/// commands paint opaquely (`Occlusion`), and the background is painted only where no command
/// hides it. A skipped pixel's final value is the opaque draw's alone, so this changes no byte
/// (tested against drawing every command whole).
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
        let hidden = occlusions(list.commands)
        return Bitmap(width: Int(list.size.width.rounded()), height: Int(list.size.height.rounded())) { view in
            // Every pixel is either painted here or hidden, and hidden pixels are painted
            // opaquely by a command below: none is left as the memory held it.
            view.clear(to: background.premultiplied, hidden: hidden[0])
            draw(list.commands, into: view, hidden: hidden)
        }
    }

    /// Draws `list` over what `view` holds. With `culling: false` every command is drawn
    /// whole, hidden or not (for tests).
    public func draw(_ list: DrawList, into view: BitmapView, culling: Bool = true) {
        let hidden = culling ? occlusions(list.commands) : Array(repeating: .none, count: list.commands.count + 1)
        draw(list.commands, into: view, hidden: hidden)
    }

    /// What each run of commands hides: entry `i` holds the pixels that commands `i...` paint
    /// opaquely, so command `i` draws around entry `i + 1`, and the background around entry 0.
    public func occlusions(_ commands: [DrawCommand]) -> [Occlusion] {
        var result = Array(repeating: Occlusion.none, count: commands.count + 1)
        var hidden = Occlusion.none
        for i in commands.indices.reversed() {
            for rect in opaquePixelRects(commands[i]) { hidden.insert(rect) }
            result[i] = hidden
        }
        return result
    }

    /// The pixels `command` paints fully covered, with an opaque colour at full opacity:
    /// whatever lay under them cannot show.
    public func opaquePixelRects(_ command: DrawCommand) -> [PixelRect] {
        guard Self.opacity(command) == 255, !command.rect.isEmpty else { return [] }
        var rects: [PixelRect]
        switch command.kind {
        case .fill(let color):
            guard color.a == 255 else { return [] }
            rects = Self.shape(command).solidPixelRects
        case .snapshot(let image, let source):
            guard let texture = textures[image], texture.isOpaque, !source.isEmpty else { return [] }
            rects = Shape.rect(command.rect).solidPixelRects
        }
        if let through = Self.clip(command).solidPixelRects {
            rects = rects.flatMap { r in through.map { r.intersection($0) } }
        }
        return rects.filter { !$0.isEmpty }
    }

    private func draw(_ commands: [DrawCommand], into view: BitmapView, hidden: [Occlusion]) {
        for (i, command) in commands.enumerated() {
            let opacity = Self.opacity(command)
            if opacity == 0 || command.rect.isEmpty { continue }
            switch command.kind {
            case .fill(let color):
                view.fill(Self.shape(command), color: color.premultiplied, opacity: opacity, clip: Self.clip(command), hidden: hidden[i + 1])
            case .snapshot(let image, let source):
                guard let texture = textures[image] else { continue }
                view.draw(texture, from: source, to: command.rect, opacity: opacity, clip: Self.clip(command), hidden: hidden[i + 1])
            }
        }
    }

    private static func opacity(_ command: DrawCommand) -> UInt8 {
        UInt8(max(0, min(255, (command.alpha * 255).rounded())))
    }

    /// A fill's shape; a snapshot's destination is always a plain rect.
    private static func shape(_ command: DrawCommand) -> Shape {
        command.cornerRadius > 0 ? .roundedRect(command.rect, radius: command.cornerRadius) : .rect(command.rect)
    }

    private static func clip(_ command: DrawCommand) -> Clip {
        command.clip.map { $0.cornerRadius > 0 ? .roundedRect($0.rect, radius: $0.cornerRadius) : .rect($0.rect) } ?? .none
    }
}
