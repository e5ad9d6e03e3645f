/// How one screen gives way to the next in a recording: UIKit's stock moves, each written as a
/// scene file writes it (a `set` that places the layers, an `animate`, a `set` that tidies up),
/// so that a made scene reads as a person would write it.
public enum ScreenChange: String, Sendable, CaseIterable {
    /// The next screen slides in from the right over the first, which shifts left (a push).
    case push
    /// The first screen slides out to the right, uncovering the next, which shifts in (a pop).
    case pop
    /// The next screen slides up from the bottom over the first (a modal presentation).
    case present
    /// The first screen slides down, uncovering the next (a modal dismissal).
    case dismiss
    /// The next screen grows out of a rounded rectangle of the first (a card that opens).
    case grow
    /// The first screen shrinks into a rounded rectangle of the next (a card that closes); led by a
    /// finger, it shrinks about its middle as the finger drags it, then flies into the rectangle
    /// (App Store's Today card).
    case shrink
    /// A circle of one colour grows out of a rectangle of the first screen until it covers it,
    /// and the next screen fades in over it (a button that opens its screen).
    case reveal
    /// A row of the first screen opens into the next, the rows above it riding up and those
    /// below riding down out of the way (a list's row that opens in place).
    case expand
    /// The first screen closes into a row of the next, whose rows above and below ride back in
    /// around it (the same row closing).
    case collapse
    /// A band of the first screen scrolls by a page, the next page following it in from the
    /// side it leaves by (a carousel, a paging scroll view).
    case scroll
    /// The next screen fades in over the first (a cross-dissolve).
    case fade
    /// A panel of the next screen slides up from the bottom, or from lower down where the first
    /// shows it, to where it stops, over the first, which dims above it (a sheet at a detent, a
    /// drawer opened from its peek).
    case panelUp
    /// A panel of the first screen slides down out of the screen, or to lower down where the
    /// next shows it, uncovering the next, over which the first's dimming lifts (the same sheet
    /// dismissed, a drawer closed to its peek).
    case panelDown
    /// A rectangle of the first screen shrinks about its middle to the size the next shows it
    /// at (a card or a button held down).
    case press
    /// A rectangle of the next screen grows back about its middle from the size the first shows
    /// it at (the same card or button let go).
    case release
    /// The next screen replaces the first between two frames (a highlight, a tab switch).
    case cut

    /// The moves a recording's motion is fitted with; a change within a frame is a cut.
    static let moving: [ScreenChange] = [
        .push, .pop, .present, .dismiss, .grow, .shrink, .reveal, .expand, .collapse, .scroll, .fade, .panelUp,
        .panelDown, .press, .release,
    ]

    /// What it is, for the made scene's comments and the report.
    public var doc: String {
        switch self {
        case .push: "the next screen slides in from the right over the first, which shifts left"
        case .pop: "the screen slides out to the right, uncovering the next, which shifts back in"
        case .present: "the next screen slides up from the bottom"
        case .dismiss: "the screen slides down, uncovering the next"
        case .grow: "the next screen grows out of a rounded rectangle of the first"
        case .shrink: "the screen shrinks into a rounded rectangle of the next"
        case .reveal: "a circle grows out of the first screen until it covers it, and the next screen fades in over it"
        case .expand: "a row of the screen opens into the next, the rows above and below riding away"
        case .collapse: "the screen closes into a row of the next, whose rows above and below ride back"
        case .scroll: "a band of the screen scrolls by a page, the next page following it in"
        case .fade: "the next screen fades in"
        case .panelUp: "a panel of the next screen slides up to where it stops, the screen above it dimming"
        case .panelDown: "a panel of the screen slides down, uncovering the next"
        case .press: "a rectangle of the screen shrinks about its middle, held down"
        case .release: "a rectangle of the screen grows back about its middle, let go"
        case .cut: "the next screen replaces the first at once"
        }
    }

    /// A number param a move reads besides its animation, fitted with it: the name's suffix
    /// after the move's (`pushParallax`), its start, range and doc.
    public struct Number: Sendable, Hashable {
        public let suffix: String
        let start: Double
        let range: ClosedRange<Double>
        let doc: String

