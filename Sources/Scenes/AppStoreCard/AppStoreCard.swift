import Geometry
import Planner

/// The iOS 11 App Store's Today cards: a card is pressed, then expands with two curves at once
/// while its corners square; dragging down (or from the left edge) shrinks it, and past the
/// threshold it flies back to its slot.
public enum AppStoreCard: SceneDefinition {
    public static let name = "app-store-card"
    public static let summary = "iOS 11 App Store: a card is pressed, expands on two curves at once, and is dragged back to its slot"
    public static let storyboardNames = ["promo", "first-card"]
    public static var defaultConfig: AppStoreCardConfig { AppStoreCardConfig() }
    public static var settingsPath: WritableKeyPath<AppStoreCardConfig, SceneSettings> { \.settings }

    public static var fields: [ConfigField<AppStoreCardConfig>] {
        SceneSettings.fields(\AppStoreCardConfig.settings, storyboards: { _ in storyboardNames }) + [
            .section("assets", "screenshots, PNG at any scale (relative paths: from this file's folder)", [
                .path("home", \.assets.home, "the Today screen with its cards, whole canvas"),
                .path("detail1", \.assets.detail1, "the first card's detail: the card content on top, then the body"),
                .path("detail2", \.assets.detail2, "the second card's detail"),
            ]),
            .section("layout", "geometry, in points", [
                .rect("card1", \.layout.card1, "[x, y, width, height] of the first card's slot"),
                .rect("card2", \.layout.card2, "the second card's slot"),
                .number("cornerRadius", \.layout.cornerRadius, 0...100, "a card's corners at rest"),
                .number("statusBarHeight", \.layout.statusBarHeight, 0...100, "the status bar, which slides away"),
                .color("homeBackground", \.layout.homeBackground, "drawn where a lifted card was"),
                .number("shadowMargin", \.layout.shadowMargin, 0...50, "how far a card's flat shadow reaches past it"),
            ]),
            .section("timing", "holds, in seconds", [
                .number("restHold", \.timing.restHold, 0...60, "the home screen before a press"),
                .number("pressHold", \.timing.pressHold, 0...5, "the finger down before it lifts"),
                .number("detailHold", \.timing.detailHold, 0...60, "the detail before the drag"),
                .number("endHold", \.timing.endHold, 0...60, "the home screen at the end"),
            ]),
            .animation("press", \.press, "touch down (scale 0.96) and touch up"),
            .section("present", "the card's position springs to the top while its size runs linearly", [
                .number("dampingSlope", \.present.dampingSlope, 0...1, "damping = 1 − slope·distance/height"),
                .number("dampingMin", \.present.dampingMin, 0.05...1, "the lowest damping"),
                .number("durationBase", \.present.durationBase, 0.05...5, "duration = base + perHeight·distance/height"),
                .number("durationPerHeight", \.present.durationPerHeight, 0...5, "seconds per screen height travelled"),
                .number("durationMax", \.present.durationMax, 0.05...10, "the longest duration"),
                .number("sizeFraction", \.present.sizeFraction, 0.05...1, "size and corners run over this fraction of the duration"),
            ]),
            .section("drag", "interactive dismiss: drag down at the top, or pan from the left edge", [
                .number("distance", \.drag.distance, 1...1000, "points for progress 1, where the dismissal fires"),
                .number("minimumScale", \.drag.minimumScale, 0.1...1, "the card's scale at progress 1"),
                .number("duration", \.drag.duration, 0.01...10, "seconds the finger takes to get there"),
            ]),
            .animation("dismiss", \.dismiss, "the card flying back to its slot"),
            .section("overlay", "the light wash over the home screen, in place of the blur", [
                .color("color", \.overlay.color, "the wash at full strength"),
                .number("fade", \.overlay.fade, 0.01...5, "seconds to fade in"),
            ]),
        ]
    }

    public static func images(_ c: AppStoreCardConfig) -> [SceneImage] {
        [SceneImage(name: "home", path: c.assets.home, key: "assets.home"),
         SceneImage(name: "detail-1", path: c.assets.detail1, key: "assets.detail1"),
         SceneImage(name: "detail-2", path: c.assets.detail2, key: "assets.detail2")]
    }

    /// The present's spring for a card travelling `distance` points: damping
    /// 1 − 0.3·distance/height within 0.7...1, duration 0.5 + 0.4·distance/height within 0.5...0.9.
    public static func presentSpring(distance: Double, height: Double, _ p: AppStoreCardConfig.Present) -> (damping: Double, duration: Double) {
        let f = abs(distance) / height
        let damping = min(1, max(p.dampingMin, 1 - p.dampingSlope * f))
        let duration = min(p.durationMax, max(p.durationBase, p.durationBase + p.durationPerHeight * f))
        return (damping, duration)
    }

    public static func plan(_ c: AppStoreCardConfig, sizes: ImageSizes) throws -> Plan {
        guard storyboardNames.contains(c.settings.storyboard) else {
            throw SceneError.unknownStoryboard(c.settings.storyboard, scene: name, known: storyboardNames)
        }
        var choreography = try AppStoreCardChoreography(c, sizes: sizes)
        choreography.rest()
        choreography.open(card: 0)
        choreography.dragDismiss(card: 0, edgePan: false)
        if c.settings.storyboard == "promo" {
            choreography.rest()
            choreography.open(card: 1)
            choreography.dragDismiss(card: 1, edgePan: true)
        }
        choreography.builder.append(.hold(c.timing.endHold))
        return choreography.builder.build()
    }
}
