import Geometry
import Planner

/// Inbox by Google's expanding cells: the tapped row grows into the detail while the regions
/// above and below slide away and the bar stays until pushed; pulling the detail down brings
/// the bar back, swaps the status bar's style, and dismisses past a threshold.
public enum ExpandingCells: SceneDefinition {
    public static let name = "expanding-cells"
    public static let summary = "Inbox by Google: a row grows to full screen; pull down to dismiss"

    /// The phases a storyboard may list.
    public enum Phase: String, CaseIterable, Sendable {
        case holdList = "hold-list", tap, present, holdDetail = "hold-detail", pull, bouncePull = "bounce-pull"
        case release, close, holdEnd = "hold-end", showDetail = "show-detail"
    }

    /// The built-in storyboards: the promo's, and the pull that bounces back.
    public static let storyboards: [(String, [Phase])] = [
        ("promo", [.holdList, .tap, .present, .holdDetail, .pull, .release, .holdEnd]),
        ("pull-bounce", [.showDetail, .holdDetail, .bouncePull, .release, .holdEnd]),
    ]

    public static var storyboardNames: [String] { storyboards.map(\.0) }
    public static var defaultConfig: ExpandingCellsConfig { ExpandingCellsConfig() }
    public static var settingsPath: WritableKeyPath<ExpandingCellsConfig, SceneSettings> { \.settings }

    /// The config's fields, documented; they read files and print `flipbook config`.
    public static var fields: [ConfigField<ExpandingCellsConfig>] {
        SceneSettings.fields(\ExpandingCellsConfig.settings, storyboards: { _ in storyboardNames }) + [
            .section("assets", "screenshots, PNG at any scale (relative paths: from this file's folder)", [
                .path("list", \.assets.list, "the list screen, whole canvas"),
                .path("detail", \.assets.detail, "the detail screen, whole canvas"),
                .path("statusBarLight", \.assets.statusBarLight, "status bar, light text on clear, canvas width x statusBarHeight"),
                .path("statusBarDark", \.assets.statusBarDark, "status bar, dark text on clear"),
            ]),
            .section("layout", "geometry of the list screen, in points", [
                .rect("tappedRow", \.layout.tappedRow, "[x, y, width, height] of the row that grows"),
                .number("barHeight", \.layout.barHeight, 0...400, "status bar plus navigation bar"),
                .number("statusBarHeight", \.layout.statusBarHeight, 0...100, "the status bar alone"),
                .color("barColor", \.layout.barColor, "the navigation bar's colour, behind its snapshot"),
                .color("highlight", \.layout.highlight, "over the row while it is touched"),
                .color("detailBackground", \.layout.detailBackground, "the detail screen's background, behind its status bar"),
            ]),
            .section("timing", "holds and fades, in seconds", [
                .number("listHold", \.timing.listHold, 0...60, "the list before the tap"),
                .number("tapHold", \.timing.tapHold, 0...5, "the highlighted row before it grows"),
                .number("detailHold", \.timing.detailHold, 0...60, "the detail before the pull"),
                .number("endHold", \.timing.endHold, 0...60, "the last state before the loop"),
                .number("statusBarFade", \.timing.statusBarFade, 0...5, "the status bar's style cross-fade"),
            ]),
            .animation("present", \.present, "the row growing to full screen"),
            .animation("dismiss", \.dismiss, "the detail shrinking back into its row"),
            .section("pull", "pull to dismiss", [
                .number("distance", \.pull.distance, 0...2000, "points the content is pulled down (after the rubber band)"),
                .number("duration", \.pull.duration, 0.01...10, "seconds the finger takes"),
                .number("hold", \.pull.hold, 0...10, "seconds held before lifting"),
                .number("threshold", \.pull.threshold, 0...2000, "past this pull a release dismisses and the status bar is light"),
                .animation("springBack", \.pull.springBack, "the content's way back when a release does not dismiss"),
            ]),
            .section("bounce", "the pull-bounce storyboard's pull", [
                .number("distance", \.bounce.distance, 0...2000, "points pulled, then held"),
                .number("duration", \.bounce.duration, 0.01...10, "seconds to pull"),
                .number("hold", \.bounce.hold, 0...10, "seconds held"),
                .number("returnTo", \.bounce.returnTo, 0...2000, "eases back to this pull before lifting"),
                .number("returnDuration", \.bounce.returnDuration, 0.01...10, "seconds to ease back"),
            ]),
        ]
    }

    /// The images the scene draws from.
    public static func images(_ c: ExpandingCellsConfig) -> [SceneImage] {
        [SceneImage(name: "list", path: c.assets.list, key: "assets.list"),
         SceneImage(name: "detail", path: c.assets.detail, key: "assets.detail"),
         SceneImage(name: "status-light", path: c.assets.statusBarLight, key: "assets.statusBarLight"),
         SceneImage(name: "status-dark", path: c.assets.statusBarDark, key: "assets.statusBarDark")]
    }

    /// The plan for the config's storyboard, given the images' pixel sizes.
    public static func plan(_ c: ExpandingCellsConfig, sizes: ImageSizes) throws -> Plan {
        guard let phases = storyboards.first(where: { $0.0 == c.settings.storyboard })?.1 else {
            throw SceneError.unknownStoryboard(c.settings.storyboard, scene: name, known: storyboardNames)
        }
        var choreography = try ExpandingCellsChoreography(c, sizes: sizes)
        for phase in phases { try choreography.append(phase) }
        return choreography.builder.build()
    }
}