        /// How far the screen underneath shifts, as a fraction of the width.
        public static let parallax = Number(
            suffix: "Parallax", start: 0.3, range: 0...1,
            doc: "how far the screen underneath shifts, as a fraction of the width")
        /// The black over the screen underneath at its darkest (UIKit dims what a push or a sheet covers).
        public static let dim = Number(
            suffix: "Dim", start: 0.1, range: 0...0.6,
            doc: "the black over the screen underneath, at its darkest (0 to 1)")
        /// The scale a rectangle held down shows at (`press`, `release`), of its size let go.
        public static let scale = Number(
            suffix: "Scale", start: 0.95, range: 0.5...1.5, doc: "the rectangle's scale held down, of its size let go")
        /// The corner radius of the rectangle a screen grows out of or shrinks into.
        public static let corner = Number(
            suffix: "Corner", start: 12, range: 0...60, doc: "the corner radius of the small rectangle, in points")
    }

    /// The numbers it reads, in the order a made scene declares them.
    var numbers: [Number] {
        switch self {
        case .push, .pop: [.parallax, .dim]
        case .present, .dismiss, .panelUp, .panelDown: [.dim]
        case .grow, .shrink: [.corner, .dim]
        case .press, .release: [.scale]
        case .reveal, .expand, .collapse, .scroll, .fade, .cut: []
        }
    }

    /// Whether it starts or ends as a rectangle of the other screen: four numbers (`rect`), found
    /// where the recording's first or last moving frames change.
    var hasRect: Bool {
        [.grow, .shrink, .reveal, .expand, .collapse, .scroll, .panelUp, .panelDown, .press, .release].contains(self)
    }

    /// Whether its rectangle is where it ends (a screen shrinks or closes into it), not where it
    /// starts.
    var endsInRect: Bool { self == .shrink || self == .collapse }

    /// Whether its rectangle is fitted with the rest: a card's is; a circle's start is the
    /// button's patch, found exactly, a row is where the screen parts (`ScreenParting`), and a
    /// scrolling band and a rectangle held down are where the two screens differ, and a panel
    /// is where one screen stops being the other dimmed (`PanelTop`).
    var fitsRect: Bool { self == .grow || self == .shrink }

    /// Whether a status bar that no frame of it moves is drawn over it, on top (`StatusBar`):
    /// where a screen slides, grows or shrinks, or a circle grows, under the bar. A parted
    /// screen has a bar of its own; a band's scroll and a fade move nothing there.
    var keepsStatusBar: Bool { [.push, .pop, .present, .dismiss, .grow, .shrink, .reveal].contains(self) }

    /// The screen that slides whole over the other, and along which axis: the next one (a push,
    /// a presentation) or the first (a pop, a dismissal); nil for a move that slides no whole
    /// screen.
    var slide: (next: Bool, axis: RecordingFeature.Axis)? {
        switch self {
        case .push: (true, .x)
        case .pop: (false, .x)
        case .present: (true, .y)
        case .dismiss: (false, .y)
        case .grow, .shrink, .reveal, .expand, .collapse, .scroll, .fade, .panelUp, .panelDown, .press, .release,
            .cut:
            nil
        }
    }

    /// What of the screens moves whole along one axis, which a made scene's check places
    /// against the recording (`SlideOffset`): the screen a slide moves, a scrolling band's
    /// pages, a sliding panel. Nil for a move that reshapes what it moves, or moves parts each
    /// its own way.
    var movesWhole: String? {
        if slide != nil { return "the sliding screen" }
        if slidesPanel { return "the sliding panel" }
        return self == .scroll ? "the scrolling band" : nil
    }

    /// Whether it slides a panel of one screen over the other (its own layer: `PanelLayers`).
    var slidesPanel: Bool { self == .panelUp || self == .panelDown }

    /// Whether its rectangle's size may run on a curve of its own beside its place's
    /// (`MadeChange.size`): a card's that opens, which UIKit code often animates in two blocks
    /// (App Store's Today card); one that closes flies back whole.
    var resizesApart: Bool { self == .grow }

    /// Whether it scales a rectangle of one screen over the other (its own layer: `PressLayers`).
    var holdsDown: Bool { self == .press || self == .release }

    /// Whether the frames place what it moves, which times its curve (`slidePlaces`): a screen
    /// it slides whole, a rectangle it scales.
    var isTracked: Bool { slide != nil || holdsDown }

    /// Whether it parts a screen at a row, above and below (its own layers: `PartingLayers`).
    var parts: Bool { self == .expand || self == .collapse }

