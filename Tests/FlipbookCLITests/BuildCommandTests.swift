import Build
import Flipbook
import Codecs
import Raster
import Foundation
import Testing

/// `flipbook build` as a team uses it: a 2 × 2 variant matrix over two scenes, built once,
/// skipped when fresh, rebuilt exactly where an image or a param changed, checked in CI, and
/// split across machines.
@Suite("flipbook build, run as a user runs it")
struct BuildCommandTests {
    static let manifest = """
        # The docs' previews
        defaults: {fps: 4}
        variants:
          pace:
            normal: {}
            slow: {speed: 0.5}
          size:
            small: {width: 96}
            large: {width: 128}
        outputs:
          - path: out/view-{pace}-{size}.gif
            scene: expanding-view
            storyboard: bottom
            set: {assets.next: shots/next.png, buttonColor: "#FF6534"}
            variants: [pace, size]
          - path: out/cells-{pace}-{size}.webp
            scene: expanding-cells
            variants: [pace, size]
        """

    static let all = [
        "out/view-normal-small.gif", "out/view-normal-large.gif", "out/view-slow-small.gif", "out/view-slow-large.gif",
        "out/cells-normal-small.webp", "out/cells-normal-large.webp", "out/cells-slow-small.webp",
        "out/cells-slow-large.webp",
    ]

    /// A project folder with the manifest and a screenshot of its own.
    static func project(_ manifest: String = Self.manifest) throws -> String {
        let dir = temporaryFolder("build")
        try FileManager.default.createDirectory(atPath: dir + "/shots", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.assets + "/expanding-view/next.png", toPath: dir + "/shots/next.png")
        try manifest.write(toFile: dir + "/flipbook.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    static var assets: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets").path
    }

    static func build(_ dir: String, _ more: [String] = []) throws -> ToolRun {
        try Tool.run(["build", "--manifest", dir + "/flipbook.yaml"] + more)
    }

