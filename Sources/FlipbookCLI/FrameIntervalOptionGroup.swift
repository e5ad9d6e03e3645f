import ArgumentParser
import Fit
import Foundation

/// A recording's real frame interval, shared by every command that measures or shows one
/// (fit, score, the studio's --against).
struct FrameIntervalOptionGroup: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Seconds a frame of the recording really lasted, where its times misstate the capture's rate (a 30 fps capture saved at 3 cs a frame, a time-lapse): its times are scaled to it, a held frame keeping its length in frames.",
            valueName: "seconds"))
    var frameInterval: Double?

    /// Throws unless the interval is one a capture can have, and a folder of frames, which
    /// carries no times, is given one: a rate assumed would scale every duration measured.
    func check(recording: String?) throws {
        var isFolder: ObjCBool = false
        if frameInterval == nil, let recording,
            FileManager.default.fileExists(atPath: recording, isDirectory: &isFolder),
            isFolder.boolValue
        {
            throw ValidationError(
                "\(recording) is a folder of frames, which carries no times: --frame-interval SECONDS gives them (0.033333 for 30 fps, 0.016667 for 60)"
            )
        }
        let intervals = FitRequest.frameIntervals
        if let frameInterval, !intervals.contains(frameInterval) {
            throw ValidationError(
                "--frame-interval \(frameInterval): expected seconds in \(intervals.lowerBound)...\(intervals.upperBound.plainText) (a capture of 1000 frames a second to one every 10 s)"
            )
        }
    }
}