    /// Whether the next screen fades in after it, by an animation of its own (`fade`).
    var fadesIn: Bool { self == .reveal }

    /// The scale a card dragged closed shrinks to about its middle at the finger's whole way (the
    /// screen's height): the finger's part, as far as it goes (`Progress`), sets the scale held.
    static let draggedScale = 0.5

    /// The rectangle's numbers, by suffix: x, y, width and height in points.
    static let rect = ["X", "Y", "Width", "Height"]

    /// How far a scrolling band's page moves, by suffix: x and y in points (found where the next
    /// screen's band is the first's moved, not fitted).
    static let shift = ["ShiftX", "ShiftY"]

    /// Whether a finger can lead it: UIKit's interactive ones, the edge swipe's pop, a sheet
    /// pulled down, a card dragged closed, a page swiped and a panel dragged up or down.
    var followsFinger: Bool { [.pop, .dismiss, .shrink, .scroll, .panelUp, .panelDown].contains(self) }

    /// Whether a finger can let it go short, so that it goes back and the first screen stays (a
    /// swipe back cancelled, a sheet or a card pulled and let go, a band or a panel pulled and
    /// let go).
    var canGoBack: Bool { [.pop, .dismiss, .shrink, .scroll, .panelDown].contains(self) }

    /// The moves pulled over a picture of their own, their farthest frame: a band shows a page
    /// there, a panel what is under it.
    static let pulledOver: [ScreenChange] = [.scroll, .panelDown]

    /// The moves a change that comes back to the screen it left is fitted with, over another
    /// screen the recording shows: those that uncover a screen whole.
    static let returning = moving.filter { $0.canGoBack && !pulledOver.contains($0) }

    /// The moves a change that comes back is fitted with: a band's scroll or a panel's slide
    /// where it is pulled over its own farthest frame, else those over another screen.
    static func goingBack(pulled: Bool) -> [ScreenChange] { pulled ? pulledOver : returning }

    /// The way a finger leading it moves: across for a pop or a page, down for a sheet, a card or
    /// a panel going down, up for a panel going up.
    var fingerAxis: String { [.dismiss, .shrink, .panelUp, .panelDown].contains(self) ? "y" : "x" }

