import Geometry
import Planner

/// A round button grows until it covers the screen, the next screen fades in over it, and
/// closing slides that screen down as a modal.
public enum ExpandingView: SceneDefinition {
    public static let name = "expanding-view"
    public static let summary = "a Dribbble login: a round button grows to cover the screen, then the next screen fades in"
    /// One storyboard per button, as in the four promo GIFs.
    public static let storyboardNames = ["bottom", "top-right", "left", "small"]
    public static var defaultConfig: ExpandingViewConfig { ExpandingViewConfig() }
    public static var settingsPath: WritableKeyPath<ExpandingViewConfig, SceneSettings> { \.settings }

    public static var fields: [ConfigField<ExpandingViewConfig>] {
        SceneSettings.fields(\ExpandingViewConfig.settings, storyboards: { _ in storyboardNames }) + [
            .section("assets", "screenshots, PNG at any scale (relative paths: from this file's folder)", [
                .path("screen", \.assets.screen, "the first screen, whole canvas, buttons included"),
                .path("next", \.assets.next, "the screen that fades in, whole canvas"),
            ]),
            .section("buttons", "the round buttons' frames [x, y, width, height] in points; storyboard NAME taps button NAME", [
                .rect("bottom", \.buttons.bottom, "the bottom button"),
                .rect("topRight", \.buttons.topRight, "the top-right button"),
                .rect("left", \.buttons.left, "the left button"),
                .rect("small", \.buttons.small, "the small middle button"),
            ]),
            .color("buttonColor", \.buttonColor, "the colour the tapped button grows in"),
            .section("timing", "holds, in seconds", [
                .number("restHold", \.timing.restHold, 0...60, "the screen before the tap"),
                .number("nextHold", \.timing.nextHold, 0...60, "the next screen before it closes"),
                .number("endHold", \.timing.endHold, 0...60, "the first screen again at the end"),
            ]),
            .animation("expand", \.expand, "the button growing (UIView.animate, ease-in)"),
            .animation("fade", \.fade, "the next screen fading in"),
            .animation("close", \.close, "the modal slide down (UIKit's system spring)"),
        ]
    }

    public static func images(_ c: ExpandingViewConfig) -> [SceneImage] {
        [SceneImage(name: "screen", path: c.assets.screen, key: "assets.screen"),
         SceneImage(name: "next", path: c.assets.next, key: "assets.next")]
    }

    /// The button a storyboard taps.
    public static func button(_ c: ExpandingViewConfig, storyboard: String) -> (key: String, rect: Rect)? {
        switch storyboard {
        case "bottom": return ("buttons.bottom", c.buttons.bottom)
        case "top-right": return ("buttons.topRight", c.buttons.topRight)
        case "left": return ("buttons.left", c.buttons.left)
        case "small": return ("buttons.small", c.buttons.small)
        default: return nil
        }
    }

    /// The scale that makes a button of frame `f` cover a `canvas`:
    /// S = (max(W, H) + max(x, W − x, y, H − y)) / min(w, h) + 2, with (x, y) the frame's origin.
    public static func coveringScale(_ f: Rect, canvas: Size) -> Double {
        let (w, h) = (canvas.width, canvas.height)
        return (max(w, h) + max(f.minX, w - f.minX, f.minY, h - f.minY)) / min(f.width, f.height) + 2
    }

    /// Rest; tap and expand (drawn above everything); the next screen fades in and the button
    /// is restored under it; hold; the next screen closes as a modal; rest.
    public static func plan(_ c: ExpandingViewConfig, sizes: ImageSizes) throws -> Plan {
        guard let (key, rect) = button(c, storyboard: c.settings.storyboard) else {
            throw SceneError.unknownStoryboard(c.settings.storyboard, scene: name, known: storyboardNames)
        }
        let canvas = c.settings.canvas
        try requireInside(rect, canvas, key: key)
        let images = ExpandingView.images(c)
        let screenScale = try Scenes.screenScale(images[0], sizes, canvas: canvas)
        let nextScale = try Scenes.screenScale(images[1], sizes, canvas: canvas)
        let full = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)

        var b = PlanBuilder(canvas: canvas)
        try b.addLayer("screen", content: .snapshot(Snapshot(image: "screen", source: full.scaled(by: screenScale), pixelsPerPoint: screenScale)),
                       initial: LayerState(frame: full))
        var nextState = LayerState(frame: full)
        nextState.alpha = 0
        nextState.zIndex = 1
        let next = try b.addLayer("next", content: .snapshot(Snapshot(image: "next", source: full.scaled(by: nextScale), pixelsPerPoint: nextScale)),
                                  initial: nextState)
        var buttonState = LayerState(frame: rect)
        buttonState.cornerRadius = min(rect.width, rect.height) / 2
        buttonState.zIndex = 2
        buttonState.isHidden = true
        let button = try b.addLayer("button", content: .color(c.buttonColor), initial: buttonState)

        b.append(.hold(c.timing.restHold))
        b.append(.set([Change(button, .hidden, .flag(false))]))
        b.append(.animate(c.expand.curve, [Change(button, .scale, .number(coveringScale(rect, canvas: canvas)))]))
        // The next screen fades in over the grown button, which then goes back under it.
        b.append(.set([Change(button, .zIndex, .number(0.5))]))
        b.append(.animate(c.fade.curve, [Change(next, .alpha, .number(1))]))
        b.append(.set([Change(button, .scale, .number(1))]))
        b.append(.hold(c.timing.nextHold))
        b.append(.animate(c.close.curve, [Change(next, .position, .point(Point(x: full.midX, y: full.midY + canvas.height)))]))
        b.append(.set([Change(button, .hidden, .flag(true))]))
        b.append(.hold(c.timing.endHold))
        return b.build()
    }
}
