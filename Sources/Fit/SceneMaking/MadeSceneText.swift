import Foundation

import enum Flipbook.ExportFormat

/// One change of a made scene: which screen gives way to which, how, when and with what curve.
public struct MadeChange: Sendable {
    public enum Curve: Sendable, Equatable {
        /// UIKit's spring fitted to a duration, started at `velocity` (whole distances per
        /// second: a finger's speed at the lift) where one is fitted.
        case spring(duration: Double, dampingRatio: Double, velocity: Double? = nil)
        /// UIKit's system spring (a push's): no numbers of its own.
        case system
        /// UIKit's system spring started at a finger's speed, in whole distances a second (a pop
        /// let go: `withVelocity`).
        case launched(velocity: Double)
        /// A named Bézier (`easeInEaseOut`) over a duration.
        case bezier(String, duration: Double)

        /// The param's value, as a scene file writes it.
        var yaml: String {
            switch self {
            case .spring(let d, let z, let v):
                "{duration: \(MadeSceneText.number(d)), dampingRatio: \(MadeSceneText.number(z))"
                    + (v.map { ", velocity: \(MadeSceneText.number($0))" } ?? "") + "}"
            case .system, .launched: "{curve: system}"
            case .bezier(let name, let d): "{duration: \(MadeSceneText.number(d)), curve: \(name)}"
            }
        }

        /// The parts a fit searches, with their ranges.
        var parts: [(part: String, start: Double, range: ClosedRange<Double>)] {
            switch self {
            case .spring(let d, let z, let v):
                [("duration", d, 0.05...3), ("dampingRatio", z, 0.2...1)]
                    + (v.map { [("velocity", $0, 0...FingerMotion.drag.fastest)] } ?? [])
            case .system: []
            case .launched(let v): [("velocity", v, 0...FingerMotion.drag.fastest)]
            case .bezier(_, let d): [("duration", d, 0.05...3)]
            }
        }

        /// The same curve with the parts' fitted values, in `parts`' order.
        func with(_ values: [Double]) -> Self {
            switch self {
            case .spring:
                .spring(duration: values[0], dampingRatio: values[1], velocity: values.count > 2 ? values[2] : nil)
            case .system: .system
            case .launched: .launched(velocity: values[0])
            case .bezier(let name, _): .bezier(name, duration: values[0])
            }
        }

        /// Whether it has a duration of its own (the system spring's is UIKit's).
        var timed: Bool {
            switch self {
            case .spring, .bezier: true
            case .system, .launched: false
            }
        }

        /// The same curve over `duration` seconds, where it has a duration of its own.
        func with(duration: Double) -> Self {
            switch self {
            case .spring(_, let z, let v): .spring(duration: duration, dampingRatio: z, velocity: v)
            case .bezier(let name, _): .bezier(name, duration: duration)
            case .system, .launched: self
            }
        }

        /// The param key of `part` of the curve of the animation param `animation`: the system
        /// spring reads no velocity of its own, so a launched one's is a number beside it.
        func key(_ part: String, animation: String) -> String {
            if case .launched = self { return animation + "Velocity" }
            return animation + "." + part
        }

        /// What an `animate` step of the animation param `animation` runs.
        func animated(_ animation: String) -> String {
            if case .launched = self {
                return "\"withVelocity(\(animation), \(key("velocity", animation: animation)))\""
            }
            return animation
        }

        /// How long its step lasts: UIKit's system spring runs 0.5 s.
        var duration: Double {
            switch self {
            case .spring(let d, _, _), .bezier(_, let d): d
            case .system, .launched: 0.5
            }
        }

        /// For the made scene's comment and the report.
        var text: String {
            switch self {
            case .spring(let d, let z, let v):
                "a spring of \(MadeSceneText.number(d)) s, damping ratio \(MadeSceneText.number(z))"
                    + (v.map { ", from \(MadeSceneText.number($0)) distances a second" } ?? "")
            case .system: "UIKit's system spring"
            case .launched(let v): "UIKit's system spring, from \(MadeSceneText.number(v)) distances a second"
            case .bezier(let name, let d): "\(name) over \(MadeSceneText.number(d)) s"
            }
        }
    }