    /// The storyboard steps, as YAML flow items, that move layer `a` away for layer `b`:
    /// `animation` and `params` (by `Number.suffix`, `Rect`, and `Size`: a card's size on an
    /// animation of its own, `MadeChange.size`) name the params it reads, `drag` a
    /// finger's part first (its seconds, and its `progress`), `path` the finger's own path through
    /// it (`MadeChange.fingerPath`; without one it moves as `finger` does), `animates` what the
    /// move's `animate` step runs where not the animation param itself, `reveal` the circle's layer
    /// and the fade's animation, `z` is the top's new z; `returns`: let go short (`canGoBack`, with
    /// a finger's part), it goes back and `a` stays. A parted screen's and a scrolling band's
    /// layers and a sliding panel's are named after `animation` (`PartingLayers`, `ScrollLayers`,
    /// `PanelLayers`).
    func steps(
        from a: String, to b: String, animation: String, params: [String: String],
        drag: (duration: String, progress: String)?, path: [(time: Double, progress: Double)]? = nil,
        finger: FingerMotion = .drag, animates: String? = nil,
        reveal: (circle: String, fade: String)? = nil, z: Int, returns: Bool = false
    ) -> [String] {
        let curve = animates ?? animation
        let s = params[Number.parallax.suffix] ?? "0"
        let dim = params[Number.dim.suffix]
        let corner = params[Number.corner.suffix] ?? "0"
        let (x, y, w, h) = (params["X"] ?? "0", params["Y"] ?? "0", params["Width"] ?? "0", params["Height"] ?? "0")
        let rect = "\"rect(\(x), \(y), \(w), \(h))\""
        let full = "\"rect(0, 0, canvas.width, canvas.height)\""
        /// The dimming's alpha at progress `q`, for a move that covers (true) or uncovers.
        func dimming(_ q: String, covers: Bool) -> String {
            guard let dim else { return "" }
            if q == "1" { return ", dimming.alpha: \(covers ? dim : "0")" }
            return ", dimming.alpha: \"\(dim) * \(covers ? q : "(1 - \(q))")\""
        }
        /// The frame `f` of the way from the rectangle to the whole screen.
        func between(_ f: String) -> String {
            "\"rect(\(x) * (1 - \(f)), \(y) * (1 - \(f)), \(w) + (canvas.width - \(w)) * \(f), \(h) + (canvas.height - \(h)) * \(f))\""
        }
        /// A card that grows with its size (its corners, a dimming) on the animation `size`, its
        /// place on the move's own: the two side by side.
        func apart(_ size: String?) -> String? {
            guard let size, resizesApart else { return nil }
            let shape = "\(b).size: [canvas.width, canvas.height], \(b).cornerRadius: 0" + dimming("1", covers: true)
            return "parallel: [{animate: \(curve), \(b).center: screen.center}, {animate: \(size), \(shape)}]"
        }
        let layers = PartingLayers(base: animation)
        /// A parted screen's layers with its row `f` of the way open ("0" closed, "1" open).
        func parted(open f: String) -> String {
            let rest = "canvas.height - \(y) - \(h)"
            let (above, below, opening, row, screen): (String, String, String, String, String)
            switch f {
            case "0": (above, below, opening, row, screen) = ("0", "\(y) + \(h)", rect, "1", "0")
            case "1": (above, below, opening, row, screen) = ("-\(y)", "canvas.height", full, "0", "1")
            default:
                (above, below, opening) = ("-\(y) * \(f)", "\(y) + \(h) + (\(rest)) * \(f)", between(f))
                (row, screen) = ("\"1 - \(f)\"", "\"\(f)\"")
            }
            // A bar at the top slides up into the top edge as the row opens; where the screen it
            // opens into was pulled down under it, to the pull's gap.
            let pull = params["Pull"]
            let bar = (params["Bar"] ?? pull.map { _ in "0" }).map { bar in
                let open = pull.map { "\(bar) * (1 - \(f)) + \($0) * \(f)" } ?? "\(bar) * (1 - \(f))"
                let height = f == "0" ? bar : f == "1" ? pull ?? "0" : open
                return ", \(layers.bar).frame: \"rect(0, 0, canvas.width, \(height))\""
            }
            return
                "\(layers.opening).frame: \(opening), \(layers.above).frame: \"rect(0, \(above), canvas.width, \(y))\", "
                + "\(layers.below).frame: \"rect(0, \(below), canvas.width, \(rest))\", "
                + "\(layers.row).alpha: \(row), \(layers.screen).alpha: \(screen)" + (bar ?? "")
        }
        /// The layers' places at progress `q` (an expression; "1" is the end, "0" the start of a
        /// move that goes back and of a band's scroll).
        func pose(_ q: String) -> String {
            let end = q == "1"
            if q == "0" {
                // What it uncovers is at its darkest there.
                let darkest = dim.map { ", dimming.alpha: \($0)" } ?? ""
                switch self {
                case .pop:
                    return
                        "\(a).center: screen.center, \(b).center: \"point(screen.midX - canvas.width * \(s), screen.midY)\""
                        + darkest
                case .dismiss: return "\(a).center: screen.center" + darkest
                case .shrink: return "\(a).frame: \(full), \(a).cornerRadius: 0" + darkest
                case .scroll:
                    let band = ScrollLayers(base: animation)
                    let (sx, sy) = (params["ShiftX"] ?? "0", params["ShiftY"] ?? "0")
                    return
                        "\(band.from).frame: \"rect(0, 0, \(w), \(h))\", \(band.to).frame: \"rect(\(sx), \(sy), \(w), \(h))\""
                default: break
                }
            }
            switch self {
            case .push:
                let incoming = end ? "screen.center" : "\"point(canvas.width * (1.5 - \(q)), screen.midY)\""
                let outgoing = "\"point(screen.midX - canvas.width * \(s)\(end ? "" : " * \(q)"), screen.midY)\""
                return "\(b).center: \(incoming), \(a).center: \(outgoing)" + dimming(q, covers: true)
            case .pop:
                let outgoing = "\"point(screen.midX + canvas.width * \(end ? "1" : q), screen.midY)\""
                let incoming =
                    end ? "screen.center" : "\"point(screen.midX - canvas.width * \(s) * (1 - \(q)), screen.midY)\""
                return "\(a).center: \(outgoing), \(b).center: \(incoming)" + dimming(q, covers: false)
            case .present:
                return "\(b).center: "
                    + (end ? "screen.center" : "\"point(screen.midX, canvas.height * (1.5 - \(q)))\"")
                    + dimming(q, covers: true)
            case .dismiss:
                return "\(a).center: \"point(screen.midX, screen.midY + canvas.height * \(end ? "1" : q))\""
                    + dimming(q, covers: false)
            case .grow:
                return
                    "\(b).frame: \(end ? full : between(q)), \(b).cornerRadius: \(end ? "0" : "\"\(corner) * (1 - \(q))\"")"
                    + dimming(q, covers: true)
            case .shrink:
                return
                    "\(a).frame: \(end ? rect : between("(1 - \(q))")), \(a).cornerRadius: \(end ? corner : "\"\(corner) * \(q)\"")"
                    + dimming(q, covers: false)
            case .reveal:
                // The scale that covers the screen from the circle's place, as expanding-view's.
                let covering =
                    "(max(canvas.width, canvas.height) + max(\(x), canvas.width - \(x), \(y), canvas.height - \(y))) / min(\(w), \(h)) + 2"
                return "\(reveal?.circle ?? a).scale: \(end ? "\"\(covering)\"" : "\"1 + (\(covering) - 1) * \(q)\"")"
            case .expand: return parted(open: q)
            case .collapse: return parted(open: end ? "0" : "(1 - \(q))")
            case .scroll:
                let band = ScrollLayers(base: animation)
                let (sx, sy) = (params["ShiftX"] ?? "0", params["ShiftY"] ?? "0")
                if end {
                    return
                        "\(band.from).frame: \"rect(-\(sx), -\(sy), \(w), \(h))\", \(band.to).frame: \"rect(0, 0, \(w), \(h))\""
                }
                return "\(band.from).frame: \"rect(-\(sx) * \(q), -\(sy) * \(q), \(w), \(h))\", "
                    + "\(band.to).frame: \"rect(\(sx) * (1 - \(q)), \(sy) * (1 - \(q)), \(w), \(h))\""
            case .fade: return "\(b).alpha: \(end ? "1" : q)"
            case .press, .release:
                // Down from its size let go to `Scale` of it, or back up.
                let held = params[Number.scale.suffix] ?? "1"
                let card = PressLayers(base: animation).card
                if end { return "\(card).scale: \(self == .press ? held : "1")" }
                return "\(card).scale: \""
                    + (self == .press ? "1 + (\(held) - 1) * \(q)" : "\(held) + (1 - \(held)) * \(q)")
                    + "\""
            case .panelUp, .panelDown:
                // The panel's top, from the screen's bottom (or where the other screen shows it) to
                // its own place (up), or back (down).
                let panel = PanelLayers(base: animation).panel
                let travel = params["Travel"] ?? "(canvas.height - \(y))"
                let top =
                    self == .panelUp
                    ? (end ? y : "\(y) + \(travel) * (1 - \(q))")
                    : (end ? params["Travel"].map { "\(y) + \($0)" } ?? "canvas.height" : "\(y) + \(travel) * \(q)")
                return "\(panel).frame: \"rect(\(x), \(top), \(w), \(h))\""
                    + dimming(q, covers: self == .panelUp)
            case .cut: return ""
            }
        }
        let before: String
        let after: String
        switch self {
        case .push:
            before = "\(b).hidden: false, \(b).z: \(z), \(b).center: \"point(canvas.width * 1.5, screen.midY)\""
            after = "\(a).hidden: true, \(a).center: screen.center"
        case .pop:
            before =
                "\(b).hidden: false, \(a).z: \(z), \(b).center: \"point(screen.midX - canvas.width * \(s), screen.midY)\""
            after = "\(a).hidden: true, \(a).center: screen.center"
        case .present:
            before = "\(b).hidden: false, \(b).z: \(z), \(b).center: \"point(screen.midX, canvas.height * 1.5)\""
            after = "\(a).hidden: true"
        case .dismiss:
            before = "\(b).hidden: false, \(a).z: \(z)"
            after = "\(a).hidden: true, \(a).center: screen.center"
        case .grow:
            before = "\(b).hidden: false, \(b).z: \(z), \(b).frame: \(rect), \(b).cornerRadius: \(corner)"
            after = "\(a).hidden: true"
        case .shrink:
            before = "\(b).hidden: false, \(a).z: \(z)"
            after = "\(a).hidden: true, \(a).frame: \(full), \(a).cornerRadius: 0"
        case .reveal:
            let circle = reveal?.circle ?? a
            // The circle grows above the first screen, then the next fades in above the circle.
            let fade = reveal.map { "{animate: \($0.fade), \(b).alpha: 1}" } ?? "set: {\(b).alpha: 1}"
            return [
                "set: {\(circle).hidden: false, \(circle).z: \(Double(z) - 0.5), \(circle).frame: \(rect), \(circle).cornerRadius: \"min(\(w), \(h)) / 2\", \(circle).scale: 1}",
                "{animate: \(curve), \(pose("1"))}",
                "set: {\(b).hidden: false, \(b).z: \(z), \(b).alpha: 0}", fade,
                "set: {\(a).hidden: true, \(circle).hidden: true, \(circle).scale: 1}",
            ]
        case .expand, .collapse:
            // The parts cover the screen throughout: the first is hidden under them at once.
            let hasBar = params["Bar"] != nil || params["Pull"] != nil
            let parts = [layers.opening, layers.above, layers.below] + (hasBar ? [layers.bar] : [])
            let shown = parts.map { "\($0).hidden: false, \($0).z: \(z)" }
            before =
                shown.joined(separator: ", ") + ", " + parted(open: self == .expand ? "0" : "1") + ", \(a).hidden: true"
            after =
                "\(b).hidden: false, \(b).z: \(z), "
                + parts.map { "\($0).hidden: true" }.joined(separator: ", ")
        case .scroll:
            // Outside its band the two screens are the same: the first stays under it.
            let band = ScrollLayers(base: animation)
            before = "\(band.band).hidden: false, \(band.band).z: \(z), " + pose("0")
            after = "\(b).hidden: false, \(b).z: \(z), \(a).hidden: true, \(band.band).hidden: true"
        case .fade:
            before = "\(b).hidden: false, \(b).z: \(z), \(b).alpha: 0"
            after = "\(a).hidden: true"
        case .panelUp:
            let panel = PanelLayers(base: animation).panel
            // From below the screen, or from where the first screen shows it lower down.
            let start = params["Travel"].map { "\(y) + \($0)" } ?? "canvas.height"
            before = "\(panel).hidden: false, \(panel).z: \(z), \(panel).frame: \"rect(\(x), \(start), \(w), \(h))\""
            after = "\(b).hidden: false, \(b).z: \(z), \(a).hidden: true, \(panel).hidden: true"
        case .panelDown:
            // Above the panel, the first screen is the next dimmed: the next, under the dimming.
            let panel = PanelLayers(base: animation).panel
            before =
                "\(b).hidden: false, \(panel).hidden: false, \(panel).z: \(z), \(panel).frame: \"rect(\(x), \(y), \(w), \(h))\", \(a).hidden: true"
            after = "\(panel).hidden: true"
        case .press:
            // The next screen shows the rectangle held down, and around it what its size let go
            // covered: the first's rectangle shrinks over it.
            let card = PressLayers(base: animation).card
            before =
                "\(b).hidden: false, \(b).z: \(z), \(card).hidden: false, \(card).z: \(Double(z) + 0.5), \(card).scale: 1, \(a).hidden: true"
            // Hidden where it ends: a fit that follows its place reads it there after.
            after = "\(card).hidden: true"
        case .release:
            let card = PressLayers(base: animation).card
            // Declared at its scale held down (`PressLayers.declaration`).
            before = "\(card).hidden: false, \(card).z: \(z)"
            after = "\(b).hidden: false, \(b).z: \(z), \(a).hidden: true, \(card).hidden: true"
        case .cut:
            return ["set: {\(b).hidden: false, \(b).z: \(z), \(a).hidden: true}"]
        }
        let covers = self == .push || self == .present || self == .grow || self == .panelUp
        let dimmed = dim.map { ", dimming.z: \(Double(z) - 0.5), dimming.alpha: \(covers ? "0" : $0)" } ?? ""
        let undimmed = dim == nil ? "" : ", dimming.alpha: 0"
        // A finger moves the screen with it, from the refresh it first reads it (a `drag` step);
        // an animation would show already two refreshes in.
        let finger = drag.map { drag -> String in
            let (axis, span) = fingerAxis == "x" ? ("x", "canvas.width") : ("y", "canvas.height")
            // A panel dragged up: the finger goes up, its distance negative.
            let sign = self == .panelUp ? "-" : ""
            func by(_ share: String) -> String {
                let along = "\(sign)\(span) * \(drag.progress)" + share
                return axis == "x" ? "point(\(along), 0)" : "point(0, \(along))"
            }
            // Along a path, straight between its points: each step a share of the part's
            // seconds and of how far it goes, so that both params still stretch it whole.
            let moves =
                path.map { points in
                    zip([(time: 0.0, progress: 0.0)] + points, points).map { a, b in
                        let (over, along) = (b.time - a.time, b.progress - a.progress)
                        return
                            "{by: \"\(by(" * \(MadeSceneText.number(along))"))\", over: \"\(drag.duration) * \(MadeSceneText.number(over))\", easing: linear}"
                    }
                } ?? ["{by: \"\(by(""))\", over: \(drag.duration), easing: \(finger.easing)}"]
            // A card dragged closed shrinks about its middle with the finger, to `draggedScale` at
            // the finger's whole way; the curve then flies it into its rectangle.
            let led = self == .shrink ? "\(a).scale: \(Self.draggedScale), \(a).cornerRadius: \(corner)" : pose("1")
            return
                "{drag: {from: screen.center, moves: [\(moves.joined(separator: ", "))], axis: \(axis), distance: \(sign)\(span)}, \(led)}"
        }
        // Where a finger shrank a card about its middle, the curve takes it back to its whole size.
        let unscaled = self == .shrink && drag != nil ? ", \(a).scale: 1" : ""
        if returns, canGoBack, let finger {
            // Back where it started: what it uncovered is hidden again, where it was.
            let uncovered: String
            switch self {
            case .scroll: uncovered = "\(ScrollLayers(base: animation).band).hidden: true"
            case .panelDown:
                // The first screen again, in place of its panel over the farthest frame.
                uncovered =
                    "\(b).hidden: true, \(a).hidden: false, \(PanelLayers(base: animation).panel).hidden: true"
            default: uncovered = "\(b).hidden: true" + (self == .pop ? ", \(b).center: screen.center" : "")
            }
            return [
                "set: {\(before)\(dimmed)}", finger, "{animate: \(curve), \(pose("0"))\(unscaled)}",
                "set: {\(uncovered)\(undimmed)}",
            ]
        }
        return ["set: {\(before)\(dimmed)}"] + (finger.map { [$0] } ?? [])
            + [apart(params["Size"]) ?? "{animate: \(curve), \(pose("1"))\(unscaled)}", "set: {\(after)\(undimmed)}"]
    }
}

