import Flipbook
import Foundation
import Glibc
import TestSupport
import Testing

@testable import Studio

/// Nothing the user did is lost: an edit made in an editor while the page holds another is
/// never written over, a symlinked scene stays a link, and every value the page can set saves.
@Suite("The studio never loses an edit", .serialized)
struct StudioDiskChangeTests {
    /// Replaces `old` with `new` in the scene file, as an editor would.
    func edit(_ f: StudioFixture, _ old: String, _ new: String) throws {
        let text = try String(contentsOfFile: f.scenePath, encoding: .utf8)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(toFile: f.scenePath, atomically: false, encoding: .utf8)
    }

    func diskChange(_ state: [String: Any]) -> [String: Any]? { state["diskChange"] as? [String: Any] }

    @Test("A key changed on disk under the page's edit of it: save refuses (409) and writes nothing until a choice")
    func conflictRefused() async throws {
        let f = try await StudioFixture.start("expanding-cells")
        defer { Task { await f.stop() } }
        _ = try await f.post("/api/edit", #"{"values": {"timing.listHold": "0.3"}}"#)
        try edit(f, "listHold: {seconds: 1.08", "listHold: {seconds: 0.6")
        let onDisk = try String(contentsOfFile: f.scenePath, encoding: .utf8)
        let refused = try await f.post("/api/save")
        #expect(refused.status == 409)
        let change = try #require(diskChange(try f.state(refused)))
        #expect(change["conflicts"] as? [String] == ["timing.listHold"])
        #expect(change["disk"] as? [String: String] == ["timing.listHold": "0.6"])
        #expect(change["mine"] as? [String: String] == ["timing.listHold": "0.3"])
        #expect(try String(contentsOfFile: f.scenePath, encoding: .utf8) == onDisk)
        // Still refused on a second try: only a choice settles it.
        #expect(try await f.post("/api/save").status == 409)
        #expect(try String(contentsOfFile: f.scenePath, encoding: .utf8) == onDisk)
    }

    @Test(
        "Reload takes the file's values; keep mine writes the page's over that one key and keeps the rest of the file")
    func choices() async throws {
        let f = try await StudioFixture.start("expanding-cells")
        defer { Task { await f.stop() } }
        _ = try await f.post("/api/edit", #"{"values": {"timing.listHold": "0.3", "present.duration": "0.9"}}"#)
        try edit(f, "listHold: {seconds: 1.08", "listHold: {seconds: 0.6")
        #expect(try await f.post("/api/save").status == 409)
        // Merge, keeping the file's listHold: the page keeps its other edit, and saves it alone.
        let merged = try f.state(try await f.post("/api/settle", #"{"choice": "merge", "keep": []}"#))
        #expect(diskChange(merged) == nil)
        #expect(merged["edits"] as? [String: String] == ["present.duration": "0.9"])
        #expect(try await f.post("/api/save").status == 200)
        let text = try String(contentsOfFile: f.scenePath, encoding: .utf8)
        #expect(text.contains("listHold: {seconds: 0.6") && text.contains("duration: 0.9"))

        // Keep mine: the page's value goes over the file's, for that key only.
        _ = try await f.post("/api/edit", #"{"values": {"timing.listHold": "0.25"}}"#)
        try edit(f, "listHold: {seconds: 0.6", "listHold: {seconds: 0.7")
        try edit(f, "duration: 0.9", "duration: 0.8")
        #expect(try await f.post("/api/save").status == 409)
        _ = try await f.post("/api/settle", #"{"choice": "merge", "keep": ["timing.listHold"]}"#)
        #expect(try await f.post("/api/save").status == 200)
        let kept = try String(contentsOfFile: f.scenePath, encoding: .utf8)
        #expect(kept.contains("listHold: {seconds: 0.25") && kept.contains("duration: 0.8"))

        // Reload: every edit dropped, the file as it is.
        _ = try await f.post("/api/edit", #"{"values": {"timing.listHold": "0.5"}}"#)
        try edit(f, "duration: 0.8", "duration: 0.7")
        let reloaded = try f.state(try await f.post("/api/settle", #"{"choice": "reload"}"#))
        #expect(reloaded["edits"] as? [String: String] == [:])
        #expect(try String(contentsOfFile: f.scenePath, encoding: .utf8).contains("duration: 0.7"))
    }

    @Test("A change on disk to a key the page did not touch is taken, and save goes through")
    func noConflict() async throws {
        let f = try await StudioFixture.start("expanding-cells")
        defer { Task { await f.stop() } }
        _ = try await f.post("/api/edit", #"{"values": {"present.duration": "0.9"}}"#)
        try edit(f, "listHold: {seconds: 1.08", "listHold: {seconds: 0.6")
        let refused = try await f.post("/api/save")
        #expect(refused.status == 409)
        #expect(diskChange(try f.state(refused))?["conflicts"] as? [String] == [])
        _ = try await f.post("/api/settle", #"{"choice": "merge", "keep": []}"#)
        #expect(try await f.post("/api/save").status == 200)
        let text = try String(contentsOfFile: f.scenePath, encoding: .utf8)
        #expect(text.contains("listHold: {seconds: 0.6") && text.contains("duration: 0.9"))
    }

    @Test("A symlinked scene file stays a link on save; its target is written, its mode kept")
    func symlinkedScene() async throws {
        let folder = temporaryFolder()
        let copy = folder + "/ec"
        try FileManager.default.copyItem(atPath: Transition.assetsFolder + "/expanding-cells", toPath: copy)
        chmod(copy + "/expanding-cells.yaml", 0o664)
        #expect(symlink("expanding-cells.yaml", copy + "/linked.yaml") == 0)
        let session = try StudioSession(options: StudioOptions(scene: copy + "/linked.yaml"))
        session.edit(["present.duration": "0.9"])
        try session.save()
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: copy + "/linked.yaml"))
                == "expanding-cells.yaml")
        #expect(try String(contentsOfFile: copy + "/expanding-cells.yaml", encoding: .utf8).contains("duration: 0.9"))
        var info = stat()
        stat(copy + "/expanding-cells.yaml", &info)
        #expect(info.st_mode & 0o777 == 0o664)
    }

    @Test(
        "Every value the page sets saves and reads back: a damping ratio, curves with commas",
        arguments: [
            ("demo.position.dampingRatio", "0.7"), ("demo.size.curve", "bezier:0.2,0,0,1"),
            ("demo.size.curve", "spring:duration=0.3,dampingRatio=1"),
        ])
    func savesEveryValue(key: String, value: String) async throws {
        let folder = temporaryFolder()
        try FileManager.default.copyItem(atPath: Transition.assetsFolder + "/app-store-card", toPath: folder + "/c")
        let scene = folder + "/c/app-store-card.yaml"
        let param = key.split(separator: ".").dropLast().joined(separator: ".")
        let first = try Transition(scene).parameters.first { $0.key == param }
        try #require(first?.animation != nil, "\(param) is an animation param")
        let session = try StudioSession(options: StudioOptions(scene: scene))
        #expect(session.edit([key: value]) == nil)
        try session.save()
        let a = try #require(try Transition(scene).parameters.first { $0.key == param }?.animation)
        let part = String(key.split(separator: ".").last!)
        #expect((part == "dampingRatio" ? a.dampingRatio.plainText : a.curve) == value)
    }

    @Test("A storyboard that does not load is not taken: the studio stays on the one it showed")
    func rejectedStoryboard() async throws {
        let f = try await StudioFixture.start("expanding-cells")
        defer { Task { await f.stop() } }
        let before = try f.state(try await f.get("/api/state"))["storyboard"] as? String
        let r = try await f.post("/api/view", #"{"storyboard": "no-such-storyboard"}"#)
        #expect(r.status == 422)
        let state = try f.state(r)
        #expect(state["storyboard"] as? String == before)
        #expect(try f.state(try await f.get("/api/state"))["storyboard"] as? String == before)
    }
}
