import Dispatch
import Fit
import Flipbook
import Foundation

/// The JSON and picture requests the page makes. Renders run off the server's own threads
/// (a whole storyboard on a render queue, one frame on a global queue), so that a render
/// never holds up another request.
struct StudioAPI {
    let server: StudioServer
    var session: StudioSession { server.session }

    // MARK: Reading

    func state() -> HTTPResponse { .json(StudioState.json(StudioState(session: session))) }

    /// One frame, rendered now: `v` (the version), `of`: `current` (the version's at `t`
    /// seconds), `against` (the recording's) or `diff` (the difference of the two). Beside the
    /// recording the page names the frame it shows, `k` (of the version's frames), or `t` while
    /// it shows the frame rendered at `t`: the page alone decides which frame is on screen,
    /// and both pictures are taken at that frame's moment, so a recording of this very render
    /// differs by nothing, mid-motion too. A version no longer held is 410 Gone: the page asks
    /// for the state again.
    func frame(_ request: HTTPRequest) async -> HTTPResponse {
        let t = request.query["t"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        let k = request.query["k"].flatMap(Int.init)
        guard let v = request.query["v"].flatMap(Int.init), t != nil || k != nil else {
            return .text(400, "expected v=VERSION and t=SECONDS, or k=FRAME beside a recording")
        }
        guard let loaded = session.loaded(v) else { return .text(410, "version \(v) is gone; load the state again") }
        let of = request.query["of"] ?? "current"
        let recording = session.recording
        guard ["current", "against", "diff"].contains(of) else {
            return .text(400, "of=\(of): expected current, against or diff")
        }
        if of != "current" && recording == nil {
            return .text(404, "no recording: this studio was started without one to compare against")
        }
        guard of != "current" || t != nil else { return .text(400, "expected t=SECONDS") }
        let times = loaded.transition.frameTimes
        if let k, !times.indices.contains(k) {
            return .text(400, "k=\(k): the version has frames 0-\(times.count - 1)")
        }
        if of == "current", let first = loaded.first, first.time == t {
            // The other frames render once this one is on its way, not while it is written.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { loaded.store.startIfWaiting() }
            return .png(first.png, cache: true)
        }
        let result: Result<([UInt8], [String: String]), any Error> = await offThread {
            let moment = k.map { times[$0] } ?? min(max(0, t!), loaded.transition.duration)
            // The recording's own time at that moment: it starts `start` into the storyboard.
            let start = of == "current" ? 0 : session.recordingStart(loaded)
            switch of {
            case "against":
                // The recording at the render's size, so the two show and compare pixel for pixel.
                guard let frame = recording!.frame(atMoment: moment - start) else { return ([], [:]) }
                let size = loaded.transition.pixelSize
                return (try frame.resized(width: size.width, height: size.height).pngData(fast: true), [:])
            case "diff":
                let ours = loaded.transition.frame(at: moment).bitmap
                guard let frame = recording!.frame(atMoment: moment - start) else { return ([], [:]) }
                let theirs = frame.resized(width: ours.width, height: ours.height)
                let d = FrameComparison.compare(ours, theirs, tolerance: .recording)
                return (
                    try FrameComparison.diffImage(ours, theirs, tolerance: .recording).pngData(fast: true),
                    ["X-Flipbook-Difference": String(format: "%.4f", d.differingFraction)]
                )
            default:
                return (try loaded.transition.frame(at: moment).bitmap.pngData(fast: true), [:])
            }
        }
        switch result {
        case .success(let (png, headers)):
            if png.isEmpty {
                return .text(
                    404,
                    headers.values.first.map { "the recording is \($0); the render is another size" }
                        ?? "no frame there")
            }
            return .png(png, headers: headers, cache: of == "current")
        case .failure(let error):
            return .text(500, "\(error)")
        }
    }

    /// The version's frames, once every one has rendered: which picture each frame shows.
    func frames(_ request: HTTPRequest) async -> HTTPResponse {
        guard let v = request.query["v"].flatMap(Int.init) else { return .text(400, "expected v=VERSION") }
        guard let loaded = session.loaded(v) else { return .text(410, "version \(v) is gone; load the state again") }
        guard let manifest = await loaded.store.manifest() else {
            return .text(410, "version \(v) was replaced before its frames were done")
        }
        return .json(StudioState.json(manifest))
    }

    /// Picture `k` of version `v`, as PNG.
    func picture(_ request: HTTPRequest) async -> HTTPResponse {
        guard let v = request.query["v"].flatMap(Int.init), let k = request.query["k"].flatMap(Int.init) else {
            return .text(400, "expected v=VERSION&k=PICTURE")
        }
        guard let loaded = session.loaded(v), let png = await loaded.store.picture(k) else {
            return .text(410, "version \(v) has no picture \(k) now")
        }
        return .png(png, cache: true)
    }

    /// Version `v` scored against the recording by the studio's features, as `flipbook score`
    /// scores it: each feature's RMS, worst and lag, and how much of the motion compared. A
    /// score the scorer refuses (too little compared) is 422 with its reason.
    func score(_ request: HTTPRequest) async -> HTTPResponse {
        guard let v = request.query["v"].flatMap(Int.init) else { return .text(400, "expected v=VERSION") }
        guard session.scores != nil else {
            return .text(404, "no features: this studio was started without a features file to score by")
        }
        guard session.loaded(v) != nil else { return .text(410, "version \(v) is gone; load the state again") }
        // The page asks once the version's frames are in: the picture comes before the figures.
        switch await offThread({ session.score(v) }) {
        case .scored(let result):
            return .json(StudioState.json(result))
        case .refused(let reason):
            return .text(422, reason)
        case nil:
            return .text(410, "version \(v) is gone; load the state again")
        }
    }

    /// Version `v`'s timeline: each layer's animated properties with their spans, each phase
    /// with the param that sets its length, and the layers each param moves. It plans the
    /// storyboard once per param, so the page asks only once the versions stop coming.
    func timeline(_ request: HTTPRequest) async -> HTTPResponse {
        guard let v = request.query["v"].flatMap(Int.init) else { return .text(400, "expected v=VERSION") }
        guard let loaded = session.loaded(v) else { return .text(410, "version \(v) is gone; load the state again") }
        return .json(StudioState.json(await offThread { StudioTimeline(version: v, loaded.transition) }))
    }

    func events() -> HTTPResponse { session.events.response() }

    // MARK: Changing

    /// `{"values": {"present.duration": "0.9", "timing.listHold": null}}`: sets (or takes back) values.
    func edit(_ request: HTTPRequest) async -> HTTPResponse {
        struct Body: Decodable {
            var values: [String: String?]
            /// The page's scrubber, whose frame is rendered first.
            var t: Double?
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: request.bodyData) else {
            return .text(400, #"expected {"values": {"key.path": "value" or null}, "t": seconds}"#)
        }
        let error = await offThread { session.edit(body.values, at: body.t) }
        server.rewatch()
        return .json(StudioState.json(StudioState(session: session)), status: error == nil ? 200 : 422)
    }

    /// `{"storyboard": "promo", "scale": 2}`: views another storyboard or scale.
    func view(_ request: HTTPRequest) async -> HTTPResponse {
        struct Body: Decodable {
            var storyboard: String?
            var scale: Int?
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: request.bodyData) else {
            return .text(400, #"expected {"storyboard": NAME, "scale": 1|2|3}"#)
        }
        if let scale = body.scale, !(1...3).contains(scale) {
            return .text(400, "scale \(scale): expected 1, 2 or 3")
        }
        let error = await offThread { session.view(storyboard: body.storyboard, scale: body.scale) }
        server.rewatch()
        return .json(StudioState.json(StudioState(session: session)), status: error == nil ? 200 : 422)
    }

    /// `{"frameInterval": SECONDS|null, "start": SECONDS|null}`: the recording's timing, as
    /// `flipbook score --frame-interval --start` takes it (null: the file's own times; found).
    func timing(_ request: HTTPRequest) async -> HTTPResponse {
        guard let timing = try? JSONDecoder().decode(RecordingTiming.self, from: request.bodyData) else {
            return .text(400, #"expected {"frameInterval": SECONDS or null, "start": SECONDS or null}"#)
        }
        let result: Result<Void, any Error> = await offThread { try session.setTiming(timing) }
        if case .failure(let error) = result { return .text(400, "\(error)") }
        return .json(StudioState.json(StudioState(session: session)))
    }

    /// Saves; a change made on disk since the file was read is 409 Conflict, with the state
    /// that describes it (`diskChange`), and nothing is written.
    func save() async -> HTTPResponse {
        let result: Result<Void, any Error> = await offThread { try session.save() }
        // A built-in's first save moves the session onto its copy: the copy is what changes on disk now.
        server.rewatch()
        if case .failure(let error) = result {
            if error is StudioConflict { return .json(StudioState.json(StudioState(session: session)), status: 409) }
            return .text(422, "\(error)")
        }
        return .json(StudioState.json(StudioState(session: session)))
    }

    /// `{"choice": "reload"}` or `{"choice": "merge", "keep": ["key"]}`: settles a change made
    /// on disk under unsaved edits (`keep`: the conflicting keys whose page value wins).
    func settle(_ request: HTTPRequest) async -> HTTPResponse {
        struct Body: Decodable {
            var choice: String
            var keep: [String]?
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: request.bodyData),
            ["reload", "merge"].contains(body.choice)
        else {
            return .text(400, #"expected {"choice": "reload"} or {"choice": "merge", "keep": ["key.path"]}"#)
        }
        let choice: StudioSession.DiskChoice = body.choice == "reload" ? .reload : .merge(keep: Set(body.keep ?? []))
        await offThread { session.settle(choice) }
        server.rewatch()
        return .json(StudioState.json(StudioState(session: session)))
    }

    func revert() async -> HTTPResponse {
        await offThread { session.revert() }
        return .json(StudioState.json(StudioState(session: session)))
    }

    /// The render options a download may set, by their keys (`width=240&fps=20&max-size=5MB`):
    /// those the export options' table offers the studio.
    static let exportOptions = ExportOption.offered(by: .studio)

    /// The export `?format=NAME` (an `AnimationFormat`'s, GIF by default) and any of
    /// `exportOptions` ask for: the transition as it shows now, written to `folder` (the file's
    /// name alone without one), checked; or the response refusing it, naming the option.
    func exportRequest(_ request: HTTPRequest, in folder: URL?) -> ExportAsked {
        let formatName = request.query["format"] ?? AnimationFormat.all[0].name
        guard let format = AnimationFormat.named(formatName) else {
            return .refused(
                .text(400, "format=\(formatName): expected \(AnimationFormat.all.map(\.name).joined(separator: ", "))"))
        }
        let s = session.snapshot
        guard let t = s.current?.transition else { return .refused(.text(410, "nothing loaded")) }
        let name = "\(t.name)-\(t.storyboard)\(format.extensions[0])"
        var export = StudioState.exportRequest(
            scene: session.scene, storyboard: t.storyboard, config: session.options.config, scale: s.scale,
            edits: s.edits)
        export.output = folder.map { $0.appendingPathComponent(name).path } ?? name
        do {
            for option in Self.exportOptions {
                guard let text = request.query[option.name], !text.isEmpty else { continue }
                if option == .width { export.scale = nil }
                try export.set(option, to: text)
            }
            try export.check()
        } catch {
            return .refused(.text(400, "\(error)"))
        }
        return .asked(export, format)
    }

    /// An export a query asks for, or the response refusing it.
    enum ExportAsked {
        case asked(ExportRequest, AnimationFormat)
        case refused(HTTPResponse)
    }

    /// The command line of the export the same query asks for (`/api/command?format=gif&width=240`),
    /// as text: what the page's "same with the CLI" box shows, options and all.
    func command(_ request: HTTPRequest) -> HTTPResponse {
        switch exportRequest(request, in: nil) {
        case .asked(let export, _): return .text(200, export.commandLine)
        case .refused(let refusal): return refusal
        }
    }

    /// `?format=NAME` and any of `exportOptions` (as `exportRequest` reads them): the
    /// transition as it shows now, exported by the library (as `flipbook render` exports) to a
    /// temporary file, and sent as a download. A bad option is a 400 naming it and its value.
    func export(_ request: HTTPRequest) async -> HTTPResponse {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flipbook-studio-\(UUID().uuidString)")
        var export: ExportRequest, format: AnimationFormat
        switch exportRequest(request, in: folder) {
        case .asked(let asked, let f): (export, format) = (asked, f)
        case .refused(let refusal): return refusal
        }
        let type = format.mediaType
        let name = (export.output! as NSString).lastPathComponent
        let result: Result<Data, any Error> = await offThread { [export] in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            _ = try export.run()
            return try Data(contentsOf: URL(fileURLWithPath: export.output!))
        }
        switch result {
        case .success(let data):
            export.output = name
            return HTTPResponse(
                status: 200,
                headers: [
                    "Content-Type": type,
                    "Content-Disposition": "attachment; filename=\"\(name)\"",
                    "X-Flipbook-Command": export.commandLine,
                ], body: Array(data))
        case .failure(let error):
            return .text(422, "\(error)")
        }
    }

    // MARK: Threads

    /// Runs `work` on a global queue: CPU-bound work stays off the server's own threads.
    private func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        await withCheckedContinuation { c in
            DispatchQueue.global(qos: .userInitiated).async { c.resume(returning: Result { try work() }) }
        }
    }

    private func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { c in
            DispatchQueue.global(qos: .userInitiated).async { c.resume(returning: work()) }
        }
    }
}
