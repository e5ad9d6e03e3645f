/// How a finger moves through its part of a change before it lets go, where it follows no path
/// of its own (`MadeChange.fingerPath`): a drag slows to its lift, a flick speeds up to it and
/// hands the curve after it a fast start.
public enum FingerMotion: String, Sendable, CaseIterable {
    /// Slowing as it lets go (a drag that settles): its part eases out.
    case drag
    /// Speeding up until it lets go (a sheet or a screen flicked away): its part eases in.
    case flick

    /// The easing its part is written with, as a scene file's `drag` step reads it.
    var easing: String {
        switch self {
        case .drag: "easeOut"
        case .flick: "easeIn"
        }
    }

    /// How its part moves, for a made scene's doc of the part's seconds.
    var doc: String {
        switch self {
        case .drag: "easing out"
        case .flick: "speeding up (a flick)"
        }
    }

    /// How the report says a finger led the change.
    var led: String {
        switch self {
        case .drag: "led by a finger"
        case .flick: "flicked by a finger"
        }
    }

    /// Where a finger-led try's search starts: the share of the change's seconds its part
    /// takes, how far it takes the move, and the speed the spring after it starts at (whole
    /// distances a second). A drag lets go halfway, handing on a fair speed (from a slow start
    /// the search settles on a short, loose spring instead); a flick lets go late and fast.
    var start: (share: Double, progress: Double, speed: Double) {
        switch self {
        case .drag: (0.5, 0.4, 8)
        case .flick: (0.8, 0.75, 20)
        }
    }

    /// The fastest start a curve after its part may have, in whole distances a second (of what
    /// is left of the way): a flick let go near its end hands on many.
    var fastest: Double {
        switch self {
        case .drag: 20
        case .flick: 60
        }
    }
}