/// The layers a parted screen is drawn with (`ScreenChange.parts`): the rows above and below its
/// row, a bar at the top that stays where the screen has one, and the opening between them, on the row's colour, which clips the screen it opens into
/// (or closes from) and, over that, the row's own picture: the two cross-fade as it opens.
struct PartingLayers {
    let opening: String
    let above: String
    let below: String
    let row: String
    let screen: String
    let bar: String

    /// Named after the move's animation (`expand-above`).
    init(base: String) {
        (opening, above, below, row, screen, bar) = (
            base + "-opening", base + "-above", base + "-below", base + "-row", base + "-screen", base + "-bar"
        )
    }

    /// The layers as a made scene declares them, hidden: the parts and row cut from `list` (the
    /// asset with the row), the screen `inside`, the rectangle's and the row's colour's params
    /// named by `params`; the bar cut from `list`, or from the screen `pulled` down under it
    /// (its gap, `Pull`, tall) where the row closes from one, under a status bar that stays
    /// (`StatusBar`), which the screen inside shows none of.
    func declarations(list: String, inside: String, params: [String: String], pulled: String? = nil) -> [String] {
        let (x, y, w, h) = (params["X"]!, params["Y"]!, params["Width"]!, params["Height"]!)
        let above = "\"rect(0, 0, canvas.width, \(y))\""
        let below = "\"rect(0, \(y) + \(h), canvas.width, canvas.height - \(y) - \(h))\""
        // The screen inside, below a status bar that stays where there is one.
        let inner: String
        if let bar = params["StatusBar"] {
            let under = "\"rect(0, \(bar), canvas.width, canvas.height - \(bar))\""
            inner = "    \(screen): {image: \(inside), source: \(under), frame: \(under)}"
        } else {
            inner = "    \(screen): {image: \(inside), frame: \"rect(0, 0, canvas.width, canvas.height)\"}"
        }
        var lines: [String] = [
            "\(self.above): {image: \(list), source: \(above), frame: \(above), hidden: true}",
            "\(self.below): {image: \(list), source: \(below), frame: \(below), hidden: true}",
            "\(opening):",
            "  frame: \"rect(\(x), \(y), \(w), \(h))\"",
            "  clip: true",
            "  hidden: true",
            "  background: \(params["Color"]!)",
            "  children:",
            inner,
            "    \(row): {image: \(list), source: \"rect(\(x), \(y), \(w), \(h))\", frame: \"rect(0, 0, \(w), \(h))\"}",
        ]
        let barImage: (image: String, height: String)?
        if let pulled, let height = params["Pull"] {
            barImage = (pulled, height)
        } else {
            barImage = params["Bar"].map { (list, $0) }
        }
        if let (image, height) = barImage {
            // Drawn from its bottom, so that it slides up as it gets shorter.
            let strip = "\"rect(0, 0, canvas.width, \(height))\""
            lines.append(
                "\(self.bar): {image: \(image), source: \(strip), frame: \(strip), mode: bottom, clip: true, hidden: true}"
            )
        }
        return lines
    }
}

