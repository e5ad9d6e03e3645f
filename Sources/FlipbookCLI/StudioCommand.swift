import ArgumentParser
import Dispatch
import Fit
import Flipbook
import Foundation
import Studio

/// `flipbook studio`: a live preview in the browser, with every param of the scene editable.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract:
            "Tweak a scene's timing live in the browser: see it move, save only what changed, export GIF, WebP or MP4.",
        discussion: """
            Starts a local web server and prints its address. The page plays the storyboard, lists \
            the scene's params (the ones the storyboard does not read greyed), answers a change \
            with the frame under the scrubber at once and the whole storyboard soon after, and \
            saves changed values into the scene file (or --config FILE), changing only their text. \
            Saving a file in an editor updates the page.
            Examples:
              flipbook studio expanding-cells
              flipbook studio my-scene.yaml --config tweaks.yaml --open
              flipbook studio app-store-card --against recording.gif
              flipbook studio expanding-view --against rec.mov --features rec-features.yaml
            """)

    @Argument(help: SceneOptionGroup.sceneHelp, completion: SceneOptionGroup.sceneCompletion)
    var scene: String

    @Option(
        help: ArgumentHelp("Which storyboard to play first (the page can switch).", valueName: "name"),
        completion: SceneOptionGroup.storyboardCompletion)
    var storyboard: String?

    @Option(
        help: ArgumentHelp(
            "A YAML config over the scene: read, and written on save instead of the scene file (made if missing).",
            valueName: "file.yaml"))
    var config: String?

    @Option(help: ArgumentHelp("Output pixels per point to preview at: 1, 2 or 3.", valueName: "1|2|3"))
    var scale: Int = 1

    @Option(
        help: ArgumentHelp(
            "A recording to show beside the render, time-aligned: a GIF, WebP, MP4 or folder of PNG frames.",
            valueName: "recording"))
    var against: String?

    @Option(
        help: ArgumentHelp(
            "With --against: a features file (as flipbook score reads) to score each version by; the page shows each feature's RMS, worst and lag.",
            valueName: "file"))
    var features: String?

    @OptionGroup var interval: FrameIntervalOptionGroup

    @OptionGroup var start: RecordingStartOptionGroup

    @Option(help: ArgumentHelp("The address to listen on (only this machine can connect by default).", valueName: "ip"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (default: any free port).", valueName: "N"))
    var port: Int = 0

    @Flag(help: "Open the page in the default browser.")
    var open = false

    func validate() throws {
        try SceneOptionGroup.validate(scene: scene)
        guard (1...3).contains(scale) else { throw ValidationError("--scale \(scale): expected 1, 2 or 3") }
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port): expected 0...65535") }
        guard StudioServer.isAddress(host) else {
            throw ValidationError("--host \(host): \(StudioServer.expectedHost)")
        }
        if let features, against == nil {
            throw ValidationError("--features \(features): scores the render against a recording; give --against")
        }
        if let frameInterval = interval.frameInterval, against == nil {
            throw ValidationError("--frame-interval \(frameInterval): times a recording; give --against")
        }
        try interval.check(recording: against)
        if let start = start.start {
            guard against != nil else { throw ValidationError("--start \(start): places a recording; give --against") }
            guard ScoreRequest.starts.contains(start) else {
                throw ValidationError(
                    "--start \(start): expected seconds in \(ScoreRequest.starts.lowerBound.plainText)...\(ScoreRequest.starts.upperBound.plainText)"
                )
            }
        }
    }

    func run() throws {
        let session: StudioSession
        do {
            session = try StudioSession(
                options: StudioOptions(
                    scene: scene, storyboard: storyboard, config: config, scale: scale, against: against,
                    features: features, frameInterval: interval.frameInterval, start: start.start))
        } catch let error as StudioError {
            throw CLIError(error.description)
        }
        let server = try StudioServer(session: session, host: host, port: UInt16(port))
        interruptNote = { Self.stopNote(session) }
        let failed = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: (any Error)?
        Task {
            do {
                try await server.start()
                let url = server.url
                if server.listensEverywhere {
                    warn(
                        "--host \(host) listens on every network this machine is on: the page, its token and the scene's values cross it in clear (plain HTTP); on a shared network, prefer 127.0.0.1 and an SSH tunnel"
                    )
                }
                // Written at once, unbuffered: whoever started the studio reads the address.
                StandardStreams.write("Flipbook studio: \(url)\n\(Self.savesLine(session)); Ctrl-C stops it\n")
                try StandardStreams.flush()
                if open { Self.openInBrowser(url) }
            } catch {
                failure = error
                failed.signal()
            }
        }
        failed.wait()
        throw CLIError("\(failure.map { "\($0)" } ?? "the studio stopped")")
    }

    /// Where saves go: the scene file or config, or, for a built-in, the copy the first save makes.
    static func savesLine(_ session: StudioSession) -> String {
        guard session.copyFolder != nil else { return "saves into \(session.savesTo)" }
        return
            "saves into a copy, \(session.savesTo), made at the first save (the built-in \(session.options.scene) stays as it is)"
    }

    /// What Ctrl-C prints: the edits not saved, as the flags that give them to `flipbook render`
    /// or `config`, so that stopping the studio loses no value.
    static func stopNote(_ session: StudioSession) -> String {
        let unsaved = session.unsaved
        let count = unsaved.assignments.count
        guard count > 0 else { return "the studio stopped; it had no unsaved edits" }
        return """
            the studio stopped with \(count) edit\(count == 1 ? "" : "s") not saved into \(session.savesTo):
              \(ShellQuoting.line(unsaved.arguments(of: [.set])))
            """
    }

    static func openInBrowser(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        #if os(macOS)
            process.arguments = ["open", url]
        #else
            process.arguments = ["xdg-open", url]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { warn("could not open a browser (\(error)); open \(url)") }
    }
}
