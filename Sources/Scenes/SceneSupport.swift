import Geometry
import Planner

/// Settings every scene has: the canvas, the output, the storyboard.
public struct SceneSettings: Sendable, Hashable {
    /// The screen in points.
    public var canvas: Size
    /// Output pixels per point (1, 2 or 3). 1 by default: the promo recordings' own 1 px/pt,
    /// and about a third of @2x's bytes.
    public var scale: Int = 1
    /// An output width in pixels, which wins over `scale` (height follows the canvas).
    public var width: Int? = nil
    public var fps: Double = 30
    public var storyboard: String
    /// What shows behind every layer.
    public var background: Color = .white

    /// Output pixels per point: from `width` when set, else `scale`.
    public var pixelsPerPoint: Double { width.map { Double($0) / canvas.width } ?? Double(scale) }

    /// The most pixels an output frame may have, as an input image may: every frame is held,
    /// drawn and encoded at this size, several at once.
    public static let maximumOutputPixels = 36_000_000

    /// Throws unless the frames fit the output budget, naming what sized them.
    static func checkOutputSize(_ s: SceneSettings, overrides: SceneOverrides) throws {
        let w = Int((s.canvas.width * s.pixelsPerPoint).rounded()),
            h = Int((s.canvas.height * s.pixelsPerPoint).rounded())
        guard w * h > maximumOutputPixels else { return }
        let setting: SceneError.SizeSetting =
            s.width.map { .width($0) } ?? (overrides.scale != nil ? .scale(s.scale) : .settingsScale(s.scale))
        throw SceneError.frameTooLarge(width: w, height: h, canvas: s.canvas, by: setting)
    }

    public init(canvas: Size, storyboard: String) {
        self.canvas = canvas
        self.storyboard = storyboard
    }

    /// The config fields for settings stored at `path`.
    static func fields<Root>(_ path: WritableKeyPath<Root, SceneSettings>, storyboards: @escaping (Root) -> [String])
        -> [ConfigField<Root>]
    {
        [
            .section(
                "canvas", "the screen in points",
                [
                    .number("width", path.appending(path: \.canvas.width), 100...2000, "points"),
                    .number("height", path.appending(path: \.canvas.height), 100...4000, "points"),
                ]),
            .integer("scale", path.appending(path: \.scale), 1...3, "output pixels per point: 1, 2 or 3"),
            .number(
                "fps", path.appending(path: \.fps), 1...120,
                "frames per second (GIFs above 50 drop frames to keep 2 cs delays)"),
            .choice("storyboard", path.appending(path: \.storyboard), storyboards, "which sequence of phases to play"),
            .color("background", path.appending(path: \.background), "behind everything"),
        ]
    }
}

/// An image file a scene draws from, under the name its draw lists use.
public struct SceneImage: Sendable, Hashable {
    public var name: String
    public var path: String
    /// The config key that names it, for errors.
    public var key: String
}

/// What goes wrong preparing a scene, with what was expected.
public enum SceneError: Error, Equatable, CustomStringConvertible {
    case unknownScene(String, known: [String])
    case unknownStoryboard(String, scene: String, known: [String])
    /// An image whose size does not fit the canvas.
    case imageSize(key: String, path: String, got: String, expected: String)
    /// A rect outside the canvas.
    case outsideCanvas(key: String, rect: Rect, canvas: Size)
    case invalid(key: String, message: String)
    /// Output frames past `SceneSettings.maximumOutputPixels`, and the setting that sized them.
    case frameTooLarge(width: Int, height: Int, canvas: Size, by: SizeSetting)

    /// What sizes the output frames: a width or a scale asked for, or the scene's own scale.
    public enum SizeSetting: Equatable, Sendable {
        case width(Int)
        case scale(Int)
        case settingsScale(Int)

