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
    /// The next screen fades in over the first (a cross-dissolve).
    case fade
    /// The next screen replaces the first between two frames (a highlight, a tab switch).
    case cut

    /// The moves a recording's motion is fitted with; a change within a frame is a cut.
    static let moving: [ScreenChange] = [.push, .pop, .present, .dismiss, .fade]

    /// What it is, for the made scene's comments and the report.
    public var doc: String {
        switch self {
        case .push: "the next screen slides in from the right over the first, which shifts left"
        case .pop: "the screen slides out to the right, uncovering the next, which shifts back in"
        case .present: "the next screen slides up from the bottom"
        case .dismiss: "the screen slides down, uncovering the next"
        case .fade: "the next screen fades in"
        case .cut: "the next screen replaces the first at once"
        }
    }

    /// The number param it reads besides its animation: how far the screen underneath shifts.
    var shift: (suffix: String, start: Double, range: ClosedRange<Double>, doc: String)? {
        switch self {
        case .push, .pop:
            ("Parallax", 0.3, 0...1, "how far the screen underneath shifts, as a fraction of the width")
        case .present, .dismiss, .fade, .cut: nil
        }
    }

    /// The number param for the black over the screen underneath, at its darkest (UIKit dims
    /// what a push or a sheet covers).
    var dim: (suffix: String, start: Double, range: ClosedRange<Double>, doc: String)? {
        slides ? ("Dim", 0.1, 0...0.6, "the black over the screen underneath, at its darkest (0 to 1)") : nil
    }

    /// Whether a finger can lead it (an interactive push, pop or dismissal): the moves that slide.
    var slides: Bool { self != .fade && self != .cut }

    /// The storyboard steps, as YAML flow items, that move layer `a` away for layer `b`:
    /// `animation`, `shift` and `drag` name the params it reads (`drag`: a finger's part first,
    /// to `drag.progress`), `z` is the top's new z.
    func steps(
        from a: String, to b: String, animation: String, shift: String?, dim: String?,
        drag: (animation: String, progress: String)?, z: Int
    ) -> [String] {
        let s = shift ?? "0"
        /// The dimming's alpha at progress `q`, for a move that covers (true) or uncovers.
        func dimming(_ q: String, covers: Bool) -> String {
            guard let dim else { return "" }
            if q == "1" { return ", dimming.alpha: \(covers ? dim : "0")" }
            return ", dimming.alpha: \"\(dim) * \(covers ? q : "(1 - \(q))")\""
        }
        /// The layers' places at progress `q` (an expression; "1" is the end).
        func pose(_ q: String) -> String {
            let end = q == "1"
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
            case .fade: return "\(b).alpha: \(end ? "1" : q)"
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
        case .fade:
            before = "\(b).hidden: false, \(b).z: \(z), \(b).alpha: 0"
            after = "\(a).hidden: true"
        case .cut:
            return ["set: {\(b).hidden: false, \(b).z: \(z), \(a).hidden: true}"]
        }
        let covers = self == .push || self == .present
        let dimmed = dim.map { ", dimming.z: \(Double(z) - 0.5), dimming.alpha: \(covers ? "0" : $0)" } ?? ""
        let undimmed = dim == nil ? "" : ", dimming.alpha: 0"
        return ["set: {\(before)\(dimmed)}"] + (drag.map { ["{animate: \($0.animation), \(pose($0.progress))}"] } ?? [])
            + ["{animate: \(animation), \(pose("1"))}", "set: {\(after)\(undimmed)}"]
    }
}
