import Geometry
import Planner
import Raster

/// Turns a draw list into pixels: each command becomes one raster call.
///
/// Nothing is painted twice where it cannot show: each command skips the pixels that later
/// commands paint opaquely (`Occlusion`), and the background is painted only where no command
/// hides it. A skipped pixel's final value is the opaque draw's alone, so this changes no byte
/// (tested against drawing every command whole). A translucent fill right after a snapshot
/// is composited row by row as the snapshot is drawn (`overlay`), and skips those pixels
/// itself. A frame can also be drawn from an earlier one, redrawing only the pixels that
/// changed (`redraw(_:after:drawn:)`).
struct Compositor: Sendable {
    /// Textures by the image names draw lists use.
    let textures: [String: Texture]
    let background: Color

    init(textures: [String: Texture], background: Color) {
        self.textures = textures
        self.background = background
    }

    /// A new frame with `list` drawn on the background.
    func render(_ list: DrawList) -> Bitmap {
        let frame = Self.frame(of: list)
        let hidden = occlusions(list.commands)
        // Every pixel is either painted by `paint` or hidden, and hidden pixels are painted
        // opaquely by a command: none is left as the memory held it.
        return Bitmap(width: frame.width, height: frame.height) { paint(list.commands, into: $0, hidden: hidden) }
    }

    /// `list` drawn from `previous`, the frame rendered for `previousList`: the pixels outside
    /// their `damage` are copied, and only those inside it are painted. The same pixels as
    /// `render(list)`, whatever the size of the damage: copying a pixel costs no more than
    /// painting it would, so there is no threshold. Nil when the lists do not match.
    func redraw(_ list: DrawList, after previousList: DrawList, drawn previous: Bitmap) -> Bitmap? {
        let frame = Self.frame(of: list)
        guard previous.width == frame.width, previous.height == frame.height,
            let damage = damage(from: previousList, to: list)
        else { return nil }
        if damage.isEmpty { return previous }
        let hidden = occlusions(list.commands, drawingOnly: damage, in: frame)
        // `paint` sets every pixel of the damage, as in `render`, and the copies set the rest.
        return Bitmap(width: frame.width, height: frame.height) { view in
            for rect in frame.subtracting(damage) { view.copy(rect, from: previous) }
            paint(list.commands, into: view, hidden: hidden)
        }
    }

    /// The pixels whose values can differ between renders of `old` and `new`: the bounds of
    /// every command that changed, where it was and where it is. Outside them every pixel is
    /// under the same commands, in the same order, as before. Commands are matched by
    /// position; nil when the lists do not match (another frame size or command count).
    func damage(from old: DrawList, to new: DrawList) -> PixelRect? {
        guard old.size == new.size, old.commands.count == new.commands.count else { return nil }
        let frame = Self.frame(of: new)
        var damage = PixelRect.zero
        for (a, b) in zip(old.commands, new.commands) where a != b {
            damage = damage.union(Self.paintedBounds(a)).union(Self.paintedBounds(b))
        }
        return damage.intersection(frame)
    }

    /// Draws `list` over what `view` holds. With `culling: false` every command is drawn
    /// whole, hidden or not (for tests).
    func draw(_ list: DrawList, into view: BitmapView, culling: Bool = true) {
        let hidden = culling ? occlusions(list.commands) : Array(repeating: .none, count: list.commands.count + 1)
        draw(list.commands, into: view, hidden: hidden)
    }

    /// What each run of commands hides: entry `i` holds the pixels that commands `i...` paint
    /// opaquely, so command `i` draws around entry `i + 1`, and the background around entry 0.
    /// With `region`, every pixel of `frame` outside it counts as hidden too.
    func occlusions(_ commands: [DrawCommand], drawingOnly region: PixelRect? = nil, in frame: PixelRect? = nil)
        -> [Occlusion]
    {
        var hidden = Occlusion.none
        if let region, let frame {
            for rect in frame.subtracting(region) { hidden.insert(rect) }
        }
        var result = Array(repeating: hidden, count: commands.count + 1)
        for i in commands.indices.reversed() {
            for rect in opaquePixelRects(commands[i]) { hidden.insert(rect) }
            result[i] = hidden
        }
        return result
    }

