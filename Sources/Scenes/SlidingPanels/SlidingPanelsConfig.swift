import Geometry
import Planner

/// Every tunable of the sliding-panels scene (Facebook Rooms).
public struct SlidingPanelsConfig: Sendable, Hashable {
    public var settings = SceneSettings(canvas: Size(width: 375, height: 667), storyboard: "promo")
    public var rooms = [
        Room(image: "Assets/sliding-panels/room-1.png", title: "Assets/sliding-panels/title-1.png",
             subtitle: "Assets/sliding-panels/subtitle-1.png", overlay: Color(rgb: 0x424D56, alpha: 179)),
        Room(image: "Assets/sliding-panels/room-2.png", title: "Assets/sliding-panels/title-2.png",
             subtitle: "Assets/sliding-panels/subtitle-2.png", overlay: Color(rgb: 0xAE6A31, alpha: 179)),
        Room(image: "Assets/sliding-panels/room-3.png", title: "Assets/sliding-panels/title-3.png",
             subtitle: "Assets/sliding-panels/subtitle-3.png", overlay: Color(rgb: 0xFFC876, alpha: 179)),
    ]
    public var assets = Assets()
    public var carousel = Carousel()
    public var swipe = Swipe()
    public var timing = Timing()
    /// The presented screen scaling 0.6 → 1 while its detail progress goes 1 → 0.
    public var present = AnimationSetting(duration: 0.6, damping: 0.7)
    /// The content panel springing up from the bottom to y = 64.
    public var panel = AnimationSetting(duration: 0.6, damping: 0.7)
    public var drag = Drag()
    /// The panel going down before the close.
    public var panelClose = AnimationSetting(duration: 0.3, damping: 1)
    /// The black dim over the carousel, at full strength.
    public var dim = Color(rgb: 0x000000, alpha: 102)

    public struct Room: Sendable, Hashable {
        public var image: String
        /// A transparent strip with the title, canvas width by 44 pt.
        public var title: String
        /// A transparent strip with the subtitle, canvas width by 24 pt.
        public var subtitle: String
        public var overlay: Color
    }

    public struct Assets: Sendable, Hashable {
        /// The white content panel, canvas width by (height − 64) pt.
        public var panel = "Assets/sliding-panels/panel.png"
        /// The close button, 44 pt square.
        public var close = "Assets/sliding-panels/close.png"
    }

    public struct Carousel: Sendable, Hashable {
        /// Cards are the detail view at this scale.
        public var cardScale = 0.6
        public var spacing = 10.0
        /// The flat shadow: how far it reaches past a card, and its black's opacity.
        public var shadowRadius = 2.0
        public var shadowOpacity = 0.3
        public var bar = 64.0
    }

    public struct Swipe: Sendable, Hashable {
        /// The finger moves this far left (points) …
        public var distance = 120.0
        /// … over this long …
        public var duration = 0.3
        /// … and lifts at this speed (points per second, leftward); the deceleration projection
        /// then picks the card it snaps to.
        public var velocity = 300.0
        /// The snap to the chosen card.
        public var snap = AnimationSetting(duration: 0.5, damping: 1)
    }

    public struct Timing: Sendable, Hashable {
        public var restHold = 0.8
        /// On the snapped card before the tap.
        public var snappedHold = 0.4
        public var presentedHold = 0.8
        /// After each panel drag settles.
        public var panelHold = 0.6
        public var endHold = 0.8
    }

    public struct Drag: Sendable, Hashable {
        /// How far down the first drag takes the panel, as progress (over 0.5 it collapses).
        public var downTo = 0.62
        /// How far back up the second drag takes it (under 0.5 it returns to the top).
        public var upTo = 0.3
        /// Seconds each drag takes.
        public var duration = 0.5
        /// Settling: duration = remaining fraction × this, with this damping.
        public var settleDuration = 1.4
        public var settleDamping = 0.7
    }

    public init() {}
}