    public var kind: ScreenChange
    /// Screens by their number in the scene (from 1): where a move goes back (`returns`), `to`
    /// is the screen it uncovers on its way.
    public var from: Int
    public var to: Int
    /// Let go short by the finger that leads it: the move goes back, and `from` stays (a swipe
    /// back cancelled).
    public var returns = false
    /// The screen shown once it is over.
    public var shown: Int { returns ? from : to }
    /// When it starts in the recording, in seconds.
    public var start: Double
    public var curve: Curve
    /// The curve a rectangle's size (and its corners, and a dimming) runs on, where that is not
    /// its place's: a card whose place springs while its size eases (`ScreenChange.resizesApart`).
    public var size: Curve? = nil
    /// The values of the numbers its move reads (`ScreenChange.Number`), by their suffix.
    public var numbers: [String: Double] = [:]
    /// The rectangle it grows out of or shrinks into, or the row it opens or closes, in points
    /// (x, y, width, height).
    public var rect: [Double]? = nil
    /// A finger's part before the curve: how long it takes (moving as `finger` does, unless it
    /// follows `fingerPath`), and how far it takes the move (0 to 1).
    public var drag: (duration: Double, progress: Double)? = nil
    /// How the finger moves through its part, where it follows no path of its own.
    public var finger = FingerMotion.drag
    /// The finger's own path through its part, as the recording shows it, where it follows one
    /// rather than moving as `finger` does: points after it touches down (the share of the part's
    /// seconds, the share of how far it takes the move), straight between, the last (1, 1).
    public var fingerPath: [(time: Double, progress: Double)]? = nil
    /// A move that fades the next screen in after it (`ScreenChange.fadesIn`): the fade's
    /// seconds, ease-in-ease-out; and a circle's or a parted row's colour (`#RRGGBB`).
    public var fade: Double? = nil
    public var color: String? = nil
    /// How far a scrolling band's page moves, in points (x, y).
    public var shift: [Double]? = nil
    /// How far down a sliding panel's top is on the screen without its place (`rect`), where that
    /// screen shows it too (a detent, a drawer's peek), in points; nil where it slides from or
    /// out past the bottom.
    public var travel: Double? = nil
    /// The height of a bar at the top of a parted screen that stays while its rows ride under
    /// it, in points.
    public var bar: Double? = nil
    /// A row that closes from a screen pulled down under its bar (`PulledScreen`): the screen
    /// before the pull, which it closes from, and the gap the pull left above it, in points.
    public var pull: (screen: Int, gap: Double)? = nil
    /// The height of the status bar that stays at the top while the screens move under it, in
    /// points (`ScreenChange.keepsStatusBar`, and a row that closes from a pulled screen).
    public var statusBar: Double? = nil
    /// The recording's seconds it was fitted on, and how well its render matches there: the mean
    /// difference per frame (of 255 levels) and the share of the recording's changes it explains.
    public var seconds: ClosedRange<Double>
    public var residual: Double? = nil
    public var explained: Double? = nil
    /// The ranges of its curve's values and a finger's part, by their names in the scene:
    /// within each the residual rises by at most fit's `rise`, the others free to follow
    /// (the move's own numbers held at theirs).
    public var ranges: [(param: String, range: ClosedRange<Double>)] = []

    /// Seconds it moves for: a finger's part, the curve's (or its size's, where that is longer),
    /// and a fade after.
    public var length: Double { (drag?.duration ?? 0) + max(curve.duration, size?.duration ?? 0) + (fade ?? 0) }
}

