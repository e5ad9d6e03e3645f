import Codecs
import Foundation
import Geometry
import Raster
import Render
import Scenes

/// What an export tells as it goes: progress, warnings, and whether to stop.
public struct ExportEvents: Sendable {
    /// Steps done of the total: frames, or a size budget's encodes.
    public var progress: @Sendable (_ done: Int, _ total: Int) -> Void
    /// Something worth knowing that does not stop the export.
    public var warning: @Sendable (ExportText) -> Void
    /// Polled between frames: true stops the export with `CancellationError`, writing nothing.
    public var isCancelled: @Sendable () -> Bool

    public init(
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        warning: @escaping @Sendable (ExportText) -> Void = { _ in },
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) {
        self.progress = progress
        self.warning = warning
        self.isCancelled = isCancelled
    }
}

/// What an export wrote, in lines for people.
public struct ExportReport: Sendable {
    public var lines: [ExportText]
    /// The size of the file written, for one file.
    public var bytes: Int?
}

extension ExportRequest {
    /// Renders the request and writes it: checks it, prepares the scene, checks every output
    /// against the others and the scene's inputs, then renders and encodes as it goes.
    public func run(_ events: ExportEvents = ExportEvents()) throws -> ExportReport {
        try check()
        return try Export(request: self, events: events).run()
    }

    /// The scene file, the config and the images the request reads now (only the first two
    /// when the scene does not load): what a watch watches.
    public var inputFiles: [String] {
        var files = [SceneCatalog.isFile(scene) ? scene : SceneCatalog.path(of: scene)]
        if let config { files.append(config) }
        if let prepared = try? prepare() { files += prepared.images.map(\.path) }
        return files
    }
}

/// One export being run.
private struct Export {
    let request: ExportRequest
    let events: ExportEvents
    let started = Date()

    var threads: Int { request.threads ?? ProcessInfo.processInfo.activeProcessorCount }
    var seconds: String { String(format: "%.1f s", Date().timeIntervalSince(started)) }

    func run() throws -> ExportReport {
        let scene = try request.prepare()
        try checkOutputs(scene)
        let renderer = try namingValueOrigin(config: request.config, assignments: request.assignments) {
            try SceneRenderer(scene)
        }
        // A value that changes nothing (a number its animation's curve does not read; on the
        // command line, a param the storyboard does not read) is said, not taken silently. A
        // config may hold params for other storyboards: a whole one (`flipbook config`) does.
        let declared = Set(scene.params.map(\.key))
        func unreadParam(_ key: String) -> String? {
            let param = declared.contains(key) ? key : key.split(separator: ".").dropLast().joined(separator: ".")
            guard declared.contains(param), !renderer.reads.contains(param) else { return nil }
            return "the \(scene.settings.storyboard) storyboard does not read \(param), so this changes nothing"
        }
        if let config = request.config {
            for (key, line) in ConfigDocument.keyPaths(ofFile: config) {
                guard let why = scene.values.unreadPart(key) else { continue }
                events.warning("\(config)\(line.map { ":\($0)" } ?? ""): \(key): \(why)")
            }
        }
        for assignment in request.assignments {
            let key = String(assignment.prefix { $0 != "=" })
            if let why = scene.values.unreadPart(key) ?? unreadParam(key) {
                events.warning("\(.set) \(assignment): \(why)")
            }
        }
        let settings = renderer.scene.settings
        guard let output = request.output, let format = request.format else { return try render(renderer, to: nil) }
        if format == .still {
            let time = request.time ?? 0
            // The length is printed to the centisecond; a time up to it is the end.
            guard time <= renderer.plan.duration + 0.005 else {
                throw ExportError.refused(
                    .time, "\(time)",
                    "the \(settings.storyboard) storyboard lasts \(String(format: "%.2f", renderer.plan.duration)) s"
                )
            }
            let t = min(time, renderer.plan.duration)
            let frame = renderer.frame(at: t)
            try PNGCodec.write(frame, to: output)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            return ExportReport(
                lines: ["wrote \(output): \(frame.width)x\(frame.height), t = \(t) s, \(ByteSize.text(bytes))"],
                bytes: bytes)
        }
        if let note = format.animation?.frameRateNote(settings.fps) { events.warning(note) }
        if let budget = request.maxSize, let animation = format.animation {
            return try fit(renderer, within: budget.bytes, to: output, format: animation)
        }
        return try render(renderer, to: output)
    }

