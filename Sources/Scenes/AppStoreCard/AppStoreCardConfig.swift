import Geometry
import Planner

/// Every tunable of the app-store-card scene (the iOS 11 App Store's Today cards).
public struct AppStoreCardConfig: Sendable, Hashable {
    public var settings = SceneSettings(canvas: Size(width: 375, height: 667), storyboard: "promo")
    public var assets = Assets()
    public var layout = Layout()
    public var timing = Timing()
    /// Touch down and touch up: 0.5 s springs, damping 1.
    public var press = AnimationSetting(duration: 0.5, damping: 1)
    public var present = Present()
    public var drag = Drag()
    /// Back to the card's slot: 0.6 s, damping 0.7.
    public var dismiss = AnimationSetting(duration: 0.6, damping: 0.7)
    /// The light wash over the home screen, in place of the blur.
    public var overlay = Overlay()

    public struct Assets: Sendable, Hashable {
        public var home = "Assets/app-store-card/home.png"
        public var detail1 = "Assets/app-store-card/detail-1.png"
        public var detail2 = "Assets/app-store-card/detail-2.png"
    }

    public struct Layout: Sendable, Hashable {
        /// The cards' slots on the home screen, in points.
        public var card1 = Rect(x: 20, y: 40, width: 335, height: 402)
        public var card2 = Rect(x: 20, y: 462, width: 335, height: 402)
        public var cornerRadius = 16.0
        public var statusBarHeight = 20.0
        /// The home screen's background, drawn where a lifted card was.
        public var homeBackground = Color.white
        /// How far past a card's edge its flat shadow reaches, covered with it.
        public var shadowMargin = 8.0
    }

    public struct Timing: Sendable, Hashable {
        public var restHold = 0.8
        /// The finger on the card before it lifts.
        public var pressHold = 0.15
        public var detailHold = 1.2
        public var endHold = 0.8
    }

    public struct Present: Sendable, Hashable {
        /// Damping = 1 − slope·(distance / screen height), clamped to the range.
        public var dampingSlope = 0.3
        public var dampingMin = 0.7
        /// Duration = base + perHeight·(distance / screen height), clamped to the range.
        public var durationBase = 0.5
        public var durationPerHeight = 0.4
        public var durationMax = 0.9
        /// Size and corner radius run linearly over this fraction of the position's duration.
        public var sizeFraction = 0.6
    }

    public struct Drag: Sendable, Hashable {
        /// Points of travel for progress 1 (then the dismissal fires).
        public var distance = 100.0
        /// The card's scale at progress 1.
        public var minimumScale = 0.86
        /// Seconds the finger takes to reach progress 1.
        public var duration = 0.45
    }

    public struct Overlay: Sendable, Hashable {
        public var color = Color(rgb: 0xFFFFFF, alpha: 200)
        public var fade = 0.5
    }

    public init() {}
}
