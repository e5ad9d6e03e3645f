import Fit
import Flipbook
import TestSupport
import Foundation
import Testing

@testable import Studio

/// A studio on a copy of a built-in scene (saving never touches the repository), served on a
/// free port of 127.0.0.1 for the length of one test.
struct StudioFixture {
    let folder: String
    let scenePath: String
    let server: StudioServer
    let http: RawHTTP
    var token: String { server.token }

    static func start(
        _ scene: String = "expanding-view", config: String? = nil, against: String? = nil, features: String? = nil
    ) async throws -> StudioFixture {
        let folder = temporaryFolder(scene)
        let copy = (folder as NSString).appendingPathComponent(scene)
        try FileManager.default.copyItem(
            atPath: (Transition.assetsFolder as NSString).appendingPathComponent(scene), toPath: copy)
        let scenePath = (copy as NSString).appendingPathComponent("\(scene).yaml")
        let session = try StudioSession(
            options: StudioOptions(
                scene: scenePath, config: config.map { (folder as NSString).appendingPathComponent($0) },
                against: against, features: features))
        let server = try StudioServer(session: session)
        try await server.start()
        return StudioFixture(
            folder: folder, scenePath: scenePath, server: server, http: RawHTTP(port: server.port))
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> RawHTTP.Response {
        try await http.send("GET", path + (path.contains("?") ? "&" : "?") + "token=\(token)", headers: headers)
    }

    func post(_ path: String, _ json: String = "{}") async throws -> RawHTTP.Response {
        try await http.send(
            "POST", path, headers: ["X-Flipbook-Token": token, "Content-Type": "application/json"],
            body: Array(json.utf8))
    }

    func state(_ response: RawHTTP.Response) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }
}