    /// The outputs `--check` calls stale or missing.
    static func stale(_ dir: String) throws -> [String] {
        let run = try build(dir, ["--check"])
        return run.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("stale: ") || line.hasPrefix("missing: ") ? String(line.split(separator: " ")[1]) : nil
        }.sorted()
    }

    static func modified(_ path: String) throws -> Date {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
    }

    @Test("builds the matrix, skips it when fresh, rebuilds exactly what an image or a param touched")
    func freshness() throws {
        let dir = try Self.project()
        var run = try Self.build(dir, ["--check"])
        #expect(run.status == 1)
        #expect(try Self.stale(dir) == Self.all.sorted())
        #expect(run.stderr.contains("8 of 8 outputs need a build"))

        run = try Self.build(dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("built 8, skipped 0 (fresh), failed 0"), "\(run.stdout)")
        for path in Self.all {
            #expect(OutputStamp.read(dir + "/" + path)?.count == OutputStamp.length, "\(path)")
        }
        let slow = try GIFDecoder.read(path: dir + "/out/view-slow-large.gif")
        let normal = try GIFDecoder.read(path: dir + "/out/view-normal-small.gif")
        #expect(slow.width == 128)
        #expect(normal.width == 96)
        #expect(abs(slow.centiseconds - 2 * normal.centiseconds) <= 25)

        // Fresh: nothing is rendered or written again.
        let before = try Self.all.map { try Self.modified(dir + "/" + $0) }
        run = try Self.build(dir)
        #expect(run.stdout.contains("built 0, skipped 8 (fresh), failed 0"), "\(run.stdout)")
        #expect(try Self.all.map { try Self.modified(dir + "/" + $0) } == before)
        run = try Self.build(dir, ["--check"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("8 outputs are up to date"))

        // A changed screenshot: the four outputs that read it, no others.
        let shot = try PNGCodec.read(path: dir + "/shots/next.png")
        var pixels = shot.pixels
        pixels[0..<4] = [255, 0, 0, 255]
        try PNGCodec.write(
            Bitmap(width: shot.width, height: shot.height, rowBytes: shot.rowBytes, premultipliedPixels: pixels),
            to: dir + "/shots/next.png")
        #expect(try Self.stale(dir) == Self.all.filter { $0.hasPrefix("out/view-") }.sorted())
        // --check says which part of each key changed.
        run = try Self.build(dir, ["--check"])
        #expect(run.stdout.contains("stale: out/view-normal-small.gif (changed: an image)"), "\(run.stdout)")
        run = try Self.build(dir)
        #expect(run.stdout.contains("built 4, skipped 4 (fresh), failed 0"), "\(run.stdout)")
        #expect(try Self.stale(dir) == [])

        // A changed param: the outputs of the entry that sets it.
        try Self.manifest.replacingOccurrences(of: "#FF6534", with: "#3366FF").write(
            toFile: dir + "/flipbook.yaml", atomically: true, encoding: .utf8)
        #expect(try Self.stale(dir) == Self.all.filter { $0.hasPrefix("out/view-") }.sorted())
        run = try Self.build(dir, ["--check"])
        #expect(run.stdout.contains("stale: out/view-normal-small.gif (changed: its settings)"), "\(run.stdout)")
        run = try Self.build(dir)
        #expect(run.stdout.contains("built 4, skipped 4 (fresh), failed 0"), "\(run.stdout)")

        // A variant's value changed: that value's outputs, in both scenes; a glob builds some.
        try Self.manifest.replacingOccurrences(of: "#FF6534", with: "#3366FF")
            .replacingOccurrences(of: "speed: 0.5", with: "speed: 0.6").write(
                toFile: dir + "/flipbook.yaml", atomically: true, encoding: .utf8)
        #expect(try Self.stale(dir) == Self.all.filter { $0.contains("-slow-") }.sorted())
        run = try Self.build(dir, ["out/*-slow-small.*"])
        #expect(run.stdout.contains("built 2, skipped 0 (fresh), failed 0"), "\(run.stdout)")
        #expect(try Self.stale(dir) == ["out/cells-slow-large.webp", "out/view-slow-large.gif"])

        // A removed output is missing.
        try FileManager.default.removeItem(atPath: dir + "/out/cells-normal-small.webp")
        run = try Self.build(dir, ["--check"])
        #expect(run.stdout.contains("missing: out/cells-normal-small.webp"))
    }

    @Test("four shards: every output in exactly one, the same split on every machine")
    func shards() throws {
        let dir = try Self.project()
        var seen: [String] = []
        for i in 1...4 {
            let run = try Self.build(dir, ["--list", "--shard", "\(i)/4"])
            #expect(run.status == 0, "\(run.stderr)")
            let list = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [[String: Any]]
            #expect(!list.isEmpty)
            seen += list.map { $0["path"] as! String }
            for entry in list {
                #expect((entry["cost"] as! Double) > 0)
                #expect((entry["command"] as! String).hasPrefix("flipbook render "))
                #expect(entry["state"] as! String == "missing")
            }
        }
        #expect(seen.sorted() == Self.all.sorted())
        // Built shard by shard, the whole manifest is fresh, each output built once.
        var built = 0
        for i in 1...4 {
            let run = try Self.build(dir, ["--shard", "\(i)/4", "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            built += Int(run.stdout.split(separator: " ")[1].dropLast())!
        }
        #expect(built == 8)
        #expect(try Self.stale(dir) == [])
    }

    @Test("an output that cannot be written fails alone: the others are built, the summary counts it, exit 1")
    func oneFailure() throws {
        let dir = try Self.project(
            Self.manifest + "\n  - {path: blocked/x.gif, scene: expanding-view, storyboard: bottom, width: 96}\n")
        try "a file where a folder should be".write(toFile: dir + "/blocked", atomically: true, encoding: .utf8)
        let run = try Self.build(dir)
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAILED blocked/x.gif: "), "\(run.stdout)")
        #expect(run.stdout.contains("built 8, skipped 0 (fresh), failed 1"), "\(run.stdout)")
        #expect(try Self.stale(dir) == ["blocked/x.gif"])
    }

    @Test("a bad manifest: every problem at once, each with its line, exit 1, nothing rendered")
    func badManifest() throws {
        let dir = try Self.project(
            Self.manifest.replacingOccurrences(of: "defaults: {fps: 4}", with: "defaults: {fps: 4, qualty: 50}")
                .replacingOccurrences(of: "large: {width: 128}", with: "large: {width: 9000}"))
        let run = try Self.build(dir)
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("flipbook.yaml:2: defaults.qualty: unknown key; did you mean quality?"), "\(run.stderr)"
        )
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))

        let second = try Self.project(
            Self.manifest.replacingOccurrences(of: "large: {width: 128}", with: "large: {width: 9000}"))
        let again = try Self.build(second)
        #expect(again.status == 1)
        #expect(
            again.stderr.contains(
                "flipbook.yaml:11: outputs[0] (out/view-normal-large.gif): width 9000: expected 16...8192 pixels"),
            "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: second + "/out"))
    }
}

/// The guide's "Keep previews fresh in CI": its manifest reads. (Its workflows run as written
/// in Tests/CI, with the package they install.)
@Suite("Guide: Keep previews fresh in CI")
struct BuildGuideTests {
    static var section: String {
        get throws {
            try String(
                contentsOfFile: BuildCommandTests.assets + "/../Sources/flipbook/Guide.docc/ManifestAndCI.md",
                encoding: .utf8)
        }
    }

    static var yamlBlocks: [String] {
        get throws {
            try section.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        }
    }