/// The layers a scrolling band is drawn with (`ScreenChange.scroll`): the band, which clips the
/// first screen's page and the next's beside it.
struct ScrollLayers {
    let band: String
    let from: String
    let to: String

    /// Named after the move's animation (`scroll-band`).
    init(base: String) { (band, from, to) = (base + "-band", base + "-from", base + "-to") }

    /// The layers as a made scene declares them, hidden: the band of `first` and of `next`, its
    /// rectangle's and shift's params named by `params`.
    func declarations(first: String, next: String, params: [String: String]) -> [String] {
        let (x, y, w, h) = (params["X"]!, params["Y"]!, params["Width"]!, params["Height"]!)
        let source = "\"rect(\(x), \(y), \(w), \(h))\""
        return [
            "\(band):",
            "  frame: \(source)",
            "  clip: true",
            "  hidden: true",
            "  children:",
            "    \(from): {image: \(first), source: \(source), frame: \"rect(0, 0, \(w), \(h))\"}",
            "    \(to): {image: \(next), source: \(source), frame: \"rect(\(params["ShiftX"]!), \(params["ShiftY"]!), \(w), \(h))\"}",
        ]
    }
}

/// The layer a rectangle held down is drawn with (`ScreenChange.holdsDown`): the rectangle cut
/// from the screen that shows it let go, which scales about its middle over the other.
struct PressLayers {
    let card: String