    /// Checks every output against the others and against the scene's inputs, before any work.
    func checkOutputs(_ scene: PreparedScene) throws {
        var outputs: [OutputRules.Output] = []
        if let output = request.output {
            outputs.append(.init(.output, path: output, isFolder: request.format == .sequence))
        }
        if let sheet = request.sheet { outputs.append(.init(.sheet, path: sheet)) }
        if let stats = request.stats { outputs.append(.init(.stats, path: stats)) }
        var inputs = scene.images.map { OutputRules.Input(what: "\($0.key)", path: $0.path) }
        if let config = request.config { inputs.append(.init(what: "\(.config)", path: config)) }
        inputs.append(.init(what: "the scene file", path: scene.file))
        try OutputRules(outputs: outputs, inputs: inputs).check()
    }

    /// The storyboard's frame times at the request's speed, and their frame numbers.
    func frameTimes(_ renderer: SceneRenderer) throws -> (times: [Double], indices: [Int]) {
        var times = renderer.times(speed: request.speed)
        guard times.count <= ExportRequest.maximumFrames else {
            throw ExportError.invalid(
                .fps,
                "\(times.count) frames (\(String(format: "%.2f", renderer.plan.duration)) s at \((renderer.scene.settings.fps / request.speed).plainText) fps): at most \(ExportRequest.maximumFrames); a higher \(.speed) or a lower \(.fps)"
            )
        }
        var indices = Array(times.indices)
        if let frames = request.frames {
            guard frames.range.upperBound < times.count else {
                throw ExportError.refused(.frames, "\(frames)", "the render has frames 0-\(times.count - 1)")
            }
            indices = Array(frames.range)
            times = indices.map { times[$0] }
        }
        return (times, indices)
    }

    /// Renders every frame into `output` (a GIF, WebP, MP4 or folder of frames), or into
    /// nothing, with the sheet and the stats the request asks for.
    func render(_ renderer: SceneRenderer, to output: String?) throws -> ExportReport {
        let settings = renderer.scene.settings
        let (times, indices) = try frameTimes(renderer)
        let playback = settings.fps
        // A sheet shows at most about 40 frames, evenly spaced, so it stays readable.
        let sheetEvery = max(1, (times.count + 39) / 40)
        var contact = request.sheet.map { _ in ContactSheet() }
        var done = 0
        // What every render does with each frame as it comes, besides its output.
        func observe(_ k: Int, _ frame: Bitmap) throws {
            if events.isCancelled() { throw CancellationError() }
            if k % sheetEvery == 0 { contact?.add(frame, at: times[k]) }
            done += 1
            events.progress(done, times.count)
        }
        var lines: [ExportText] = []
        var bytes: Int?
        switch output.map(ExportFormat.init(path:)) {
        case .animation:
            let (written, rendered) = try encode(
                renderer, times: times, indices: indices, to: output!, encoding: request.encoding, each: observe)
            if AnimatedOutput.isOverHint(written) { events.warning(AnimatedOutput.sizeHint(written)) }
            try writeStats(rendered, encoder: written.gif)
            bytes = written.bytes
            lines.append("\(written.line) at \(playback.plainText) fps, \(sizeLabel(settings)), in \(seconds)")
        case .sequence:
            let output = output!
            let made = try FrameFolder.prepare(output, overwrite: request.overwrite)
            let digits = max(4, String(indices.last!).count)
            // Frames compress and write on every core while later ones render.
            let writer = PNGSequenceWriter(threads: threads)
            let rendered: RenderStats
            do {
                rendered = try renderer.render(times: times, threads: threads) { k, frame in
                    try writer.write(
                        frame,
                        to: (output as NSString).appendingPathComponent(
                            String(format: "frame%0\(digits)d.png", indices[k])))
                    try observe(k, frame)
                }
                try writer.finish()
                AtomicOutput.releaseFolders(made, removing: false)
            } catch {
                // Half a sequence is no render: the frames written so far go too, and the
                // folders it made (rmdir takes only an empty one).
                writer.abandon()
                AtomicOutput.releaseFolders(made, removing: true)
                throw error
            }
            try writeStats(rendered, encoder: nil)
            lines.append(
                "wrote \(times.count) PNG frames to \(output) (\(playback.plainText) fps, \(sizeLabel(settings)))")
        case .still, nil:
            let rendered = try renderer.render(times: times, threads: threads, sink: observe)
            try writeStats(rendered, encoder: nil)
            lines.append(
                "rendered \(times.count) frames (\(playback.plainText) fps, \(sizeLabel(settings))), wrote none, in \(seconds)"
            )
        }
        if let sheet = request.sheet, let contact {
            try PNGCodec.write(contact.render(), to: sheet)
            lines.append("wrote contact sheet \(sheet)")
        }
        return ExportReport(lines: lines, bytes: bytes)
    }

