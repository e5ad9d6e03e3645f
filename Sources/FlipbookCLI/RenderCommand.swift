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

    @Option(name: .shortAndLong, help: ExportOption.output.argumentHelp)
    var output: String?

    @Flag(help: ExportOption.dryRun.argumentHelp)
    var dryRun = false

    @Option(help: ExportOption.time.argumentHelp)
    var time: Double?

    @Option(help: ExportOption.speed.argumentHelp)
    var speed: Double = 1

    @Option(help: ExportOption.frames.argumentHelp, transform: FrameRange.parse)
    var frames: FrameRange?

    @Option(help: ExportOption.sheet.argumentHelp)
    var sheet: String?

    @Flag(help: ExportOption.overwrite.argumentHelp)
    var overwrite = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(
        help:
            "After rendering, render again each time the scene file, its config or one of its images is saved (Ctrl-C stops)."
    )
    var watch = false

    @Option(help: ExportOption.threads.argumentHelp)
    var threads: Int?

    @Option(help: ExportOption.stats.argumentHelp)
    var stats: String?

    @Option(help: ExportOption.maxSize.argumentHelp, transform: ByteSize.parse)
    var maxSize: ByteSize?

    @OptionGroup(title: "GIF and WebP options")
    var gif: GIFOptionGroup

    /// The export these flags ask for.
    var request: ExportRequest {
        var r = ExportRequest(scene: sceneOptions.scene)
        r.storyboard = sceneOptions.storyboard
        r.config = sceneOptions.config
        r.assignments = sceneOptions.assignments
        r.fps = sceneOptions.fps
        r.scale = sceneOptions.scale
        r.width = sceneOptions.width
        r.time = time
        r.speed = speed
        r.frames = frames
        r.output = dryRun ? nil : output
        r.sheet = sheet
        r.stats = stats
        r.overwrite = overwrite
        r.threads = threads
        r.maxSize = maxSize
        r.encoding = gif.encoding
        return r
    }

    func validate() throws {
        if dryRun {
            if let output { throw ValidationError("-o \(output): --dry-run writes nothing; leave -o out") }
        } else if output == nil {
            throw ValidationError(
                "-o is required: out.gif, out.png with --time, or a folder ending in / (or --dry-run)")
        }
        try presenting { try request.check() }
        if watch && request.format == .sequence && !overwrite {
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