/// A made scene's file, written as a person would: a param for each screen, hold and change,
/// the screens as layers, one storyboard that plays the recording.
struct MadeSceneText {
    var name: String
    var summary: String
    var canvas: (width: Double, height: Double)
    var scale: Double
    var fps: Double
    /// Per screen (numbered from 1), its image's file name and the seconds it shows first.
    var screens: [(file: String, seen: Double)]
    var changes: [MadeChange]
    /// The storyboard's length.
    var length: Double
    /// Comment lines at the top.
    var header: [String]
    /// Each screen's colour under a status bar (`#RRGGBB`), where a change keeps one.
    var screenTops: [String] = []
    /// The recording's frames' edges, in the scene's seconds: each step the file makes shows
    /// first in the frame its fitted time does (`placed`). None: every time to four places.
    var edges = FrameEdges(starts: [])

    /// The params' names of each change: its animation, its numbers' and rectangle's by their
    /// suffix, its finger's part where it has one, and a revealing circle's layer, colour and
    /// fade where it has one.
    var paramNames:
        [(
            animation: String, params: [String: String], drag: (duration: String, progress: String)?,
            reveal: (circle: String, color: String, fade: String)?
        )]
    { Self.paramNames(of: changes) }

    /// The params `changes` read, as a made scene names them (`paramNames`).
    static func paramNames(of changes: [MadeChange]) -> [(
        animation: String, params: [String: String], drag: (duration: String, progress: String)?,
        reveal: (circle: String, color: String, fade: String)?
    )] {
        var seen: [String: Int] = [:]
        return changes.map { change in
            // A move let go short is named for it: `popCancelled`.
            let name = change.kind.rawValue + (change.returns ? "Cancelled" : "")
            seen[name, default: 0] += 1
            let n = seen[name]!
            let base = name + (n > 1 ? "\(n)" : "")
            var params = Dictionary(uniqueKeysWithValues: change.kind.numbers.map { ($0.suffix, base + $0.suffix) })
            if change.kind.hasRect { for part in ScreenChange.rect { params[part] = base + part } }
            if change.kind.parts { params["Color"] = base + "Color" }
            if change.kind.parts, change.bar != nil { params["Bar"] = base + "Bar" }
            if change.kind.parts, change.pull != nil { params["Pull"] = base + "Pull" }
            if change.statusBar != nil { params["StatusBar"] = base + "StatusBar" }
            if change.kind == .scroll { for part in ScreenChange.shift { params[part] = base + part } }
            if change.kind.slidesPanel, change.travel != nil { params["Travel"] = base + "Travel" }
            if change.size != nil { params["Size"] = base + "Size" }
            return (
                base, params, change.drag == nil ? nil : (base + "Drag", base + "Progress"),
                change.kind.fadesIn ? (base + "-circle", base + "Color", base + "Fade") : nil
            )
        }
    }

    static func number(_ v: Double) -> String { FitResult.text(v) }

    /// A fade's seconds before its fit: a quick one's.
    static let fadeStart = 0.2

    /// Screen `screen`'s layer (numbered from 1), and its image's file beside the scene.
    static func layer(_ screen: Int) -> String { "screen-\(screen)" }
    static func imageFile(_ screen: Int) -> String { layer(screen) + ExportFormat.pngExtension }
    /// Screen `screen`'s part under a status bar: its own colour, which moves with it.
    static func underBar(_ screen: Int) -> String { layer(screen) + "-bar" }
    /// A change's status bar's layer, named after its animation.
    static func statusBar(_ animation: String) -> String { animation + "-status-bar" }

