import Codecs
import FlipbookCLI
import Foundation
import Testing

@Suite("flipbook render, list, config, plan, run as a user runs them")
struct RenderCommandTests {
    @Test("render writes a GIF of the chosen frames and says what it wrote")
    func renderGIF() throws {
        let out = temporaryFolder() + "/inbox.gif"
        let run = try Tool.run(["render", "expanding-cells", "-o", out, "--frames", "30-50", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let gif = try GIFDecoder.read(path: out)
        #expect(gif.width == 375 && gif.height == 667)
        #expect(gif.centiseconds == 70)  // 21 frames at 30 fps
    }

    @Test("--width: frames that wide, the height following the canvas, the same size in every output")
    func width() throws {
        let dir = temporaryFolder()
        #expect(
            try Tool.run([
                "render", "expanding-cells", "-o", dir + "/s.png", "--time", "2", "--width", "300", "--quiet",
            ]).status == 0)
        let still = try PNGCodec.read(path: dir + "/s.png")
        #expect(still.width == 300 && still.height == 534)  // 667 x 0.8, rounded
        for out in ["a.gif", "a.webp"] {
            let run = try Tool.run([
                "render", "sliding-panels", "-o", "\(dir)/\(out)", "--width", "200", "--frames", "0-30",
            ])
            #expect(run.status == 0 && run.stdout.contains("200 px wide"), "\(run.stderr)")
        }
        #expect(try GIFDecoder.read(path: dir + "/a.gif").height == 356)
    }

    @Test(
        "A value its animation's curve does not read is said to change nothing: a Bézier's damping, the system spring's duration",
        arguments: [
            (
                "expand.dampingRatio=0.5",
                "warning: --set expand.dampingRatio=0.5: expand runs the curve easeIn, which reads no dampingRatio, so this changes nothing (expand.curve=spring makes it UIKit's spring)"
            ),
            (
                "close.duration=0.7",
                "warning: --set close.duration=0.7: close runs the curve system, which reads no duration, so this changes nothing"
            ),
        ])
    func unreadAnimationPart(assignment: String, warning: String) throws {
        let out = temporaryFolder() + "/view.gif"
        let run = try Tool.run([
            "render", "expanding-view", "--storyboard", "small", "--fps", "5", "--set", assignment, "-o", out,
            "--quiet",
        ])
        #expect(run.status == 0 && run.stderr.contains(warning), "\(run.stderr)")
        // A part the curve reads says nothing.
        let read = try Tool.run([
            "render", "expanding-view", "--storyboard", "small", "--fps", "5", "--set", "expand.duration=0.5", "-o",
            out,
            "--quiet",
        ])
        #expect(read.status == 0 && !read.stderr.contains("changes nothing"), "\(read.stderr)")
    }

    @Test(
        "A config's animation part its curve does not read is said too, at its line; a --set curve that reads it is not"
    )
    func unreadAnimationPartInConfig() throws {
        let folder = temporaryFolder()
        try "version: 1\nexpand:\n  dampingRatio: 0.5\n  duration: 0.4\n".write(
            toFile: folder + "/c.yaml", atomically: true, encoding: .utf8)
        let base = ["render", "expanding-view", "--fps", "5", "--config", folder + "/c.yaml", "-o", folder + "/v.gif"]
        let run = try Tool.run(base + ["--quiet"])
        #expect(
            run.status == 0
                && run.stderr
                    == "warning: \(folder)/c.yaml:3: expand.dampingRatio: expand runs the curve easeIn, which reads no dampingRatio, so this changes nothing (expand.curve=spring makes it UIKit's spring)\n",
            "\(run.stderr)")
        let spring = try Tool.run(base + ["--set", "expand.curve=spring", "--quiet"])
        #expect(spring.status == 0 && spring.stderr.isEmpty, "\(spring.stderr)")
    }