@Suite("The studio over HTTP", .serialized)
struct StudioServerTests {
    @Test("A studio released without a stop refuses what still reaches its port, saying why, and does not crash")
    func releasedWithoutStop() async throws {
        let folder: String, port: UInt16, token: String
        do {
            let f = try await StudioFixture.start()
            (folder, port, token) = (f.folder, f.server.port, f.token)
        }
        // The studio is gone; its listener still answers (an unowned reference to it crashed).
        let response = try await RawHTTP(port: port).send("GET", "/api/state?token=\(token)")
        #expect(response.status == 503 && response.text == "the studio has stopped\n", "\(response.status)")
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test("A stopped studio stops rendering: its version's frames end short of the storyboard, cancelled")
    func stopEndsTheRender() async throws {
        let f = try await StudioFixture.start("expanding-cells")
        await f.stop()
        let store = try #require(f.server.session.snapshot.current?.store)
        #expect(await store.manifest(timeout: 5) == nil)
        let rendered = await store.renderedFrames()
        #expect(rendered < store.times.count, "\(rendered) of \(store.times.count) frames")
    }

    @Test("A param change gives the frame the library renders with the same set, byte for byte")
    func changeIsTheLibrarysFrame() async throws {
        let f = try await StudioFixture.start()
        defer { Task { await f.stop() } }
        let edited = try await f.post("/api/edit", #"{"values": {"expand.duration": "0.9", "timing.restHold": "0.5"}}"#)
        #expect(edited.status == 200)
        let state = try f.state(edited)
        let version = try #require(state["version"] as? Int)
        #expect(version > (state["savedVersion"] as? Int ?? 0))
        #expect(state["edits"] as? [String: String] == ["expand.duration": "0.9", "timing.restHold": "0.5"])
        let frame = try await f.get("/api/frame?v=\(version)&t=0.8")
        #expect(frame.status == 200 && frame.headers["content-type"] == "image/png")
        let expected = try Transition(f.scenePath, set: ["expand.duration=0.9", "timing.restHold=0.5"]).frame(at: 0.8)
            .bitmap
        #expect(frame.body == (try expected.pngData(fast: true)))
        let unchanged = try Transition(f.scenePath).frame(at: 0.8).bitmap
        #expect(try unchanged.pngData(fast: true) != frame.body)

        // Every frame of the version, as pictures, agrees with the library's frames.
        let manifest = try #require(
            JSONSerialization.jsonObject(with: Data(try await f.get("/api/frames?v=\(version)").body)) as? [String: Any]
        )
        let times = try #require(manifest["times"] as? [Double])
        let pictures = try #require(manifest["frames"] as? [Int])
        let library = try Transition(f.scenePath, set: ["expand.duration=0.9", "timing.restHold=0.5"])
        #expect(times.count == library.frameTimes.count)
        #expect(zip(times, library.frameTimes).allSatisfy { abs($0 - $1) < 1e-12 })
        for k in [0, times.count / 3, times.count - 1] {
            let picture = try await f.get("/api/picture?v=\(version)&k=\(pictures[k])")
            #expect(picture.body == (try library.frame(at: times[k]).bitmap.pngData(fast: true)), "frame \(k)")
        }
    }

    @Test("A version's timeline: each phase with the param that sets its length, the tracks, what each param moves")
    func timeline() async throws {
        let f = try await StudioFixture.start("expanding-cells")
        defer { Task { await f.stop() } }
        let version = try #require(try f.state(try await f.get("/api/state"))["version"] as? Int)
        let response = try await f.get("/api/timeline?v=\(version)")
        #expect(response.status == 200 && response.headers["content-type"]?.hasPrefix("application/json") == true)
        let timeline = try f.state(response)
        #expect(timeline["version"] as? Int == version)
        let phases = try #require(timeline["phases"] as? [[String: Any]])
        let library = try Transition(f.scenePath)
        #expect(phases.map { $0["name"] as? String } == library.phases.map(\.name))
        #expect(phases.map { $0["lengthKey"] as? String } == library.influence().phaseLengthKeys)
        let tracks = try #require(timeline["tracks"] as? [[String: Any]])
        #expect(tracks.count == library.tracks.count)
        let moves = try #require(timeline["moves"] as? [String: [String]])
        #expect(moves["layout.barColor"] == ["navbar"])
        #expect(try await f.get("/api/timeline").status == 400)
        #expect(try await f.get("/api/timeline?v=999").status == 410)
    }

    @Test(
        "A bad value is refused naming its key and value, in the studio's words (no flags); the last good version stays"
    )
    func badValue() async throws {
        let f = try await StudioFixture.start()
        defer { Task { await f.stop() } }
        let before = try f.state(try await f.get("/api/state"))
        let refused = try await f.post("/api/edit", #"{"values": {"expand.duration": "slow"}}"#)
        #expect(refused.status == 422)
        let state = try f.state(refused)
        #expect(
            (state["error"] as? String)?.hasPrefix(
                "expand.duration=slow: expand.duration: expected seconds (0.3, 0.3s or 300ms) in 0.01...10, got 'slow'")
                == true, "\(state["error"] ?? "")")
        #expect(state["errorKey"] as? String == "expand.duration")
        #expect(state["version"] as? Int == before["version"] as? Int)
    }

    @Test("Save changes exactly the changed values' lines of a file full of comments; revert goes back to it")
    func save() async throws {
        let f = try await StudioFixture.start("expanding-cells")
        defer { Task { await f.stop() } }
        let original = try String(contentsOfFile: f.scenePath, encoding: .utf8)
        _ = try await f.post(
            "/api/edit",
            ##"{"values": {"present.duration": "0.9", "present.velocity": "1.5", "layout.barColor": "#FF0000", "timing.listHold": "0.8"}}"##
        )
        let saved = try await f.post("/api/save")
        #expect(saved.status == 200)
        #expect((try f.state(saved))["edits"] as? [String: String] == [:])
        let text = try String(contentsOfFile: f.scenePath, encoding: .utf8)
        let before = original.split(separator: "\n", omittingEmptySubsequences: false)
        let after = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        let changed = zip(before, after).filter { $0 != $1 }.map { String($0.1) }
        #expect(
            changed == [
                "    barColor: {color: \"#FF0000\", doc: \"the navigation bar's colour, behind its snapshot\"}",
                "    listHold: {seconds: 0.8, doc: the list before the tap}",
                "  present: {animation: {duration: 0.9, dampingRatio: 1, velocity: 1.5}, doc: the row growing to full screen}",
            ])
        // The saved file renders what the studio showed.
        #expect(try Transition(f.scenePath).parameters.first { $0.key == "present" }?.animation?.duration == 0.9)

        _ = try await f.post("/api/edit", #"{"values": {"present.duration": "0.4"}}"#)
        let reverted = try f.state(try await f.post("/api/revert"))
        #expect(reverted["edits"] as? [String: String] == [:])
        #expect(try String(contentsOfFile: f.scenePath, encoding: .utf8) == text)
    }

    @Test("With --config, a save writes the config (made if missing) and leaves the scene file alone")
    func saveToConfig() async throws {
        let f = try await StudioFixture.start("expanding-view", config: "tweaks.yaml")
        defer { Task { await f.stop() } }
        let scene = try String(contentsOfFile: f.scenePath, encoding: .utf8)
        _ = try await f.post("/api/edit", #"{"values": {"expand.duration": "0.55", "timing.restHold": "0.4"}}"#)
        #expect(try await f.post("/api/save").status == 200)
        let config = (f.folder as NSString).appendingPathComponent("tweaks.yaml")
        #expect(
            try String(contentsOfFile: config, encoding: .utf8) == "expand: {duration: 0.55}\ntiming: {restHold: 0.4}\n"
        )
        #expect(try String(contentsOfFile: f.scenePath, encoding: .utf8) == scene)
        _ = try await f.post("/api/edit", #"{"values": {"expand.duration": "0.6"}}"#)
        #expect(try await f.post("/api/save").status == 200)
        #expect(
            try String(contentsOfFile: config, encoding: .utf8) == "expand: {duration: 0.6}\ntiming: {restHold: 0.4}\n")
    }

    @Test("A foreign Host or Origin, a missing or wrong token and paths outside the routes are refused")
    func refusals() async throws {
        let f = try await StudioFixture.start()
        defer { Task { await f.stop() } }
        let host = try await f.get("/api/state", headers: ["Host": "attacker.example:\(f.http.port)"])
        #expect(host.status == 403 && host.text.contains("Host"))
        let page = try await f.http.send("GET", "/", headers: ["Host": "rebound.example"])
        #expect(page.status == 403)
        let origin = try await f.http.send(
            "POST", "/api/save", headers: ["X-Flipbook-Token": f.token, "Origin": "http://attacker.example"])
        #expect(origin.status == 403 && origin.text.contains("attacker.example"))
        #expect(try await f.http.send("GET", "/api/state").status == 403)
        #expect(try await f.http.send("GET", "/api/state?token=0123").status == 403)
        #expect(try await f.http.send("POST", "/api/save", headers: ["X-Flipbook-Token": "nope"]).status == 403)
        for path in [
            "/../Package.swift", "/studio.js/../../Package.swift", "/%2e%2e/%2e%2e/etc/passwd",
            "/Assets/studio/index.html", "/etc/passwd",
        ] {
            let r = try await f.http.send("GET", path)
            #expect(r.status == 404 || r.status == 400, "\(path): \(r.status)")
            #expect(!r.text.contains("PackageDescription") && !r.text.contains("root:"), "\(path)")
        }
        let same = try await f.http.send(
            "GET", "/api/state?token=\(f.token)", headers: ["Origin": "http://127.0.0.1:\(f.http.port)"])
        #expect(same.status == 200)
        #expect(try await f.http.send("GET", "/").status == 200)
        // The page's modules, each by its fixed name, as modules load them (with an Origin).
        for module in ["studio", "state", "network", "player", "compare", "params"] {
            let r = try await f.http.send(
                "GET", "/\(module).js", headers: ["Origin": "http://127.0.0.1:\(f.http.port)"])
            #expect(r.status == 200 && r.headers["content-type"] == "text/javascript; charset=utf-8", "\(module)")
            #expect(r.text.contains("export ") || r.text.contains("import "), "\(module)")
        }
        #expect(try await f.http.send("GET", "/other.js").status == 404)
    }

    @Test("A file saved in an editor reaches the page through the event stream; a broken one sends its error")
    func hotReload() async throws {
        let f = try await StudioFixture.start()
        defer { Task { await f.stop() } }
        let version = try #require(try f.state(try await f.get("/api/state"))["version"] as? Int)
        let original = try String(contentsOfFile: f.scenePath, encoding: .utf8)
        let path = f.scenePath
        // An editor's save: a new file renamed over the old one, once the stream is open.
        let events = try await f.http.stream(
            "/api/events?token=\(f.token)",
            opened: {
                let edited = original.replacingOccurrences(
                    of: "restHold: {seconds: 0.7,", with: "restHold: {seconds: 0.4,")
                try? edited.write(toFile: path + ".swp", atomically: false, encoding: .utf8)
                _ = rename(path + ".swp", path)
            }
        ) { $0.contains(#""type":"version""#) }
        #expect(events.contains("retry: 1000"), "\(events)")
        let newer = try #require(
            events.matches(of: /"type":"version","version":(\d+)/).compactMap { Int($0.output.1) }.last, "\(events)")
        #expect(newer > version)
        let state = try f.state(try await f.get("/api/state"))
        let hold = (state["params"] as? [[String: Any]])?.first { $0["key"] as? String == "timing.restHold" }
        #expect((hold?["fields"] as? [[String: Any]])?.first?["value"] as? String == "0.4")

        // Saved once the stream is open: an event sent before it would not reach it.
        let broken = try await f.http.stream(
            "/api/events?token=\(f.token)",
            opened: {
                try? original.replacingOccurrences(of: "restHold: {seconds: 0.7,", with: "restHold: {seconds: later,")
                    .write(toFile: path, atomically: true, encoding: .utf8)
            }
        ) { $0.contains(#""type":"error""#) }
        #expect(broken.contains("expanding-view.yaml:25: params.timing.restHold: expected seconds"))
        #expect(try f.state(try await f.get("/api/state"))["version"] as? Int == newer)
    }

    @Test("Export writes the bytes the library's export (flipbook render's) writes for the same values")
    func export() async throws {
        let f = try await StudioFixture.start()
        defer { Task { await f.stop() } }
        _ = try await f.post("/api/edit", #"{"values": {"expand.duration": "0.5"}}"#)
        let gif = try await f.post("/api/export?format=gif")
        #expect(gif.status == 200 && gif.headers["content-type"] == "image/gif")
        let command = try #require(gif.headers["x-flipbook-command"])
        #expect(command.hasSuffix("--set expand.duration=0.5 -o expanding-view-bottom.gif"))
        let out = (f.folder as NSString).appendingPathComponent("cli.gif")
        var request = ExportRequest(scene: f.scenePath)
        request.assignments = ["expand.duration=0.5"]
        request.output = out
        _ = try request.run()
        #expect(gif.body == Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(try await f.post("/api/export?format=tiff").status == 400)
    }

    @Test("Export takes render options as flipbook render does: a width, a frame rate, a size budget")
    func exportOptions() async throws {
        let f = try await StudioFixture.start()
        defer { Task { await f.stop() } }
        let small = try await f.post("/api/export?format=gif&width=160&fps=15&max-size=400kB")
        #expect(small.status == 200)
        // The GIF's logical screen: its width and height, little-endian, after the signature.
        let width = Int(small.body[6]) | Int(small.body[7]) << 8
        #expect(width == 160 && small.body.count <= 400_000, "\(width) px, \(small.body.count) B")
        let command = try #require(small.headers["x-flipbook-command"])
        #expect(command.contains("--fps 15 --width 160 --max-size 400kB -o expanding-view-bottom.gif"), "\(command)")
        let bad = try await f.post("/api/export?format=gif&width=5")
        #expect(bad.status == 400 && bad.text.trimmingCharacters(in: .newlines) == "width 5: expected 16...8192 pixels")
        let notAnOption = try await f.post("/api/export?format=webp&lossy=20")
        #expect(notAnOption.status == 400 && notAnOption.text.hasPrefix("lossy: a GIF setting"), "\(notAnOption.text)")
    }

    @Test("A param's search terms come from the server: its kind, fields, curve and what its handles set")
    func searchTerms() async throws {
        let f = try await StudioFixture.start()
        defer { Task { await f.stop() } }
        _ = try await f.post("/api/edit", #"{"values": {"expand.curve": "spring"}}"#)
        let params = try #require(try f.state(try await f.get("/api/state"))["params"] as? [[String: Any]])
        let expand = try #require(params.first { $0["key"] as? String == "expand" })
        let terms = try #require(expand["terms"] as? [String])
        #expect(
            terms == ["animation", "duration", "dampingRatio", "velocity", "curve", "spring", "bounce"], "\(terms)")
    }

    @Test("The CLI box's command is the export the same options ask for, without making it")
    func command() async throws {
        let f = try await StudioFixture.start()
        defer { Task { await f.stop() } }
        let command = try await f.get("/api/command?format=webp&width=160&fps=15&max-size=400kB")
        #expect(command.status == 200)
        #expect(
            command.text.trimmingCharacters(in: .newlines).hasSuffix(
                "--fps 15 --width 160 --max-size 400kB -o expanding-view-bottom.webp"),
            "\(command.text)")
        #expect(try await f.get("/api/command?width=5").text.hasPrefix("width 5: expected 16...8192 pixels"))
    }

    @Test("With a recording: its frame at the scrubber's instant, and the difference from ours")
    func against() async throws {
        let folder = temporaryFolder()
        let recording = (folder as NSString).appendingPathComponent("recording.gif")
        try Transition("expanding-view", set: ["expand.duration=0.6"]).write(to: recording)
        let f = try await StudioFixture.start(against: recording)
        defer { Task { await f.stop() } }
        let state = try f.state(try await f.get("/api/state"))
        let version = try #require(state["version"] as? Int)
        #expect((state["against"] as? [String: Any])?["width"] as? Int == 320)
        let theirs = try await f.get("/api/frame?v=\(version)&t=0.1&of=against")
        #expect(theirs.status == 200 && theirs.headers["content-type"] == "image/png")
        // At rest the two are the same picture (but for the GIF's palette); mid-expand they differ.
        let still = try await f.get("/api/frame?v=\(version)&t=0.1&of=diff")
        let stillShare = try #require(Double(still.headers["x-flipbook-difference"] ?? ""))
        #expect(stillShare < 0.01)
        let moving = try await f.get("/api/frame?v=\(version)&t=0.95&of=diff")
        let movingShare = try #require(Double(moving.headers["x-flipbook-difference"] ?? ""))
        #expect(movingShare > stillShare + 0.01)
    }

    @Test("With features to follow, each version is scored as flipbook score scores it: the render's own GIF at 0 px")
    func score() async throws {
        let folder = temporaryFolder()
        let recording = (folder as NSString).appendingPathComponent("itself.gif")
        try Transition("expanding-view").write(to: recording)
        let features = (folder as NSString).appendingPathComponent("features.yaml")
        try """
        features:
          - name: circle edge
            extent: {from: [160, 502], to: 0, axis: y, colour-at: [160, 502, 0.0]}
            during: [0, 1.7]

        """.write(toFile: features, atomically: true, encoding: .utf8)
        let f = try await StudioFixture.start(against: recording, features: features)
        defer { Task { await f.stop() } }
        let state = try f.state(try await f.get("/api/state"))
        let against = try #require(state["against"] as? [String: Any])
        #expect(against["features"] as? String == features && against["featureNames"] as? [String] == ["circle edge"])
        func figures(_ v: Int) async throws -> [String: Any] {
            let response = try await f.get("/api/score?v=\(v)")
            #expect(response.status == 200, "\(response.text)")
            return try f.state(response)
        }
        let version = try #require(state["version"] as? Int)
        let same = try await figures(version)
        let feature = try #require((same["features"] as? [[String: Any]])?.first)
        #expect(feature["name"] as? String == "circle edge" && (feature["frames"] as? Int ?? 0) > 20)
        #expect(feature["rms"] as? Double == 0 && (same["comparedFrames"] as? Int ?? 0) > 10)
        // A slower expand is behind the recording: its figures say so, and they are the command's.
        let edited = try f.state(try await f.post("/api/edit", #"{"values": {"expand.duration": "0.8"}}"#))
        let slower = try await figures(try #require(edited["version"] as? Int))
        let late = try #require((slower["features"] as? [[String: Any]])?.first)
        // The studio keeps the start it found for the recording (0: it is this render's own)
        // while values change: `flipbook score --set … --start 0`.
        var request = ScoreRequest(scene: f.scenePath, features: try FeatureFile.load(features).features)
        request.assignments = ["expand.duration=0.8"]
        request.start = 0
        let command = try Scorer.score(request, recording: FrameSequence.load(recording))
        #expect((late["rms"] as? Double ?? 0) > 50)
        #expect(
            abs((late["rms"] as? Double ?? 0) - command.features[0].rms) < 1e-9,
            "\(late) against \(command.features[0])")
        #expect((late["lag"] as? [String: Any])?["frames"] as? Double == command.features[0].lag?.frames)
        #expect(try await f.get("/api/score?v=999").status == 410)
    }

    @Test("Without features there is no score to ask for; features without a recording do not start")
    func noScore() async throws {
        let f = try await StudioFixture.start()
        defer { Task { await f.stop() } }
        let version = try #require(try f.state(try await f.get("/api/state"))["version"] as? Int)
        #expect(try await f.get("/api/score?v=\(version)").status == 404)
        #expect(throws: StudioError.self) {
            _ = try StudioSession(options: StudioOptions(scene: "expanding-view", features: "/nonexistent.yaml"))
        }
    }

    @Test(
        "A recording of the render itself differs by nothing but its palette at every frame the page names, mid-motion too"
    )
    func againstItself() async throws {
        let folder = temporaryFolder()
        let recording = (folder as NSString).appendingPathComponent("itself.gif")
        try Transition("expanding-view").write(to: recording)
        let f = try await StudioFixture.start(against: recording)
        defer { Task { await f.stop() } }
        let version = try #require(try f.state(try await f.get("/api/state"))["version"] as? Int)
        // The expand, 0.7-1.1 s at 30 fps: its frames 2/30 s apart start 0.07 s apart in the GIF
        // (a centisecond after k/30 every third frame).
        // Between frames the page names the frame it shows (k); at a frame's time, t will do.
        for k in 21...33 {
            for at in ["k=\(k)", "t=\(Double(k) / 30)"] {
                let diff = try await f.get("/api/frame?v=\(version)&\(at)&of=diff")
                let share = try #require(Double(diff.headers["x-flipbook-difference"] ?? ""))
                #expect(share < 0.01, "\(at): \(share)")
            }
        }
        #expect(try await f.get("/api/frame?v=\(version)&k=999&of=diff").status == 400)
        #expect(try await f.get("/api/frame?v=\(version)&of=diff").status == 400)
    }

    @Test("A recording of another size is drawn at the render's size, and compared there")
    func againstAnotherSize() async throws {
        let folder = temporaryFolder()
        let recording = (folder as NSString).appendingPathComponent("half.gif")
        try Transition("expanding-view", width: 160).write(to: recording)
        let f = try await StudioFixture.start(against: recording)
        defer { Task { await f.stop() } }
        let version = try #require(try f.state(try await f.get("/api/state"))["version"] as? Int)
        let theirs = try await f.get("/api/frame?v=\(version)&t=0.1&of=against")
        #expect(theirs.status == 200)
        let size = try Bitmap(pngData: theirs.body)
        #expect(size.width == 320 && size.height == 568)
        let diff = try await f.get("/api/frame?v=\(version)&t=0.1&of=diff")
        #expect(diff.status == 200)
        let share = try #require(Double(diff.headers["x-flipbook-difference"] ?? ""))
        #expect(share > 0 && share < 0.5)
    }

    @Test(
        "Listening on every address, a Host is taken when it is an IP literal or localhost with the port, never a DNS name"
    )
    func wildcardHosts() {
        let gate = Gate(host: "0.0.0.0", port: 8000, token: "t")
        for header in ["127.0.0.1:8000", "localhost:8000", "192.168.1.5:8000", "[fe80::1]:8000", "[::1]:8000"] {
            #expect(gate.isThisServer(header), "\(header)")
        }
        for header in ["rebound.example:8000", "192.168.1.5:9000", "192.168.1.5", "1.2.3:8000", "300.1.1.1:8000"] {
            #expect(!gate.isThisServer(header), "\(header)")
        }
        let loopback = Gate(host: "127.0.0.1", port: 8000, token: "t")
        #expect(!loopback.isThisServer("192.168.1.5:8000"))
    }
}