        /// As a request's key names it: `width 8192`, `scale 3`, `settings.scale 3`.
        public var description: String {
            switch self {
            case .width(let w): "width \(w)"
            case .scale(let k): "scale \(k)"
            case .settingsScale(let k): "settings.scale \(k)"
            }
        }
    }

    public var description: String { message { $0.description } }

    /// The message with the setting that sized the frames spelled by `spell`.
    public func message(_ spell: (SizeSetting) -> String) -> String {
        switch self {
        case .unknownScene(let name, let known):
            return
                "no scene '\(name)'\(Suggestion.hint(for: name, in: known)); expected one of \(known.joined(separator: ", ")), or a scene file's path (.yaml)"
        case .unknownStoryboard(let name, let scene, let known):
            return
                "\(scene) has no storyboard '\(name)'\(Suggestion.hint(for: name, in: known)); expected one of \(known.joined(separator: ", "))"
        case .imageSize(let key, let path, let got, let expected):
            return "\(key) (\(path)) is \(got); expected \(expected)"
        case .outsideCanvas(let key, let rect, let canvas):
            return "\(key) \(rect) is outside the \(Int(canvas.width))x\(Int(canvas.height)) pt canvas"
        case .invalid(let key, let message): return "\(key): \(message)"
        case .frameTooLarge(let w, let h, let canvas, let setting):
            return
                "\(spell(setting)): frames of \(w)x\(h) px (\(w * h / 1_000_000) Mpx) for the \(canvas.width.plainText)x\(canvas.height.plainText) pt canvas; a frame has at most \(SceneSettings.maximumOutputPixels / 1_000_000) Mpx"
        }
    }
}

/// Pixel sizes of a scene's images, by name.
public typealias ImageSizes = [String: Size]

/// The image's pixels per point, when it is a screenshot of the whole canvas at any scale.
func screenScale(_ image: SceneImage, _ sizes: ImageSizes, canvas: Size) throws -> Double {
    let px = sizes[image.name] ?? .zero
    let k = px.width / canvas.width
    let expected =
        "a screenshot of the \(Int(canvas.width))x\(Int(canvas.height)) pt canvas at any scale (e.g. \(Int(canvas.width * 2))x\(Int(canvas.height * 2)) at @2x)"
    guard k > 0, abs(px.height - canvas.height * k) <= max(1, k) else {
        throw SceneError.imageSize(
            key: image.key, path: image.path, got: "\(Int(px.width))x\(Int(px.height)) px", expected: expected)
    }
    // A pixel for every eight points at least: a 1x1 PNG is within a pixel of any aspect, and
    // no screenshot.
    guard k >= minimumScreenScale else {
        throw SceneError.imageSize(
            key: image.key, path: image.path, got: "\(Int(px.width))x\(Int(px.height)) px",
            expected: expected + ", at least @\(minimumScreenScale.plainText)")
    }
    return k
}

/// The fewest pixels per point a screenshot may have.
let minimumScreenScale = 0.125

/// The image's pixels per point, for an image of `size` points at any scale.
func imageScale(_ image: SceneImage, _ sizes: ImageSizes, size: Size) throws -> Double {
    let px = sizes[image.name] ?? .zero
    let k = px.width / size.width
    guard k > 0, abs(px.height - size.height * k) <= max(1, k) else {
        throw SceneError.imageSize(
            key: image.key, path: image.path, got: "\(Int(px.width))x\(Int(px.height)) px",
            expected:
                "a \(size.width.plainText)x\(size.height.plainText) pt image at any scale (e.g. \((size.width * 2).plainText)x\((size.height * 2).plainText) at @2x)"
        )
    }
    return k
}

/// Throws unless `rect` lies inside the canvas.
func requireInside(_ rect: Rect, _ canvas: Size, key: String) throws {
    guard rect.minX >= 0, rect.minY >= 0, rect.maxX <= canvas.width, rect.maxY <= canvas.height, !rect.isEmpty else {
        throw SceneError.outsideCanvas(key: key, rect: rect, canvas: canvas)
    }
}