    /// The pixels `command` paints fully covered, with an opaque colour at full opacity:
    /// whatever lay under them cannot show.
    func opaquePixelRects(_ command: DrawCommand) -> [PixelRect] {
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

    /// The background around `hidden[0]`, then every command around what later ones hide.
    private func paint(_ commands: [DrawCommand], into view: BitmapView, hidden: [Occlusion]) {
        view.clear(to: background.premultiplied, hidden: hidden[0])
        draw(commands, into: view, hidden: hidden)
    }

    private func draw(_ commands: [DrawCommand], into view: BitmapView, hidden: [Occlusion]) {
        // The pixels of the next command, a fill, that the snapshot draw before it overlaid.
        var overlaid: (command: Int, rect: PixelRect)?
        for (i, command) in commands.enumerated() {
            let opacity = Self.opacity(command)
            if opacity == 0 || command.rect.isEmpty { continue }
            switch command.kind {
            case .fill(let color):
                var skip = hidden[i + 1]
                if let overlaid, overlaid.command == i { skip.insert(overlaid.rect) }
                view.fill(
                    Self.shape(command), color: color.premultiplied, opacity: opacity, clip: Self.clip(command),
                    hidden: skip)
            case .snapshot(let image, let source):
                guard let texture = textures[image] else { continue }
                let overlay = i + 1 < commands.count ? Self.overlay(commands[i + 1]) : nil
                let rect = view.draw(
                    texture, from: source, to: command.rect, opacity: opacity, clip: Self.clip(command),
                    hidden: hidden[i + 1], overlay: overlay)
                overlaid = (i + 1, rect)
            }
        }
    }

    /// A translucent fill as an overlay on the snapshot drawn just before it: the pixels it
    /// covers fully inside its clip (the largest such rect), where it is one constant blend.
    /// A card's tint over its photo is then composited row by row as the photo is drawn
    /// instead of in a second pass over the frame; the fill draws only the rest. Nil for any
    /// other command.
    static func overlay(_ command: DrawCommand) -> Overlay? {
        guard case .fill(let color) = command.kind, !command.rect.isEmpty else { return nil }
        let tint = color.premultiplied.scaled(by: Int(opacity(command)))
        guard tint.a > 0 && tint.a < 255 else { return nil }
        var rects = shape(command).solidPixelRects
        if let through = clip(command).solidPixelRects {
            rects = rects.flatMap { r in through.map { r.intersection($0) } }
        }
        guard let largest = rects.filter({ !$0.isEmpty }).max(by: { $0.width * $0.height < $1.width * $1.height })
        else { return nil }
        return Overlay(color: tint, rect: largest)
    }

    /// The frame's pixels.
    private static func frame(of list: DrawList) -> PixelRect {
        PixelRect(x: 0, y: 0, width: Int(list.size.width.rounded()), height: Int(list.size.height.rounded()))
    }

    /// Every pixel `command` can touch: its rect's, inside its clip's.
    private static func paintedBounds(_ command: DrawCommand) -> PixelRect {
        let bounds = Shape.rect(command.rect).pixelBounds
        return Self.clip(command).pixelBounds.map { bounds.intersection($0) } ?? bounds
    }

    private static func opacity(_ command: DrawCommand) -> UInt8 {
        UInt8(max(0, min(255, (command.alpha * 255).rounded())))
    }

    /// A fill's shape; a snapshot's destination is always a plain rect.
    private static func shape(_ command: DrawCommand) -> Shape {
        command.cornerRadius > 0 ? .roundedRect(command.rect, radius: command.cornerRadius) : .rect(command.rect)
    }

    private static func clip(_ command: DrawCommand) -> Clip {
        command.clip.map { $0.cornerRadius > 0 ? .roundedRect($0.rect, radius: $0.cornerRadius) : .rect($0.rect) }
            ?? .none
    }
}