    /// Named after the move's animation (`press-card`).
    init(base: String) { card = base + "-card" }

    /// The layer as a made scene declares it, hidden: the rectangle of `screen`, its params named
    /// by `params`; `held`, at its scale held down (where it is let go from), as it is before
    /// its move as well as at its start.
    func declaration(screen: String, params: [String: String], held: Bool) -> String {
        let rect = "\"rect(\(params["X"]!), \(params["Y"]!), \(params["Width"]!), \(params["Height"]!))\""
        let scale = held ? ", scale: \(params[ScreenChange.Number.scale.suffix]!)" : ""
        return "\(card): {image: \(screen), source: \(rect), frame: \(rect)\(scale), hidden: true}"
    }
}

/// The layer a sliding panel is drawn with (`ScreenChange.slidesPanel`): the panel's rows of the
/// screen that has it, which slide over the rest.
struct PanelLayers {
    let panel: String

    /// Named after the move's animation (`panelUp-panel`).
    init(base: String) { panel = base + "-panel" }

    /// The layer as a made scene declares it, hidden: the panel's rows of `screen`, its
    /// rectangle's params named by `params`.
    func declaration(screen: String, params: [String: String]) -> String {
        let rect = "\"rect(\(params["X"]!), \(params["Y"]!), \(params["Width"]!), \(params["Height"]!))\""
        return "\(panel): {image: \(screen), source: \(rect), frame: \(rect), hidden: true}"
    }
}