    /// `changes` as the file writes them, and the storyboard's end: each time one of their
    /// steps is made (a start, a finger's lift, a curve's end, a fade's end) between the same
    /// two of `edges` as its fitted time, so that it shows first in the frame the fit chose,
    /// where rounding each hold and duration on its own could move it a frame. Each keeps its
    /// own rounding where that does; where it does not, the time to four places nearest the
    /// fitted one that does, the hold or duration before it taking up the difference.
    var placed: (changes: [MadeChange], end: Double) {
        let place = FitResult.rounded
        var placed = changes
        // The time the next hold counts from: fitted, and as the file writes it.
        var (t, written) = (0.0, 0.0)
        for (i, change) in changes.enumerated() {
            if i > 0, settling(i - 1) != nil {
                t = changes[i - 1].start + (changes[i - 1].drag?.duration ?? 0)
                written = placed[i - 1].start + (placed[i - 1].drag?.duration ?? 0)
            }
            var c = change
            // A change held back by the one before starts as that one ends.
            c.start =
                change.start <= t
                ? written : max(written, edges.kept(change.start, preferring: written + place(change.start - t)))
            var (lift, liftWritten) = (change.start, c.start)
            // Each part ends on the frame its fitted end shows; a part the one before held back
            // past that frame keeps its own seconds instead.
            func ending(_ end: Double, after start: Double, seconds: Double) -> Double {
                let kept = edges.kept(end, preferring: start + place(seconds))
                return kept > start ? kept : start + place(seconds)
            }
            if let drag = change.drag {
                lift += drag.duration
                liftWritten = ending(lift, after: c.start, seconds: drag.duration)
                c.drag = (liftWritten - c.start, drag.progress)
            }
            if change.kind != .cut, change.curve.timed {
                let end = ending(lift + change.curve.duration, after: liftWritten, seconds: change.curve.duration)
                c.curve = change.curve.with(duration: end - liftWritten)
            }
            if let size = change.size, size.timed {
                let end = ending(lift + size.duration, after: liftWritten, seconds: size.duration)
                c.size = size.with(duration: end - liftWritten)
            }
            if let fade = change.fade {
                let (end, endWritten) = (lift + change.curve.duration, liftWritten + c.curve.duration)
                c.fade = ending(end + fade, after: endWritten, seconds: fade) - endWritten
            }
            placed[i] = c
            t = max(t, change.start) + (change.kind == .cut ? 0 : change.length)
            written = max(written, c.start) + (change.kind == .cut ? 0 : c.length)
        }
        return (placed, written + place(max(0, length - t)))
    }