    @Test func itsManifestReads() throws {
        let manifest = try BuildManifest(text: try Self.yamlBlocks[0], file: "flipbook.yaml")
        #expect(manifest.outputs.count == 4 + 2 + 1)
        #expect(manifest.outputs[3].path == "previews/inbox-dark-retina.gif")
        #expect(manifest.outputs[3].assignments.contains("assets.list=shots/dark/list.png"))
    }
}

/// Outputs are files, however a manifest spells them; outputs that read others wait for them.
@Suite("flipbook build: paths resolved, dependencies first, cycles refused")
struct BuildDependencyTests {
    @Test("Two spellings of one file are one output: the manifest is refused, naming both")
    func spellings() throws {
        let dir = try BuildCommandTests.project(
            """
            defaults: {fps: 4, width: 64}
            outputs:
              - {path: out/a.gif, scene: expanding-view}
              - {path: ./out//a.gif, scene: expanding-view, speed: 2}
              - {path: out/x/../a.gif, scene: expanding-cells}
            """)
        let run = try BuildCommandTests.build(dir)
        #expect(run.status != 0)
        #expect(
            run.stderr.contains("./out//a.gif is the file out/a.gif that line 3 writes; each output needs its own"),
            "\(run.stderr)")
        #expect(run.stderr.contains("out/x/../a.gif is the file out/a.gif"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
    }

    @Test("Outputs that read each other in a cycle are refused before any render")
    func cycle() throws {
        let dir = try BuildCommandTests.project(
            """
            defaults: {fps: 4, width: 64}
            outputs:
              - {path: out/a.png, scene: expanding-view, time: 1, set: {assets.next: out/b.png}}
              - {path: out/b.png, scene: expanding-view, time: 1, set: {assets.next: out/a.png}}
            """)
        let run = try BuildCommandTests.build(dir)
        #expect(run.status != 0)
        #expect(run.stderr.contains("outputs read each other in a cycle"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
    }

    @Test("A chain is built in one run, dependencies first, and is fresh at once; changing its root rebuilds it all")
    func chain() throws {
        // c reads b, which reads a: listed backwards, and a is the cheapest.
        let dir = try BuildCommandTests.project(
            """
            defaults: {fps: 4, width: 64}
            outputs:
              - {path: out/c.gif, scene: expanding-view, width: 128, set: {assets.next: out/b.png}}
              - {path: out/b.png, scene: expanding-view, time: 1.5, set: {assets.next: out/a.png}}
              - {path: out/a.png, scene: expanding-view, time: 1.5, set: {assets.next: shots/next.png}}
            """)
        let run = try BuildCommandTests.build(dir, ["--jobs", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("built 3, skipped 0 (fresh), failed 0"), "\(run.stdout)")
        let built = run.stdout.split(separator: "\n").filter { $0.contains("] built ") }
        let order = built.compactMap { line in ["out/a.png", "out/b.png", "out/c.gif"].first { line.contains($0) } }
        #expect(order == ["out/a.png", "out/b.png", "out/c.gif"], "\(run.stdout)")
        #expect(try BuildCommandTests.stale(dir) == [])
        // The root's screenshot changes: all three are stale, and one build makes them fresh.
        try FileManager.default.removeItem(atPath: dir + "/shots/next.png")
        try FileManager.default.copyItem(
            atPath: BuildCommandTests.assets + "/expanding-view/screen.png", toPath: dir + "/shots/next.png")
        #expect(try BuildCommandTests.stale(dir) == ["out/a.png", "out/b.png", "out/c.gif"])
        #expect(try BuildCommandTests.build(dir).status == 0)
        #expect(try BuildCommandTests.stale(dir) == [])
    }
}

/// A manifest from anywhere is bounded and stays in its folder; a stamp alone is not trusted.
@Suite("flipbook build: bounded manifests, their own folder, stamps on whole files only")
struct BuildPolicyTests {
    @Test("Axes that multiply past the cap are refused before anything is expanded, naming the count")
    func expansionCap() throws {
        let axes = (0..<10).map { a in "  a\(a): {" + (0..<10).map { "v\($0): {}" }.joined(separator: ", ") + "}" }
        let dir = try BuildCommandTests.project(
            "variants:\n" + axes.joined(separator: "\n") + "\noutputs:\n  - {path: 'out/"
                + (0..<10).map { "{a\($0)}" }.joined(separator: "-") + ".gif', scene: expanding-view, variants: ["
                + (0..<10).map { "a\($0)" }.joined(separator: ", ") + "]}\n")
        let run = try BuildCommandTests.build(dir, ["--check"])
        #expect(run.status != 0 && run.stderr.contains("expands to 10000000000 outputs"), "\(run.stderr)")
        #expect(run.stderr.contains("a manifest makes at most 10000"))
    }