    /// Renders `times` (frame `indices` of the storyboard) into a GIF, a WebP or an MP4 at `path`.
    func encode(
        _ renderer: SceneRenderer, times: [Double], indices: [Int], to path: String, encoding: EncodingOptions,
        each: (Int, Bitmap) throws -> Void
    ) throws -> (AnimatedOutput.Written, RenderStats) {
        let size = renderer.plan.sample(at: 0, scale: renderer.scale).size
        let playback = renderer.scene.settings.fps
        let animation = try AnimatedOutput(
            path: path, width: Int(size.width.rounded()), height: Int(size.height.rounded()),
            fps: playback / request.speed, encoding: encoding)
        let first = Double(indices[0]) / playback
        let rendered = try renderer.render(times: times, threads: threads) { k, frame in
            try animation.add(frame, at: Double(indices[k]) / playback - first)
            try each(k, frame)
        }
        let written = try animation.finish(at: Double(indices.last! + 1) / playback - first, inputFrames: times.count)
        return (written, rendered)
    }

    /// A size budget: bisects the budget ladder, each try a whole render and encode to a file
    /// beside the output, and moves the best-looking one that fits into place.
    func fit(_ renderer: SceneRenderer, within budget: Int, to output: String, format: AnimationFormat) throws
        -> ExportReport
    {
        let settings = renderer.scene.settings
        let width = Int(renderer.plan.sample(at: 0, scale: renderer.scale).size.width.rounded())
        let rungs = SizeBudget.ladder(format, quality: request.encoding.quality, fps: settings.fps, width: width)
        var tries: [(rung: BudgetRung, bytes: Int, path: String)] = []
        defer { for t in tries { try? FileManager.default.removeItem(atPath: t.path) } }
        let guess = format.budgetGuess.flatMap { q in rungs.firstIndex { $0.quality == q } }
        let chosen = try SizeBudget.search(count: rungs.count, guess: guess) { i in
            let rung = rungs[i]
            let trialRenderer =
                rung.fps == settings.fps && rung.width == width
                ? renderer : try SceneRenderer(request.prepare(fps: rung.fps, width: rung.width))
            var encoding = request.encoding
            encoding.quality = rung.quality
            if rung.lossy > 0 { (encoding.lossy, encoding.dither) = (rung.lossy, 0) }
            let path = try AtomicOutput.siblingPath(of: output, tag: "try\(i)")
            let times = trialRenderer.times(speed: request.speed)
            let written: AnimatedOutput.Written
            do {
                (written, _) = try encode(
                    trialRenderer, times: times, indices: Array(times.indices), to: path, encoding: encoding
                ) { _, _ in if events.isCancelled() { throw CancellationError() } }
            } catch {
                unlink(path)
                throw error
            }
            tries.append((rung, written.bytes, path))
            events.progress(tries.count, rungs.count)
            return written.bytes <= budget
        }
        let summary = tries.sorted { rungs.firstIndex(of: $0.rung)! < rungs.firstIndex(of: $1.rung)! }
            .map { t in
                "\(t.rung.brief)\(t.rung.fps == settings.fps ? "" : " \(t.rung.fps.plainText) fps")\(t.rung.width == width ? "" : " \(t.rung.width) px") \(ByteSize.text(t.bytes))"
            }
            .joined(separator: ", ")
        guard let chosen, let winner = tries.first(where: { $0.rung == rungs[chosen] }) else {
            throw ExportError.failed(
                .maxSize, value: "\(budget)",
                "\(.maxSize) \(ByteSize.text(budget)): no setting tried fits (\(summary)); a shorter storyboard, a higher \(.speed) or a WebP"
            )
        }
        try OutputDestination(output).land(temporary: winner.path)
        return ExportReport(
            lines: [
                "wrote \(output): \(ByteSize.text(winner.bytes)), within \(ByteSize.text(budget)), with \(winner.rung.options)\n"
                    + "  \(tries.count) encode\(tries.count == 1 ? "" : "s") in \(seconds): \(summary)"
            ], bytes: winner.bytes)
    }

    /// "@2x", or "300 px wide" for a render of a set width.
    func sizeLabel(_ settings: SceneSettings) -> String {
        settings.width.map { "\($0) px wide" } ?? "@\(settings.scale)x"
    }

    /// The stage timings as JSON, for Scripts/bench.
    func writeStats(_ r: RenderStats, encoder: GIFSummary?) throws {
        guard let stats = request.stats else { return }
        var fields = [
            "\"frames\": \(r.frames)", "\"rasterized\": \(r.rasterized)", "\"redrawn_in_part\": \(r.redrawnInPart)",
            "\"pixels\": \(r.pixels)", "\"threads\": \(threads)",
            "\"planning_s\": \(r.planning)", "\"raster_s\": \(r.raster)", "\"render_wall_s\": \(r.renderWall)",
            "\"wall_s\": \(Date().timeIntervalSince(started))",
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
}