    var text: String {
        let names = paramNames
        let (changes, end) = placed
        var lines = header.map { "# " + $0 }
        lines += [
            "version: 1", "name: \(name)", "summary: \(quoted(summary))",
            "settings:",
            "  canvas: {width: \(Self.number(canvas.width)), height: \(Self.number(canvas.height))}",
            "  scale: \(Int(min(3, max(1, scale.rounded()))))", "  fps: \(Self.number(fps))", "", "params:",
            "  assets:",
            "    doc: \"the screens, cut from the recording's still frames (PNG at any scale)\"",
        ]
        for (i, screen) in screens.enumerated() {
            lines.append(
                "    screen\(i + 1): {image: \(screen.file), shape: screen, doc: \(quoted(String(format: "screen %d, as the recording shows it at %.3f s", i + 1, screen.seen)))}"
            )
        }
        lines += ["  timing:", "    doc: holds, in seconds, as the recording's"]
        var holds: [(key: String, seconds: Double, doc: String)] = []
        var t = 0.0
        for (i, change) in changes.enumerated() {
            var doc =
                i == 0
                ? "screen \(change.from) before the first change" : "screen \(change.from) before the next change"
            // A change that starts while the one before settles is held from that one's curve.
            if i > 0, settling(i - 1) != nil {
                t = changes[i - 1].start + (changes[i - 1].drag?.duration ?? 0)
                doc = "from when the change before's curve starts (it still settles as this change starts)"
            }
            holds.append(("before\(i + 1)", max(0, change.start - t), doc))
            t =
                max(t, change.start)
                + (change.kind == .cut ? 0 : change.length)
        }
        holds.append(("end", max(0, end - t), "the last screen"))
        for hold in holds {
            lines.append("    \(hold.key): {seconds: \(Self.number(hold.seconds)), doc: \(quoted(hold.doc))}")
        }
        for (change, name) in zip(changes, names) where change.kind != .cut {
            var doc =
                change.returns
                ? "screen \(change.from), over screen \(change.to): \(change.kind.doc), let go short: it goes back"
                : "screen \(change.from) to \(change.to): \(change.kind.doc)"
            if let residual = change.residual {
                doc += String(format: " (fitted: %.2f levels per frame", residual)
                doc += change.explained.map { String(format: ", %.0f%% of the change explained", $0 * 100) } ?? ""
                if !change.ranges.isEmpty {
                    doc +=
                        "; within "
                        + change.ranges.map {
                            "\($0.param) \(Self.number($0.range.lowerBound))...\(Self.number($0.range.upperBound))"
                        }
                        .joined(separator: ", ")
                }
                doc += ")"
            }
            lines.append("  \(name.animation): {animation: \(change.curve.yaml), doc: \(quoted(doc))}")
            if let size = change.size, let key = name.params["Size"] {
                lines.append(
                    "  \(key): {animation: \(size.yaml), doc: \"the rectangle's size and corners\(change.kind.numbers.contains(.dim) ? ", and the dimming," : "") on a curve of their own, beside its place's (\(name.animation))\"}"
                )
            }
            if case .launched = change.curve, let speed = change.curve.parts.first {
                let range = "[\(Self.number(speed.range.lowerBound)), \(Self.number(change.finger.fastest))]"
                lines.append(
                    "  \(change.curve.key(speed.part, animation: name.animation)): {number: \(Self.number(speed.start)), range: \(range), doc: \"the finger's speed the system spring starts at, in whole distances a second\"}"
                )
            }
            if let drag = change.drag, let names = name.drag {
                lines.append(
                    "  \(names.duration): {seconds: \(Self.number(drag.duration)), range: [0.01, 10], doc: \"the finger's part, before it lets go, \(change.fingerPath == nil ? change.finger.doc : "along the recording's path")\"}"
                )
                lines.append(
                    "  \(names.progress): {number: \(Self.number(drag.progress)), range: [0, 1], doc: \"how far the finger takes it\(change.kind == .shrink ? ": the card, shrinking about its middle, keeps 1 - \(Self.number(ScreenChange.draggedScale)) times this of its size" : "")\"}"
                )
            }
            if let reveal = name.reveal {
                lines.append(
                    "  \(reveal.fade): {animation: {duration: \(Self.number(change.fade ?? Self.fadeStart)), curve: easeInEaseOut}, doc: \"the next screen fading in over the circle\"}"
                )
                lines.append(
                    "  \(reveal.color): {color: \"\(change.color ?? "#FFFFFF")\", doc: \"the circle's colour\"}")
            }
            if let color = name.params["Color"] {
                lines.append(
                    "  \(color): {color: \"\(change.color ?? "#FFFFFF")\", doc: \"the row's colour, behind the screens it cross-fades\"}"
                )
            }
            if let bar = change.bar, let name = name.params["Bar"] {
                lines.append(
                    "  \(name): {number: \(Self.number(bar)), range: [0, \(Self.number(canvas.height))], doc: \"the bar at the top that stays while the rows above ride under it, sliding up into the top as the row opens, in points\"}"
                )
            }
            if let pull = change.pull, let name = name.params["Pull"] {
                lines.append(
                    "  \(name): {number: \(Self.number(pull.gap)), range: [0, \(Self.number(canvas.height))], doc: \"the gap the pull left above screen \(pull.screen), under the bar, as the row starts closing, in points\"}"
                )
            }
            if let height = change.statusBar, let name = name.params["StatusBar"] {
                lines.append(
                    "  \(name): {number: \(Self.number(height)), range: [0, \(Self.number(canvas.height))], doc: \"the status bar's height, in points: it stays at the top while the screens move under it, as iOS draws it\"}"
                )
            }
            if let travel = change.travel, let name = name.params["Travel"] {
                lines.append(
                    "  \(name): {number: \(Self.number(travel)), range: [0, \(Self.number(canvas.height))], doc: \"how far below its place the panel shows on the \(change.kind == .panelUp ? "first screen, where it rises from" : "next screen, where it stops"), in points\"}"
                )
            }
            if let shift = change.shift {
                for (part, value) in zip(ScreenChange.shift, shift) {
                    let span = part == "ShiftX" ? canvas.width : canvas.height
                    lines.append(
                        "  \(name.params[part]!): {number: \(Self.number(value)), range: [\(Self.number(-span)), \(Self.number(span))], doc: \"how far the page scrolls: \(part == "ShiftX" ? "left" : "up"), in points\"}"
                    )
                }
            }
            for number in change.kind.numbers {
                let value = Self.number(change.numbers[number.suffix] ?? number.start)
                lines.append(
                    "  \(name.params[number.suffix]!): {number: \(value), range: [\(Self.number(number.range.lowerBound)), \(Self.number(number.range.upperBound))], doc: \(quoted(number.doc))}"
                )
            }
            if let rect = change.rect {
                let what =
                    change.kind == .reveal
                    ? "the circle's first frame"
                    : change.kind == .scroll
                        ? "the band that scrolls"
                        : change.kind.slidesPanel
                            ? "the panel that slides"
                            : change.kind.holdsDown
                                ? "the rectangle held down and let go, with the ring around it that its size let go covers"
                                : change.kind.parts
                                    ? "the row that \(change.kind == .expand ? "opens" : "closes")"
                                    : "the rectangle it \(change.kind == .grow ? "grows out of" : "shrinks into")"
                for (part, value) in zip(ScreenChange.rect, rect) {
                    let span = part == "X" || part == "Width" ? canvas.width : canvas.height
                    // A place may lie off the screen; a size is a point at least, which the fit
                    // that searches a card's rectangle keeps to.
                    let least = part == "Width" || part == "Height" ? 1 : -span
                    lines.append(
                        "  \(name.params[part]!): {number: \(Self.number(value)), range: [\(Self.number(least)), \(Self.number(2 * span))], doc: \"\(what): its \(part.lowercased()), in points\"}"
                    )
                }
            }
        }
        lines += ["", "layers:"]
        let first = changes.first?.from ?? 1
        // A screen that grows or shrinks shows its top, at the width it has, as a card does.
        let cards = Set(changes.compactMap { $0.kind == .grow ? $0.to : $0.kind == .shrink ? $0.from : nil })
        // A screen that slides under a status bar shows its own colour there; a card's top, at
        // the width it has, shows its own; a parted screen is hidden under its parts.
        let underBar = Set(
            zip(changes, names).filter { $0.1.params["StatusBar"] != nil && !$0.0.kind.parts }.flatMap {
                [$0.0.from, $0.0.to]
            }
        ).subtracting(cards)
        for i in 1...max(1, screens.count) {
            let cover =
                underBar.contains(i) && i <= screenTops.count
                ? ", children: {\(Self.underBar(i)): {color: \"\(screenTops[i - 1])\", hidden: true}}" : ""
            lines.append(
                "  \(Self.layer(i)): {image: assets.screen\(i)\(cards.contains(i) ? ", mode: fitWidth" : "")\(i == first ? "" : ", hidden: true")\(cover)}"
            )
        }
        for reveal in names.compactMap(\.reveal) {
            lines.append("  \(reveal.circle): {color: \(reveal.color), hidden: true}")
        }
        for (change, name) in zip(changes, names) where change.kind.parts {
            // The row is the list's: the first screen's where it opens, the next's where it closes
            // (from the screen before a pull, under the pulled screen's bar).
            let (list, inside) =
                change.kind == .expand ? (change.from, change.to) : (change.to, change.pull?.screen ?? change.from)
            let layers = PartingLayers(base: name.animation).declarations(
                list: "assets.screen\(list)", inside: "assets.screen\(inside)", params: name.params,
                pulled: change.pull == nil ? nil : "assets.screen\(change.from)")
            lines += layers.map { "  " + $0 }
        }
        for (change, name) in zip(changes, names) where change.kind.slidesPanel {
            let screen = change.kind == .panelUp ? change.to : change.from
            lines.append(
                "  "
                    + PanelLayers(base: name.animation).declaration(
                        screen: "assets.screen\(screen)", params: name.params))
        }
        for (change, name) in zip(changes, names) where change.kind.holdsDown {
            // Cut from the screen that shows it let go.
            let screen = change.kind == .press ? change.from : change.to
            lines.append(
                "  "
                    + PressLayers(base: name.animation).declaration(
                        screen: "assets.screen\(screen)", params: name.params, held: change.kind == .release))
        }
        for (change, name) in zip(changes, names) where change.kind == .scroll {
            let layers = ScrollLayers(base: name.animation).declarations(
                first: "assets.screen\(change.from)", next: "assets.screen\(change.to)", params: name.params)
            lines += layers.map { "  " + $0 }
        }
        if changes.contains(where: { $0.kind.numbers.contains(.dim) }) {
            lines.append("  dimming: {color: \"#000000\", alpha: 0}")
        }
        for (change, name) in zip(changes, names) {
            guard let height = name.params["StatusBar"] else { continue }
            // Over everything the storyboard raises, as iOS draws it.
            let strip = "\"rect(0, 0, canvas.width, \(height))\""
            lines.append(
                "  \(Self.statusBar(name.animation)): {image: assets.screen\(change.from), source: \(strip), frame: \(strip), hidden: true, z: \(10 * (changes.count + 2))}"
            )
        }
        lines += ["", "storyboards:", "  recording:"]
        var z = 1
        // Steps are indented the deeper, the more changes before still settle (each the rest
        // of the storyboard beside its curve).
        var indent = "    "
        for (i, (change, name)) in zip(changes, names).enumerated() {
            // After one still settling, the hold is in the rest beside its curve, already.
            if i == 0 || settling(i - 1) == nil { lines.append(indent + "- hold: timing.before\(i + 1)") }
            z += 1
            // A status bar is shown over the change, and the screens' own colour under it.
            let height = name.params["StatusBar"]
            let covered = [change.from, change.to].filter { underBar.contains($0) }
            if let height {
                let shown =
                    ["\(Self.statusBar(name.animation)).hidden: false"]
                    + covered.map {
                        "\(Self.underBar($0)).hidden: false, \(Self.underBar($0)).frame: \"rect(0, 0, canvas.width, \(height))\""
                    }
                lines.append(indent + "- set: {\(shown.joined(separator: ", "))}")
            }
            let steps = change.kind.steps(
                from: Self.layer(change.from), to: Self.layer(change.to), animation: name.animation,
                params: name.params,
                drag: name.drag, path: change.fingerPath, finger: change.finger,
                animates: change.curve.animated(name.animation),
                reveal: name.reveal.map { ($0.circle, $0.fade) }, z: z, returns: change.returns)
            var after: [String] = []
            if height != nil {
                let hidden =
                    ["\(Self.statusBar(name.animation)).hidden: true"]
                    + covered.map { "\(Self.underBar($0)).hidden: true" }
                after.append("set: {\(hidden.joined(separator: ", "))}")
            }
            guard settling(i) != nil else {
                lines += (steps + after).map { indent + "- " + $0 }
                continue
            }
            // Still settling when the next change starts: the rest of the storyboard runs
            // beside its curve, from when the curve starts, its last step (what is shown once
            // it ends) at the next change's start.
            lines += steps.dropLast(2).map { indent + "- " + $0 }
            lines += [
                indent + "- parallel:", indent + "  - " + steps[steps.count - 2], indent + "  - sequence:",
            ]
            indent += "    "
            lines.append(indent + "- hold: timing.before\(i + 2)")
            lines += ([steps[steps.count - 1]] + after).map { indent + "- " + $0 }
        }
        lines.append(indent + "- hold: timing.end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where change `i`'s curve starts, in the recording's seconds, where the next change starts
    /// while it still settles (after its curve starts, before it ends): a spring's last
    /// fraction of a point runs on past its visible motion, and UIKit does not wait for it.
    /// Nil otherwise, and for a cut and a reveal (whose fade follows its curve).
    func settling(_ i: Int) -> Double? {
        guard i + 1 < changes.count, changes[i].kind != .cut, changes[i].kind != .reveal, changes[i].fade == nil
        else { return nil }
        let change = changes[i], next = changes[i + 1].start
        let curve = change.start + (change.drag?.duration ?? 0)
        return next > curve && next < change.start + change.length - 1e-9 ? curve : nil
    }

    private func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
