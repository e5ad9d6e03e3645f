import ArgumentParser

/// Where a recording starts in the storyboard, shared by the commands that measure or show one
/// at a given start (score, the studio's --against); fit finds it with the values it fits.
struct RecordingStartOptionGroup: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The storyboard's time at the recording's first frame, for a recording that starts into the transition or before it (default: found from whole frames, as flipbook fit finds it).",
            valueName: "seconds"))
    var start: Double?
}
