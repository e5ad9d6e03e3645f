import ArgumentParser
import Codecs
import Foundation
import Geometry
import Raster
import Render
import Scenes

/// `flipbook render`: a scene to a GIF, a PNG still, or a folder of PNG frames.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to a GIF, a PNG still (--time), or a PNG sequence (-o folder/).",
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

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "out.gif, out.webp (animated WebP), out.mp4 (H.264), out.png (with --time), or a folder/ for PNG frames.",
            valueName: "path"))
    var output: String?

    @Flag(
        help: "Render every frame and write nothing: checks a config, and with --stats times planning and raster alone."
    )
    var dryRun = false

    @Option(help: ArgumentHelp("For a PNG still: the moment to render, in seconds.", valueName: "seconds"))
    var time: Double?

    @Option(help: ArgumentHelp("Playback speed: 2 plays twice as fast, 0.5 in slow motion.", valueName: "factor"))
    var speed: Double = 1

    @Option(
        help: ArgumentHelp("Only frames A through B (0-based, inclusive), or one frame N.", valueName: "A-B"),
        transform: FrameRange.parse)
    var frames: FrameRange?

    @Option(help: ArgumentHelp("Also write a contact sheet: every frame with its time.", valueName: "sheet.png"))
    var sheet: String?

    @Flag(
        help:
            "With -o folder/: remove the numbered frames of an earlier render there first (without it, they are an error)."
    )
    var overwrite = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(
        help:
            "After rendering, render again each time the scene file, its config or one of its images is saved (Ctrl-C stops)."
    )
    var watch = false

    @Option(
        help: ArgumentHelp(
            "Render on this many threads (default: every core). The output is the same for any count.", valueName: "N"))
    var threads: Int?

    @Option(
        help: ArgumentHelp(
            "Write where the time went (planning, raster, quantize, write) as JSON here.", valueName: "stats.json"))
    var stats: String?

    @Option(
        help: ArgumentHelp(
            "For a GIF, a WebP or an MP4: the largest file to write, e.g. 5MB (GitHub's image proxy) or 10MB. Tries quality, then GIF's lossy LZW, then fewer fps, then a smaller width, by bisection, and writes the best-looking setting that fits.",
            valueName: "size"), transform: ByteSize.parse)
    var maxSize: ByteSize?

    @OptionGroup(title: "GIF and WebP options")
    var gif: GIFOptionGroup

    /// The most frames one render makes: an hour at 30 fps, far past any preview.
    static let maximumFrames = 108_000

    enum Target { case gif, webp, mp4, still, sequence, nothing }

    var target: Target {
        guard let output, !dryRun else { return .nothing }
        if output.hasSuffix("/")
            || (try? FileManager.default.attributesOfItem(atPath: output)[.type] as? FileAttributeType)
                == .typeDirectory
        {
            return .sequence
        }
        if output.lowercased().hasSuffix(".webp") { return .webp }
        if output.lowercased().hasSuffix(".mp4") { return .mp4 }
        return output.lowercased().hasSuffix(".png") ? .still : .gif
    }

    func validate() throws {
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads \(threads): expected 1...256") }
        guard speed >= 0.01 && speed <= 100 else {
            throw ValidationError("--speed \(speed): expected a factor in 0.01...100")
        }
        if dryRun {
            if let output { throw ValidationError("-o \(output): --dry-run writes nothing; leave -o out") }
            if time != nil { throw ValidationError("--time: --dry-run renders every frame; leave --time out") }
        } else if output == nil {
            throw ValidationError(
                "-o is required: out.gif, out.png with --time, or a folder ending in / (or --dry-run)")
        }
        let output = self.output ?? ""
        if target == .gif && !output.lowercased().hasSuffix(".gif") {
            throw ValidationError(
                "-o \(output): expected out.gif, out.webp, out.mp4, out.png with --time, or a folder ending in /")
        }
        if target == .still && time == nil { throw ValidationError("-o \(output): a PNG still needs --time SECONDS") }
        if let time, !(time >= 0) { throw ValidationError("--time \(time): expected seconds, 0 or more") }
        // An option that would do nothing in this mode is a mistake worth saying.
        if target == .still {
            if speed != 1 { throw ValidationError("--speed: a PNG still is one moment (--time); leave --speed out") }
            if let frames {
                throw ValidationError("--frames \(frames): a PNG still is one moment (--time); leave --frames out")
            }
            if let sheet { throw ValidationError("--sheet \(sheet): a PNG still is one frame; leave --sheet out") }
        } else if time != nil && !dryRun {
            throw ValidationError(
                "--time: only a PNG still (-o out.png) is one moment; a GIF or a folder is the whole storyboard")
        }
        switch target {
        case .gif: try gif.check(.gif)
        case .webp: try gif.check(.webp)
        case .mp4: try gif.check(.mp4)
        case .still, .sequence: try gif.check(.png)
        case .nothing: break
        }
        if watch && target == .sequence && !overwrite {
            throw ValidationError("--watch: a folder of frames is rendered again and again; add --overwrite")
        }
        if overwrite && target != .sequence {
            throw ValidationError("--overwrite: only a folder of frames (-o folder/) is overwritten; leave it out")
        }
        if let maxSize {
            guard target == .gif || target == .webp || target == .mp4 else {
                throw ValidationError(
                    "--max-size \(maxSize.bytes) B: fits a GIF, a WebP or an MP4; frames or a still have no size to fit"
                )
            }
            // A budget runs several encodes; these options describe one.
            if let frames {
                throw ValidationError("--frames \(frames): --max-size fits the whole storyboard; leave --frames out")
            }
            if let sheet {
                throw ValidationError(
                    "--sheet \(sheet): --max-size runs several encodes; make the sheet with a render of the setting it chose"
                )
            }
            if let stats {
                throw ValidationError(
                    "--stats \(stats): --max-size runs several encodes; time the setting it chose with a render of its own"
                )
            }
        }
    }

    /// Checks every output against the others and against the scene's inputs, before any work.
    func checkOutputs(_ scene: PreparedScene) throws {
        var outputs: [OutputRules.Output] = []
        if let output, !dryRun { outputs.append(.init(option: "-o", path: output, isFolder: target == .sequence)) }
        if let sheet { outputs.append(.init(option: "--sheet", path: sheet)) }
        if let stats { outputs.append(.init(option: "--stats", path: stats)) }
        var inputs = scene.images.map { OutputRules.Input(what: $0.key, path: $0.path) }
        if let config = sceneOptions.config { inputs.append(.init(what: "--config", path: config)) }
        inputs.append(.init(what: "the scene file", path: scene.file))
        try OutputRules(outputs: outputs, inputs: inputs).check()
    }

    func run() throws {
        if watch { try runWatching() } else { try render() }
    }

    /// Renders once, as the options say.
    func render() throws {
        let started = Date()
        let output = self.output ?? ""
        let scene = try sceneOptions.prepare()
        try checkOutputs(scene)
        let renderer = try SceneRenderer(scene)
        let settings = renderer.scene.settings
        if target == .still {
            // The length is printed to the centisecond; a time up to it is the end.
            guard time! <= renderer.plan.duration + 0.005 else {
                throw ValidationError(
                    "--time \(time!): the \(renderer.scene.settings.storyboard) storyboard lasts \(String(format: "%.2f", renderer.plan.duration)) s"
                )
            }
            let t = min(time!, renderer.plan.duration)
            let frame = renderer.frame(at: t)
            try PNGCodec.write(frame, to: output)
            report("wrote \(output): \(frame.width)x\(frame.height), t = \(t) s, \(byteString(fileSize(output)))")
            return
        }
        var times = renderer.times(speed: speed)
        guard times.count <= RenderCommand.maximumFrames else {
            throw ValidationError(
                "\(times.count) frames (\(String(format: "%.2f", renderer.plan.duration)) s at \((settings.fps / speed).plainText) fps): at most \(RenderCommand.maximumFrames); a higher --speed or a lower --fps"
            )
        }
        var indices = Array(times.indices)
        if let frames {
            let range = frames.range
            guard range.upperBound < times.count else {
                throw ValidationError("--frames \(frames): the render has frames 0-\(times.count - 1)")
            }
            indices = Array(range.clamped(to: 0...(times.count - 1)))
            times = indices.map { times[$0] }
        }
        let playback = renderer.scene.settings.fps
        // A sheet shows at most about 40 frames, evenly spaced, so it stays readable.
        let sheetEvery = max(1, (times.count + 39) / 40)
        var contact = sheet.map { _ in ContactSheet() }
        let progress = Progress(total: times.count, quiet: quiet)
        // What every render does with each frame as it comes, besides its output.
        func observe(_ k: Int, _ frame: Bitmap) {
            if k % sheetEvery == 0 { contact?.add(frame, at: times[k]) }
            progress.step()
        }

        switch target {
        case .gif, .webp, .mp4:
            if target == .gif && playback > 50 {
                warn(
                    "\(playback.plainText) fps asks for GIF delays under 2 cs; frames are dropped to keep 2 cs and the exact duration"
                )
            }
            if let maxSize {
                try fit(renderer, within: maxSize.bytes, to: output, started: started)
                return
            }
            let (written, rendered) = try encode(
                renderer, times: times, indices: indices, to: output, options: gif, each: observe)
            progress.done()
            try writeStats(rendered, encoder: written.gif, wall: Date().timeIntervalSince(started))
            report(
                written.line + " at \(playback.plainText) fps, \(sizeLabel(settings)), in "
                    + String(format: "%.1f s", Date().timeIntervalSince(started)))
        case .sequence:
            try FrameFolder.prepare(output, overwrite: overwrite)
            let digits = max(4, String(indices.last!).count)
            // Frames compress and write on every core while later ones render.
            let writer = PNGSequenceWriter(threads: threadCount)
            let rendered: RenderStats
            do {
                rendered = try renderer.render(times: times, threads: threadCount) { k, frame in
                    try writer.write(
                        frame,
                        to: (output as NSString).appendingPathComponent(
                            String(format: "frame%0\(digits)d.png", indices[k])))
                    observe(k, frame)
                }
                try writer.finish()
            } catch {
                // Half a sequence is no render: the frames written so far go too.
                writer.abandon()
                progress.done()
                throw error
            }
            progress.done()
            try writeStats(rendered, encoder: nil, wall: Date().timeIntervalSince(started))
            report("wrote \(times.count) PNG frames to \(output) (\(playback.plainText) fps, \(sizeLabel(settings)))")
        case .nothing:
            let rendered = try renderer.render(times: times, threads: threadCount, sink: observe)
            progress.done()
            try writeStats(rendered, encoder: nil, wall: Date().timeIntervalSince(started))
            report(
                "rendered \(times.count) frames (\(playback.plainText) fps, \(sizeLabel(settings))), wrote none, in "
                    + String(format: "%.1f s", Date().timeIntervalSince(started)))
        case .still:
            break
        }
        if let sheet, let contact {
            try PNGCodec.write(contact.render(), to: sheet)
            report("wrote contact sheet \(sheet)")
        }
    }

    /// Renders `times` (frame `indices` of the storyboard) into a GIF or a WebP at `path`.
    func encode(
        _ renderer: SceneRenderer, times: [Double], indices: [Int], to path: String, options: GIFOptionGroup,
        each: (Int, Bitmap) throws -> Void
    ) throws -> (AnimatedOutput.Written, RenderStats) {
        let size = renderer.plan.sample(at: 0, scale: renderer.scale).size
        let playback = renderer.scene.settings.fps
        let animation = try AnimatedOutput(
            path: path, width: Int(size.width.rounded()), height: Int(size.height.rounded()), fps: playback / speed,
            options: options)
        let first = Double(indices[0]) / playback
        let rendered = try renderer.render(times: times, threads: threadCount) { k, frame in
            try animation.add(frame, at: Double(indices[k]) / playback - first)
            try each(k, frame)
        }
        let written = try animation.finish(
            at: Double(indices.last! + 1) / playback - first, inputFrames: times.count, hint: maxSize == nil)
        return (written, rendered)
    }

    /// "@2x", or "300 px wide" for a --width render.
    func sizeLabel(_ settings: SceneSettings) -> String {
        settings.width.map { "\($0) px wide" } ?? "@\(settings.scale)x"
    }

    var threadCount: Int { threads ?? ProcessInfo.processInfo.activeProcessorCount }

    /// The stage timings as JSON, for Scripts/bench.
    func writeStats(_ r: RenderStats, encoder: GIFSummary?, wall: Double) throws {
        guard let stats else { return }
        var fields = [
            "\"frames\": \(r.frames)", "\"rasterized\": \(r.rasterized)", "\"redrawn_in_part\": \(r.redrawnInPart)",
            "\"pixels\": \(r.pixels)", "\"threads\": \(threadCount)",
            "\"planning_s\": \(r.planning)", "\"raster_s\": \(r.raster)", "\"render_wall_s\": \(r.renderWall)",
            "\"wall_s\": \(wall)",
        ]
        if let e = encoder {
            fields += [
                "\"quantize_palette_s\": \(e.stages.palette)", "\"quantize_remap_s\": \(e.stages.remap)",
                "\"gif_lossy_match_s\": \(e.stages.lossyMatch)", "\"gif_write_s\": \(e.stages.write)",
                "\"gif_bytes\": \(e.bytes)", "\"gif_frames\": \(e.frames)", "\"reused_palettes\": \(e.reusedPalettes)",
            ]
        }
        try AtomicOutput.write(Array(("{" + fields.joined(separator: ", ") + "}\n").utf8), to: stats)
    }

    func report(_ line: String) {
        if !quiet { print(line) }
    }

    func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
