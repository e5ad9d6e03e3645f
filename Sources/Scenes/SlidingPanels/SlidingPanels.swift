import Geometry
import Planner

/// Facebook Rooms' sliding panels: a snapping carousel of cards; a tapped card scales up to
/// full screen while its labels move and its image fades, the background dims and a content
/// panel springs up; the panel can be dragged down and back.
public enum SlidingPanels: SceneDefinition {
    public static let name = "sliding-panels"
    public static let summary = "Facebook Rooms: a snapping carousel; a card scales up to full screen and a panel springs up"
    public static let storyboardNames = ["promo"]
    public static var defaultConfig: SlidingPanelsConfig { SlidingPanelsConfig() }
    public static var settingsPath: WritableKeyPath<SlidingPanelsConfig, SceneSettings> { \.settings }

    public static var fields: [ConfigField<SlidingPanelsConfig>] {
        var fields = SceneSettings.fields(\SlidingPanelsConfig.settings, storyboards: { _ in storyboardNames })
        for i in 0..<3 {
            fields.append(.section("room\(i + 1)", "the \(["first", "second", "third"][i]) room's card", [
                .path("image", \.rooms[i].image, "its photograph, whole canvas, any scale (drawn aspect-fill)"),
                .path("title", \.rooms[i].title, "the title label: a transparent strip, canvas width x 44 pt"),
                .path("subtitle", \.rooms[i].subtitle, "the subtitle label: a transparent strip, canvas width x 24 pt"),
                .color("overlay", \.rooms[i].overlay, "the colour over its photograph, and its bar when presented"),
            ]))
        }
        return fields + [
            .section("assets", "the presented screen's parts", [
                .path("panel", \.assets.panel, "the white content panel, canvas width x (height - 64) pt"),
                .path("close", \.assets.close, "the close button, 44 pt square"),
            ]),
            .section("carousel", "the cards", [
                .number("cardScale", \.carousel.cardScale, 0.1...1, "cards are the detail view at this scale"),
                .number("spacing", \.carousel.spacing, 0...200, "points between cards"),
                .number("shadowRadius", \.carousel.shadowRadius, 0...50, "how far the flat shadow reaches past a card"),
                .number("shadowOpacity", \.carousel.shadowOpacity, 0...1, "the flat shadow's black"),
                .number("bar", \.carousel.bar, 0...300, "the presented screen's bar, where the panel stops"),
            ]),
            .section("swipe", "the swipe to the next card", [
                .number("distance", \.swipe.distance, 0...2000, "points the finger moves left"),
                .number("duration", \.swipe.duration, 0.01...10, "seconds it takes"),
                .number("velocity", \.swipe.velocity, -10000...10000, "leftward speed at lift, points per second"),
                .animation("snap", \.swipe.snap, "the snap to the card the deceleration projection picks"),
            ]),
            .section("timing", "holds, in seconds", [
                .number("restHold", \.timing.restHold, 0...60, "the carousel before the swipe"),
                .number("snappedHold", \.timing.snappedHold, 0...60, "on the snapped card before the tap"),
                .number("presentedHold", \.timing.presentedHold, 0...60, "the presented room before the drag"),
                .number("panelHold", \.timing.panelHold, 0...60, "after each panel drag settles"),
                .number("endHold", \.timing.endHold, 0...60, "the carousel at the end"),
            ]),
            .animation("present", \.present, "the card scaling to full screen, labels moving, image fading"),
            .animation("panel", \.panel, "the content panel springing up"),
            .section("drag", "dragging the panel: progress = (panel.y - 64)/(height - 128) drives the header", [
                .number("downTo", \.drag.downTo, 0...1, "progress reached by the drag down (over 0.5 collapses)"),
                .number("upTo", \.drag.upTo, 0...1, "progress reached by the drag back up (under 0.5 returns)"),
                .number("duration", \.drag.duration, 0.01...10, "seconds each drag takes"),
                .number("settleDuration", \.drag.settleDuration, 0.01...10, "settling takes remaining fraction x this"),
                .number("settleDamping", \.drag.settleDamping, 0.05...1, "the settling spring's damping"),
            ]),
            .animation("panelClose", \.panelClose, "the panel going down before the close"),
            .color("dim", \.dim, "the black over the carousel when a room is presented"),
        ]
    }

    public static func images(_ c: SlidingPanelsConfig) -> [SceneImage] {
        var images: [SceneImage] = []
        for (i, room) in c.rooms.enumerated() {
            images.append(SceneImage(name: "room-\(i + 1)", path: room.image, key: "room\(i + 1).image"))
            images.append(SceneImage(name: "title-\(i + 1)", path: room.title, key: "room\(i + 1).title"))
            images.append(SceneImage(name: "subtitle-\(i + 1)", path: room.subtitle, key: "room\(i + 1).subtitle"))
        }
        images.append(SceneImage(name: "panel", path: c.assets.panel, key: "assets.panel"))
        images.append(SceneImage(name: "close", path: c.assets.close, key: "assets.close"))
        return images
    }

    /// The card a swipe snaps to, from the carousel at card `from`: the deceleration projection
    /// of the released offset, rounded to a card (the target-offset rule).
    public static func snapTarget(from card: Int, _ c: SlidingPanelsConfig) -> (card: Int, offset: Double) {
        let g = geometry(c)
        let released = g.offset(card) + c.swipe.distance
        let target = ScrollPhysics.snapTarget(offset: released, velocity: c.swipe.velocity, page: g.cardWidth, spacing: c.carousel.spacing,
                                              inset: g.inset, pages: c.rooms.count)
        return (Int(((target + g.inset) / (g.cardWidth + c.carousel.spacing)).rounded()), target)
    }

    struct Geometry {
        let cardWidth: Double, cardHeight: Double, inset: Double, top: Double, stride: Double
        /// The content offset that centres card `i`.
        func offset(_ i: Int) -> Double { Double(i) * stride - inset }
    }

    static func geometry(_ c: SlidingPanelsConfig) -> Geometry {
        let canvas = c.settings.canvas
        let w = (canvas.width * c.carousel.cardScale).rounded(.down), h = (canvas.height * c.carousel.cardScale).rounded(.down)
        return Geometry(cardWidth: w, cardHeight: h, inset: (canvas.width - w) / 2, top: (canvas.height - h) / 2,
                        stride: w + c.carousel.spacing)
    }

    public static func plan(_ c: SlidingPanelsConfig, sizes: ImageSizes) throws -> Plan {
        guard storyboardNames.contains(c.settings.storyboard) else {
            throw SceneError.unknownStoryboard(c.settings.storyboard, scene: name, known: storyboardNames)
        }
        var choreography = try SlidingPanelsChoreography(c, sizes: sizes)
        try choreography.build()
        return choreography.builder.build()
    }
}
