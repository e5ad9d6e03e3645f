import Geometry
import Planner

/// Every tunable of the expanding-cells scene (Inbox by Google).
public struct ExpandingCellsConfig: Sendable, Hashable {
    public var settings = SceneSettings(canvas: Size(width: 375, height: 667), storyboard: "promo")
    public var assets = Assets()
    public var layout = Layout()
    public var timing = Timing()
    /// The row growing to full screen: UIKit's 0.6 s spring, damping 1.
    public var present = AnimationSetting(duration: 0.6, damping: 1)
    /// The detail shrinking back into its row.
    public var dismiss = AnimationSetting(duration: 0.6, damping: 1)
    public var pull = Pull()
    public var bounce = Bounce()

    public struct Assets: Sendable, Hashable {
        public var list = "Assets/expanding-cells/list.png"
        public var detail = "Assets/expanding-cells/detail.png"
        public var statusBarLight = "Assets/expanding-cells/statusbar-light.png"
        public var statusBarDark = "Assets/expanding-cells/statusbar-dark.png"
    }

    public struct Layout: Sendable, Hashable {
        /// The tapped row on the list screen, in points.
        public var tappedRow = Rect(x: 0, y: 169, width: 375, height: 70)
        /// Status bar plus navigation bar.
        public var barHeight = 64.0
        public var statusBarHeight = 20.0
        public var barColor = Color(rgb: 0x3067F4)
        /// Drawn over the row while the finger is down.
        public var highlight = Color(rgb: 0x000000, alpha: 20)
        /// The detail screen's own background, behind its status bar strip.
        public var detailBackground = Color.white
    }

    public struct Timing: Sendable, Hashable {
        public var listHold = 1.0
        /// How long the row shows its highlight before it grows.
        public var tapHold = 0.09
        public var detailHold = 1.16
        public var endHold = 1.5
        /// The status bar's style cross-fade.
        public var statusBarFade = 0.3
    }

    public struct Pull: Sendable, Hashable {
        /// How far the content is pulled down, in points (after the rubber band).
        public var distance = 115.0
        public var duration = 0.5
        /// Held at full pull before the finger lifts.
        public var hold = 0.0
        /// Past this pull (points) a release dismisses, and the status bar turns light.
        public var threshold = 32.0
        /// The content's way back when a release does not dismiss.
        public var springBack = AnimationSetting(duration: 0.5, damping: 1)
    }

    public struct Bounce: Sendable, Hashable {
        /// The bounce-back storyboard pulls this far and holds.
        public var distance = 91.0
        public var duration = 0.6
        public var hold = 0.9
        /// Then eases back to this pull (under the threshold) before lifting, so the release
        /// springs back rather than dismissing.
        public var returnTo = 16.0
        public var returnDuration = 0.3
    }

    public init() {}
}