    @Test("A set: of more keys than any scene has is refused")
    func assignmentCap() throws {
        let keys = (0..<1001).map { "k\($0): 1" }.joined(separator: ", ")
        let dir = try BuildCommandTests.project(
            "outputs:\n  - {path: out/a.gif, scene: expanding-view, set: {\(keys)}}\n")
        let run = try BuildCommandTests.build(dir, ["--check"])
        #expect(run.status != 0 && run.stderr.contains("1001 keys: at most 1000"), "\(run.stderr)")
    }

    @Test(
        "An output outside the manifest's folder is refused unless --allow-outside",
        arguments: ["../x.gif", "/tmp/flipbook-outside-x.gif"])
    func outside(path: String) throws {
        let dir = try BuildCommandTests.project(
            "outputs:\n  - {path: '\(path)', scene: expanding-view, fps: 4, width: 64}\n")
        let run = try BuildCommandTests.build(dir, ["--check"])
        #expect(
            run.status != 0 && run.stderr.contains("is outside the manifest's folder")
                && run.stderr.contains("; --allow-outside lets it through"), "\(run.stderr)")
        let allowed = try BuildCommandTests.build(dir, ["--list", "--allow-outside"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }

    @Test("A header-only GIF carrying a fresh key is stale: a stamp is believed only of a whole file")
    func stampAlone() throws {
        let dir = try BuildCommandTests.project(
            "outputs:\n  - {path: out/a.gif, scene: expanding-view, fps: 4, width: 64}\n")
        #expect(try BuildCommandTests.build(dir).status == 0)
        #expect(try BuildCommandTests.stale(dir) == [])
        let key = try #require(OutputStamp.read(dir + "/out/a.gif"))
        #expect(ContainerCheck.isWhole(dir + "/out/a.gif"))
        // GIF89a, a 1x1 screen with no colour table, and the trailer: no image at all.
        try Data([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0, 0x3B]).write(
            to: URL(fileURLWithPath: dir + "/out/a.gif"))
        try OutputStamp.write(key, to: dir + "/out/a.gif")
        #expect(OutputStamp.read(dir + "/out/a.gif") == key && !ContainerCheck.isWhole(dir + "/out/a.gif"))
        #expect(try BuildCommandTests.stale(dir) == ["out/a.gif"])
        let check = try BuildCommandTests.build(dir, ["--check"])
        #expect(check.stdout.contains("stale: out/a.gif (changed: the file itself, which is cut short or damaged)"))
    }

    @Test("A manifest's negative value, a still past the end and a file in an output's way are each said plainly")
    func messages() throws {
        let negative = try BuildCommandTests.project(
            "outputs:\n  - {path: out/a.gif, scene: expanding-view, speed: -1}\n")
        let a = try BuildCommandTests.build(negative, ["--check"])
        #expect(
            a.stderr.contains(": speed -1.0: expected a factor in 0.01...100") && !a.stderr.contains("Missing value")
                && !a.stderr.contains("--speed"),
            "\(a.stderr)")
        let late = try BuildCommandTests.project("outputs:\n  - {path: out/a.png, scene: expanding-view, time: 99}\n")
        let b = try BuildCommandTests.build(late, ["--check"])
        #expect(b.status != 0 && b.stderr.contains("is past the end of the"), "\(b.stderr)")
        let blocked = try BuildCommandTests.project(
            "outputs:\n  - {path: out/x/a.gif, scene: expanding-view, fps: 4, width: 64}\n")
        try FileManager.default.createDirectory(atPath: blocked + "/out", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: blocked + "/out/x"))
        let c = try BuildCommandTests.build(blocked)
        #expect(
            c.status == 1 && c.stdout.contains("out/x is a file, where its folder must be"), "\(c.stdout) \(c.stderr)")
        #expect(!c.stdout.contains("NSCocoaErrorDomain") && !c.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test("Two builds of one manifest write byte-identical MP4s, odd heights and all")
    func reproducibleVideo() throws {
        // 320 px wide, sliding-panels and app-store-card are odd in height: the encoder pads them.
        let dir = try BuildCommandTests.project(
            """
            defaults: {fps: 5, width: 320}
            outputs:
              - {path: out/a.mp4, scene: sliding-panels}
              - {path: out/b.mp4, scene: app-store-card}
            """)
        #expect(try BuildCommandTests.build(dir).status == 0)
        let first = try ["a", "b"].map { try Data(contentsOf: URL(fileURLWithPath: "\(dir)/out/\($0).mp4")) }
        try FileManager.default.removeItem(atPath: dir + "/out")
        #expect(try BuildCommandTests.build(dir, ["--jobs", "1"]).status == 0)
        let second = try ["a", "b"].map { try Data(contentsOf: URL(fileURLWithPath: "\(dir)/out/\($0).mp4")) }
        #expect(first == second)
    }
}
