import ArgumentParser
import Flipbook
import Foundation

/// `flipbook render`: its flags become one `ExportRequest`, which the library renders and writes.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to a GIF, WebP or MP4, a PNG still (--time), or PNG frames (-o folder/).",
        discussion: """
            Defaults make a README-ready GIF: @1x, the promo recordings' own 1 px per point, about \
            2 MB for a 5 s storyboard (--scale 2 is retina-crisp at 3x the bytes); 30 fps, smooth \
            and exactly representable in GIF delays (3, 3, 4 cs) with no frame dropped; the \
            promo's storyboard; quality 100 (libimagequant + giflib's quality, smaller).
            Examples:
              flipbook render expanding-cells -o inbox.gif
              flipbook render expanding-cells -o still.png --time 1.25
              flipbook render expanding-cells -o frames/ --frames 30-45 --scale 1
            """)

    @OptionGroup var sceneOptions: SceneOptionGroup

    @OptionGroup var runFlags: ExportFlags<RunFlags>

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(
        help:
            "After rendering, render again each time the scene file, its config or one of its images is saved (Ctrl-C stops)."
    )
    var watch = false

    @OptionGroup(title: "GIF and WebP options")
    var gif: ExportFlags<EncoderFlags>

    /// The export these flags ask for.
    func request() throws -> ExportRequest {
        var request = try sceneOptions.request()
        try runFlags.apply(to: &request)
        try gif.apply(to: &request)
        return request
    }

    func validate() throws {
        let output = runFlags.given.first { $0.option == .output }?.value
        if runFlags.gives(.dryRun) {
            if let output { throw ValidationError("-o \(output): --dry-run writes nothing; leave -o out") }
        } else if output == nil {
            throw ValidationError(
                "-o is required: out.gif, out.png with --time, or a folder ending in / (or --dry-run)")
        }
        let request = try self.request()
        try presenting { try request.check() }
        if watch && request.format == .sequence && !request.overwrite {
            throw ValidationError("--watch: a folder of frames is rendered again and again; add --overwrite")
        }
    }

    func run() throws {
        if watch { return try runWatching() }
        interruptNote = { "interrupted: no output was written" }
        try render()
    }

    /// Renders once, as the options say.
    func render() throws {
        let progress = Progress(quiet: quiet)
        // Cleared on an error too; at most once.
        defer { progress.done() }
        let request = try self.request()
        let report = try SceneOptionGroup.presenting {
            try presenting {
                try request.run(
                    ExportEvents(
                        progress: { progress.show($0, of: $1) }, warning: { warn($0.onCommandLine) }))
            }
        }
        progress.done()
        if !quiet { for line in report.lines { print(line.onCommandLine) } }
    }
}
