import Geometry
import Planner

/// Every tunable of the expanding-view scene (a Dribbble login, one of tomkowz's demos).
public struct ExpandingViewConfig: Sendable, Hashable {
    public var settings = SceneSettings(canvas: Size(width: 320, height: 568), storyboard: "bottom")
    public var assets = Assets()
    /// The round buttons' frames, in points; each storyboard taps one.
    public var buttons = Buttons()
    public var buttonColor = Color(rgb: 0xFF6534)
    public var timing = Timing()
    /// The tapped button growing until it covers the screen: 0.4 s ease-in.
    public var expand = AnimationSetting(duration: 0.4, curve: "easeIn")
    /// The next screen fading in over the grown button.
    public var fade = AnimationSetting(duration: 0.1, curve: "easeInEaseOut")
    /// The next screen's modal slide down: UIKit's system spring.
    public var close = AnimationSetting(duration: 0.5, curve: "system")

    public struct Assets: Sendable, Hashable {
        public var screen = "Assets/expanding-view/screen.png"
        public var next = "Assets/expanding-view/next.png"
    }

    public struct Buttons: Sendable, Hashable {
        public var topRight = Rect(x: 216, y: 109, width: 50, height: 50)
        public var left = Rect(x: 18, y: 259, width: 50, height: 50)
        public var bottom = Rect(x: 135, y: 478, width: 50, height: 50)
        public var small = Rect(x: 145, y: 377, width: 30, height: 30)
    }

    public struct Timing: Sendable, Hashable {
        /// The screen before the tap.
        public var restHold = 0.7
        /// The next screen before it closes.
        public var nextHold = 1.0
        /// The first screen again at the end.
        public var endHold = 0.6
    }

    public init() {}
}