    @Test("render a PNG still at a time, at @2x")
    func still() throws {
        let out = temporaryFolder() + "/still.png"
        let run = try Tool.run(["render", "expanding-cells", "-o", out, "--time", "1.25", "--scale", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("wrote \(out): 750x1334, t = 1.25 s"))
        let image = try PNGCodec.read(path: out)
        #expect(image.width == 750 && image.height == 1334)
    }

    @Test("render a PNG sequence into a folder, with a contact sheet")
    func sequence() throws {
        let folder = temporaryFolder()
        let run = try Tool.run([
            "render", "expanding-cells", "-o", folder + "/frames/", "--frames", "33-36", "--sheet",
            folder + "/sheet.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted()
                == ["frame0033.png", "frame0034.png", "frame0035.png", "frame0036.png"])
        #expect(FileManager.default.fileExists(atPath: folder + "/sheet.png"))
    }

    @Test("--dry-run renders every frame, writes nothing but the stats, and says so")
    func dryRun() throws {
        let folder = temporaryFolder()
        let run = try Tool.run(["render", "expanding-view", "--dry-run", "--stats", folder + "/stats.json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("rendered 90 frames (30 fps, @1x), wrote none"), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["stats.json"])
        let stats = try String(contentsOfFile: folder + "/stats.json", encoding: .utf8)
        #expect(stats.contains("\"frames\": 90") && stats.contains("\"raster_s\""))
    }

    @Test(
        "A storyboard the scene does not have is named, with the nearest and every one it has (read from the scene, so run)",
        arguments: [
            (
                ["render", "sliding-panels", "-o", "x.gif", "--storyboard", "tuor"],
                "sliding-panels has no storyboard 'tuor'; did you mean tour?; expected one of promo, port-demo, tour"
            ),
            (
                ["render", "expanding-cells", "-o", "x.gif", "--storyboard", "nope"],
                "has no storyboard 'nope'; expected one of promo, transition-preview, dismiss-initial, dismiss-status-bar, dismiss-final"
            ),
        ])
    func errors(arguments: [String], message: String) throws {
        let run = try Tool.run(arguments)
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("list names each scene with its storyboards")
    func list() throws {
        let run = try Tool.run(["list"])
        #expect(run.status == 0)
        #expect(
            run.stdout.contains("expanding-cells")
                && run.stdout.contains(
                    "storyboards: promo, transition-preview, dismiss-initial, dismiss-status-bar, dismiss-final")
        )
    }

    @Test("config prints every key with a comment, and reads back as a valid config")
    func config() throws {
        let run = try Tool.run(["config", "expanding-cells"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("present:") && run.stdout.contains("  duration: 0.6  # "))
        let lines = run.stdout.split(separator: "\n").filter {
            $0.contains(": ") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#")
        }
        #expect(lines.allSatisfy { $0.contains("  # ") || $0.hasPrefix("version") })
        let file = temporaryFolder() + "/defaults.yaml"
        try run.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let again = try Tool.run(["config", "expanding-cells", "--config", file])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test("plan prints the draw list as JSON lines in points")
    func plan() throws {
        let run = try Tool.run(["plan", "expanding-cells", "--time", "1.2"])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try run.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let container = objects.first { $0["layer"] as? String == "container" }!
        #expect(container["kind"] as? String == "fill")
        let rect = container["rect"] as! [Double]
        #expect(rect[0] == 0 && rect[2] == 375 && rect[1] > 0 && rect[1] < 169)
        #expect(objects.contains { $0["layer"] as? String == "detail" && $0["image"] as? String == "assets.detail" })
        // Each snapshot names the file it draws from, so a replay (or a reader) can find it.
        let detail = objects.first { $0["layer"] as? String == "detail" }!
        // Image names are their params' keys; files are resolved from the scene file's folder.
        #expect((detail["file"] as? String)?.hasSuffix("/Assets/expanding-cells/detail.png") == true)
    }
}

@Suite("flipbook scene: a built-in as a file, rendered from anywhere")
struct SceneCommandTests {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets").path

    @Test("flipbook scene NAME, saved in another folder beside its images, renders the same GIF bytes as the built-in")
    func printedSceneRoundTrip() throws {
        let dir = temporaryFolder()
        let printed = try Tool.run(["scene", "expanding-view"])
        #expect(printed.status == 0, "\(printed.stderr)")
        try printed.stdout.write(toFile: dir + "/login.yaml", atomically: true, encoding: .utf8)
        for image in ["screen.png", "next.png", "statusbar.png"] {
            try FileManager.default.copyItem(
                atPath: "\(Self.assets)/expanding-view/\(image)", toPath: "\(dir)/\(image)")
        }
        let builtin = try Tool.run([
            "render", "expanding-view", "--storyboard", "small", "-o", dir + "/a.gif", "--quiet",
        ])
        let copy = try Tool.run([
            "render", dir + "/login.yaml", "--storyboard", "small", "-o", dir + "/b.gif", "--quiet",
        ])
        #expect(builtin.status == 0 && copy.status == 0, "\(builtin.stderr) \(copy.stderr)")
        let a = FileManager.default.contents(atPath: dir + "/a.gif"),
            b = FileManager.default.contents(atPath: dir + "/b.gif")
        #expect(a != nil && a == b)
    }

    @Test(
        "flipbook scene NAME --to DIR writes the file and its images, which render as the built-in does; nothing is overwritten"
    )
    func sceneToFolder() throws {
        let dir = temporaryFolder() + "/mine"
        let wrote = try Tool.run(["scene", "expanding-view", "--to", dir])
        #expect(wrote.status == 0, "\(wrote.stderr)")
        #expect(wrote.stdout.contains("wrote \(dir)/expanding-view.yaml and its 3 images"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [
                "expanding-view.yaml", "next.png", "screen.png", "statusbar.png",
            ])
        let builtin = try Tool.run([
            "render", "expanding-view", "--storyboard", "small", "-o", dir + "/../a.gif", "--quiet",
        ])
        let copy = try Tool.run([
            "render", dir + "/expanding-view.yaml", "--storyboard", "small", "-o", dir + "/../b.gif", "--quiet",
        ])
        #expect(builtin.status == 0 && copy.status == 0, "\(builtin.stderr) \(copy.stderr)")
        #expect(
            FileManager.default.contents(atPath: dir + "/../a.gif")
                == FileManager.default.contents(atPath: dir + "/../b.gif"))
        // The same again is fine; a file changed there stops it before anything is written.
        #expect(try Tool.run(["scene", "expanding-view", "--to", dir]).status == 0)
        try Data("edited".utf8).write(to: URL(fileURLWithPath: dir + "/next.png"))
        let yaml = dir + "/expanding-view.yaml"
        try (String(contentsOfFile: yaml, encoding: .utf8) + "# mine\n").write(
            toFile: yaml, atomically: true, encoding: .utf8)
        let refused = try Tool.run(["scene", "expanding-view", "--to", dir])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(yaml) exists and differs from expanding-view's; nothing was written"))
        #expect(try String(contentsOfFile: yaml, encoding: .utf8).hasSuffix("# mine\n"))
        // Printed, the file says where its images are; without them, the error says what to do.
        let printed = try Tool.run(["scene", "expanding-view"])
        #expect(printed.stdout.hasPrefix("# The images this file names are read beside it; they are in "))
        let alone = temporaryFolder()
        try printed.stdout.write(toFile: alone + "/login.yaml", atomically: true, encoding: .utf8)
        let missing = try Tool.run(["render", alone + "/login.yaml", "-o", alone + "/x.gif"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains(
                "\(alone)/login.yaml:14: assets.screen: \(alone)/screen.png: no such file; put the image there"),
            "\(missing.stderr)")
        #expect(missing.stderr.contains("flipbook scene expanding-view --to FOLDER"), "\(missing.stderr)")
    }

    @Test("A scene file's error names the file, the line and the key, with exit 1")
    func badSceneFile() throws {
        let dir = temporaryFolder()
        try "version: 1\nname: x\nsummary: y\nstoryboards:\n  main: [{hold: 1 / 0}]\n".write(
            toFile: dir + "/x.yaml", atomically: true, encoding: .utf8)
        let run = try Tool.run(["render", dir + "/x.yaml", "-o", dir + "/x.gif"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("x.yaml:5: storyboards.main.0.hold: divides by zero"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.gif"))
    }

    @Test(
        "An installed flipbook (bin/ beside share/flipbook/Assets) reads its own copy of the scenes, wherever the checkout is"
    )
    func installedLayout() throws {
        let prefix = temporaryFolder()
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: prefix + "/share/flipbook/Assets", withIntermediateDirectories: true)
        // Copied by a child `cp`, not in this process: a test forking at the same moment would
        // inherit the copy's open file, and running it would fail with ETXTBSY ("Text file busy").
        let copying = Process()
        copying.executableURL = URL(fileURLWithPath: "/bin/cp")
        copying.arguments = [Tool.executable.path, prefix + "/bin/flipbook"]
        try copying.run()
        copying.waitUntilExit()
        #expect(copying.terminationStatus == 0)
        try FileManager.default.copyItem(
            atPath: Self.assets + "/expanding-view", toPath: prefix + "/share/flipbook/Assets/expanding-view")
        let scene = prefix + "/share/flipbook/Assets/expanding-view/expanding-view.yaml"
        try String(contentsOfFile: scene, encoding: .utf8).replacingOccurrences(
            of: "summary: \"a Dribbble", with: "summary: \"installed: a Dribbble"
        )
        .write(toFile: scene, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix + "/bin/flipbook")
        process.arguments = ["render", "expanding-view", "-o", prefix + "/out.gif"]
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "FLIPBOOK_ROOT" }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && FileManager.default.fileExists(atPath: prefix + "/out.gif"))
        let list = Process()
        list.executableURL = process.executableURL
        list.arguments = ["list"]
        let listed = Pipe()
        list.standardOutput = listed
        try list.run()
        let text = String(decoding: listed.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        list.waitUntilExit()
        #expect(text.contains("installed: a Dribbble"), "\(text)")
    }

    @Test("The guide's reference pages are what the tool generates now", arguments: ReferencePages.all.map(\.file))
    func referencePages(file: String) throws {
        let page = try #require(ReferencePages.all.first { $0.file == file })
        let committed = try String(
            contentsOfFile: Self.assets + "/../" + ReferencePages.folder + "/" + file, encoding: .utf8)
        #expect(
            committed == page.text,
            "\(file) is out of date: run flipbook reference-pages (Scripts/docs --generate) and commit it")
        #expect(page.text.contains(file == "CommandReference.md" ? "## flipbook render" : "| key |"))
    }

    @Test("The scene reference is the one flipbook scene --reference prints")
    func sceneReference() throws {
        let run = try Tool.run(["scene", "--reference"])
        #expect(run.status == 0 && run.stdout.contains("| `drag` |"))
        let page = try #require(ReferencePages.all.first { $0.file == "SceneFileReference.md" })
        #expect(page.text.hasSuffix(run.stdout))
    }
}

@Suite("Parallel rendering is deterministic")
struct DeterminismTests {
    @Test("The GIF is byte-identical whatever the thread count", arguments: ["expanding-cells", "app-store-card"])
    func threads(scene: String) throws {
        let folder = temporaryFolder()
        var outputs: [Data] = []
        for n in [1, 2, 3] {
            let out = "\(folder)/t\(n).gif"
            let run = try Tool.run(["render", scene, "-o", out, "--frames", "30-44", "--threads", "\(n)", "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
        #expect(outputs[0].count > 1000)
    }
}
