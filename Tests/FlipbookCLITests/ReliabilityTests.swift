import Codecs
import Foundation
import Glibc
import Raster
import Testing

/// Hostile inputs and faults, run as a user runs them: each a named error, a non-zero exit,
/// no partial or temporary file, and every input byte-identical afterwards.
@Suite("Reliability: no crash, no lost input, no silent wrong output")
struct ReliabilityTests {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets").path

    func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test("A frame write that fails mid-way through a PNG-folder render is a named error, and leaves no frame")
    func failedSequenceWrite() throws {
        let out = temporaryFolder() + "/mid/"
        try FileManager.default.createDirectory(atPath: out + "frame0040.png", withIntermediateDirectories: true)
        let run = try Tool.run(["render", "expanding-cells", "-o", out])
        #expect(run.status == 1 && run.stderr.contains("frame0040.png"), "\(run.status) \(run.stderr)")
        #expect(files(out) == ["frame0040.png"])
    }

    @Test("An MP4 is the same bytes whatever the memory it was made in held before")
    func mp4IgnoresWhatMemoryHeld() throws {
        // Under MALLOC_PERTURB_, glibc fills every allocation with a pattern: an encoder that
        // reads memory it never wrote makes other bytes under another pattern (x264's AVX-512
        // code does, which MP4Encoder keeps it from running).
        let folder = temporaryFolder()
        var written: [Data] = []
        for pattern in ["17", "165"] {
            let path = "\(folder)/\(pattern).mp4"
            let run = try Tool.run(
                ["render", "app-store-card", "--fps", "5", "--width", "100", "-o", path],
                environment: ["MALLOC_PERTURB_": pattern])
            #expect(run.status == 0, "\(run.stderr)")
            written.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(written[0].count > 10_000 && written[0] == written[1], "\(written.map(\.count))")
    }

    @Test(
        "Past a file-size limit (ulimit -f) every format says the file is too large, and leaves nothing: no file, no folder it made",
        arguments: [
            ("x.gif", "x.gif: cannot write: File too large"), ("x.webp", "x.webp: cannot write: File too large"),
            ("x.mp4", "x.mp4: FFmpeg: writing the index: File too large"),
            ("new/frames/", "cannot write: File too large"),
        ])
    func fileSizeLimit(output: String, message: String) throws {
        let folder = temporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // 20 of dash's 512-byte blocks, 10 KiB: far less than any of these outputs.
        process.arguments = [
            "-c", "ulimit -f 20; exec \"$0\" render expanding-cells --fps 10 -o \"$1\"", Tool.executable.path,
            folder + "/" + output,
        ]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1 && said.contains(message), "\(process.terminationStatus) \(said)")
        #expect(files(folder).isEmpty, "\(files(folder))")
    }

    @Test(
        "An output is never an input: each of these is refused (exit 64) and every input is left as it was",
        arguments: [
            ["render", "expanding-cells", "--set", "assets.list=IN/l.png", "-o", "IN/l.png", "--time", "1.2"],
            ["render", "expanding-cells", "--config", "IN/c.yaml", "--stats", "IN/c.yaml", "-o", "IN/o.gif"],
            ["render", "expanding-cells", "-o", "IN/o.gif", "--sheet", "IN/o.gif"],
            ["render", "expanding-cells", "--set", "assets.list=IN/fr/frame0000.png", "-o", "IN/fr/"],
        ])
    func outputsAreNotInputs(arguments: [String]) throws {
        let dir = temporaryFolder()
        try FileManager.default.createDirectory(atPath: dir + "/fr", withIntermediateDirectories: true)
        for path in ["l.png", "fr/frame0000.png"] {
            try FileManager.default.copyItem(
                atPath: Self.assets + "/expanding-cells/list.png", toPath: "\(dir)/\(path)")
        }
        try "fps: 30\n".write(toFile: dir + "/c.yaml", atomically: true, encoding: .utf8)
        let inputs = ["c.yaml", "l.png", "fr/frame0000.png"]
        let before = try inputs.map { try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\($0)")) }
        let run = try Tool.run(arguments.map { $0.replacingOccurrences(of: "IN/", with: dir + "/") })
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.contains("an output never replaces an input") || run.stderr.contains("are the same file")
                || run.stderr.contains("holds an input"), "\(run.stderr)")
        #expect(try inputs.map { try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\($0)")) } == before)
        #expect(files(dir) == ["c.yaml", "fr", "l.png"] && files(dir + "/fr") == ["frame0000.png"])
    }

    @Test("compare never writes its diff pictures into an input")
    func diffIsNotAnInput() throws {
        let dir = temporaryFolder()
        for side in ["A", "B"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/\(side)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: Self.assets + "/sliding-panels/close.png", toPath: "\(dir)/\(side)/x.png")
        }
        let run = try Tool.run(["compare", dir + "/A/", dir + "/B/", "--diff", dir + "/A/"])
        #expect(run.status == 2 && run.stderr.contains("--diff"), "\(run.stderr)")
        #expect(files(dir + "/A") == ["x.png"])
        let onFile = try Tool.run(["compare", dir + "/A/", dir + "/B/", "--diff", dir + "/A/x.png"])
        #expect(onFile.status == 2 && !onFile.stderr.contains("NSCocoaErrorDomain"), "\(onFile.stderr)")
    }

    @Test("A folder holding an earlier render's frames is an error unless --overwrite, which clears them first")
    func staleFrames() throws {
        let out = temporaryFolder() + "/frames/"
        #expect(try Tool.run(["render", "expanding-cells", "-o", out, "--frames", "0-9", "--quiet"]).status == 0)
        let again = try Tool.run(["render", "expanding-cells", "-o", out, "--frames", "0-4", "--quiet"])
        #expect(again.status == 1 && again.stderr.contains("holds 10 frames of an earlier render"), "\(again.stderr)")
        #expect(files(out).count == 10)
        #expect(
            try Tool.run(["render", "expanding-cells", "-o", out, "--frames", "0-4", "--quiet", "--overwrite"]).status
                == 0)
        #expect(files(out) == (0...4).map { String(format: "frame%04d.png", $0) })
    }

    @Test("Interrupted (SIGTERM) mid-render, no temporary file is left beside the output")
    func interrupted() throws {
        let dir = temporaryFolder()
        let process = Process()
        process.executableURL = Tool.executable
        process.arguments = ["render", "sliding-panels", "--scale", "2", "-o", dir + "/out.gif", "--quiet"]
        try process.run()
        for _ in 0..<200 where files(dir).isEmpty { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!files(dir).isEmpty, "the render never started writing")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(files(dir).isEmpty, "\(files(dir))")
    }

    @Test(
        "Option values that meant something else are taken as meant, or refused by name",
        arguments: [
            (["--set", "layout.barColor=#FF0000", "-o", "OUT/s.png", "--time", "1"], 0, ""),
            (["-o", "OUT/s.png", "--time", "5.44", "--quiet"], 0, ""),
            (["-o", "OUT/g.gif", "--speed", "0.01", "--frames", "0-1", "--quiet"], 0, ""),
            (
                ["--storyboard", "director", "-o", "OUT/g.gif"], 64,
                "--storyboard: expanding-cells has no storyboard 'director'"
            ),
            (["--set", "fps=fast", "-o", "OUT/g.gif"], 64, "--set fps=fast: fps: expected a number"),
            (["-o", "OUT/g.gif", "--time", "1"], 64, "--time: only a PNG still"),
            (["-o", "OUT/s.png", "--time", "1", "--speed", "2"], 64, "--speed: a PNG still is one moment"),
            (["-o", "OUT/s.png", "--time", "1", "--sheet", "OUT/sheet.png"], 64, "--sheet"),
            (["-o", "OUT/f/", "--frames", "100-500"], 64, "--frames 100-500: the render has frames 0-163"),
            (["-o", "OUT/g.gif", "--stats", "OUT/missing/s.json"], 1, "does not exist"),
        ])
    func optionValues(arguments: [String], status: Int32, message: String) throws {
        let dir = temporaryFolder()
        let run = try Tool.run(
            ["render", "expanding-cells"] + arguments.map { $0.replacingOccurrences(of: "OUT/", with: dir + "/") })
        #expect(run.status == status, "\(run.stderr)")
        #expect(message.isEmpty || run.stderr.contains(message), "\(run.stderr)")
        if status != 0 { #expect(files(dir).isEmpty) }
    }

    @Test("compare exits 2 for a bad tolerance however it is spelled, and names a truncated GIF")
    func compareErrors() throws {
        let dir = temporaryFolder()
        try Data([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]).write(to: URL(fileURLWithPath: dir + "/ten.gif"))
        for spelling in [["--max-delta", "-1"], ["--max-delta=-1"]] {
            #expect(try Tool.run(["compare", dir + "/ten.gif", dir + "/ten.gif"] + spelling).status == 2)
        }
        let truncated = try Tool.run(["compare", dir + "/ten.gif", dir + "/ten.gif"])
        #expect(truncated.status == 2 && truncated.stderr.contains("truncated"), "\(truncated.stderr)")
    }

    @Test("A config given as a pipe is read to its end")
    func configPipe() throws {
        let dir = temporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", "\"$0\" render expanding-cells --config <(printf 'fps: 10\\n') -o \"$1\" --quiet",
            Tool.executable.path, dir + "/p.gif",
        ]
        let err = Pipe()
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
    }

    @Test("An output frame past 36 Mpx is refused before any work, naming the option (--width 8192 took 6.45 GB)")
    func outputBudget() throws {
        let folder = temporaryFolder()
        let wide = try Tool.run(["render", "expanding-cells", "--width", "8192", "-o", folder + "/x.gif"])
        #expect(wide.status == 64)
        #expect(wide.stderr.contains("--width 8192: frames of 8192x14571 px (119 Mpx)"), "\(wide.stderr)")
        #expect(wide.stderr.contains("a frame has at most 36 Mpx"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.gif"))
        let fine = try Tool.run(["render", "expanding-cells", "--width", "3000", "--dry-run", "--frames", "0"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test(
        "fit's --sheet is checked against every input: the scene's image, a frame of the recording, a new file in its folder",
        arguments: ["EV/screen.png", "REC/frame0000.png", "REC/sheet.png"])
    func fitSheetIsNotAnInput(sheet: String) throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["scene", "expanding-view", "--to", dir + "/ev"]).status == 0)
        #expect(
            try Tool.run(["render", dir + "/ev/expanding-view.yaml", "--fps", "10", "-o", dir + "/rec/"]).status == 0)
        let before = try ["ev", "rec"].map { folder in
            try files("\(dir)/\(folder)").map { try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(folder)/\($0)")) }
        }
        let run = try Tool.run([
            "fit", dir + "/rec/", dir + "/ev/expanding-view.yaml", "--frame-interval", "0.1", "--fit",
            "close.dampingRatio", "--sheet",
            sheet.replacingOccurrences(of: "EV/", with: dir + "/ev/").replacingOccurrences(
                of: "REC/", with: dir + "/rec/"),
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.contains("an output never replaces an input") || run.stderr.contains("inside an input folder"))
        let after = try ["ev", "rec"].map { folder in
            try files("\(dir)/\(folder)").map { try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(folder)/\($0)")) }
        }
        #expect(after == before)
    }

    @Test("Outputs to a device, a pipe or a link are written through; none is replaced by a regular file")
    func specialOutputs() throws {
        let dir = temporaryFolder()
        #expect(mkfifo(dir + "/fifo", 0o644) == 0)
        let noReader = try Tool.run([
            "render", "expanding-view", "--fps", "5", "-o", dir + "/a.gif", "--stats", dir + "/fifo",
        ])
        #expect(noReader.status != 0 && noReader.stderr.contains("a pipe with no reader"), "\(noReader.stderr)")
        let full = try Tool.run([
            "render", "expanding-view", "--fps", "5", "-o", dir + "/b.gif", "--stats", "/dev/full",
        ])
        #expect(full.status != 0 && full.stderr.contains("/dev/full"), "\(full.stderr)")
        try "{}".write(toFile: dir + "/real.json", atomically: true, encoding: .utf8)
        #expect(symlink("real.json", dir + "/link.json") == 0)
        let link = try Tool.run([
            "render", "expanding-view", "--fps", "5", "-o", dir + "/c.gif", "--stats", dir + "/link.json",
        ])
        #expect(link.status == 0, "\(link.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.json")) == "real.json")
        #expect(try String(contentsOfFile: dir + "/real.json", encoding: .utf8).hasPrefix("{\"frames\": 15"))
        var info = stat()
        #expect(lstat(dir + "/fifo", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        // A process substitution: the stats arrive through the pipe.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", "\"$0\" render expanding-view --fps 5 -o \"$1\" --quiet --stats >(cat > \"$2\"); wait",
            Tool.executable.path, dir + "/d.gif", dir + "/piped.json",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for _ in 0..<50
        where (try? String(contentsOfFile: dir + "/piped.json", encoding: .utf8))?.hasSuffix("}\n") != true {
            usleep(20_000)
        }
        #expect(try String(contentsOfFile: dir + "/piped.json", encoding: .utf8).hasPrefix("{\"frames\": 15"))
    }

    @Test("A FIFO with no writer as a recording is an error at once, for GIF and MP4 alike")
    func fifoRecording() throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["render", "expanding-view", "--fps", "5", "-o", dir + "/a.gif"]).status == 0)
        for name in ["nf.gif", "nf.mp4"] {
            #expect(mkfifo(dir + "/" + name, 0o644) == 0)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["20", Tool.executable.path, "compare", dir + "/" + name, dir + "/a.gif"]
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "\(name): exit \(process.terminationStatus) (124 is a hang)")
        }
    }

    @Test("A folder of frames with a gap, a number given twice or a stray PNG is an error naming the file")
    func frameNumbering() throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["render", "expanding-view", "--fps", "5", "-o", dir + "/all/"]).status == 0)
        let frames = files(dir + "/all")
        try FileManager.default.createDirectory(atPath: dir + "/gap", withIntermediateDirectories: true)
        for (i, name) in frames.enumerated() where i % 7 != 6 {
            try FileManager.default.copyItem(atPath: "\(dir)/all/\(name)", toPath: "\(dir)/gap/\(name)")
        }
        let gap = try Tool.run(["compare", dir + "/gap/", dir + "/all/"])
        #expect(
            gap.status == 2 && gap.stderr.contains("frame 6 is missing between frame0005.png and frame0007.png"),
            "\(gap.stderr)")
        let fit = try Tool.run([
            "fit", dir + "/gap/", "expanding-view", "--frame-interval", "0.2", "--fit", "expand.duration",
        ])
        #expect(fit.status != 0 && fit.stderr.contains("frame 6 is missing"), "\(fit.stderr)")
        try FileManager.default.copyItem(atPath: "\(dir)/all/frame0000.png", toPath: "\(dir)/all/cover.png")
        let stray = try Tool.run(["encode", dir + "/all", "-o", dir + "/o.gif"])
        #expect(stray.status != 0 && stray.stderr.contains("cover.png is not a numbered frame"), "\(stray.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.gif"))
    }

    @Test("fit refuses a frame of another size and a range for a key it does not fit, naming each")
    func fitRefusesBadRecordings() throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["render", "expanding-view", "--fps", "5", "-o", dir + "/rec/"]).status == 0)
        let range = try Tool.run([
            "fit", dir + "/rec/", "expanding-view", "--frame-interval", "0.2", "--fit", "close.dampingRatio", "--range",
            "nope=0,1",
        ])
        #expect(range.status != 0 && range.stderr.contains("--range nope: not a key being fitted"), "\(range.stderr)")
        #expect(
            try Tool.run(["render", "expanding-view", "--scale", "2", "--time", "1", "-o", dir + "/big.png"]).status
                == 0)
        try FileManager.default.removeItem(atPath: dir + "/rec/frame0003.png")
        try FileManager.default.copyItem(atPath: dir + "/big.png", toPath: dir + "/rec/frame0003.png")
        // (A key the scene can fit: a request's own mistakes are said before the recording is read.)
        let size = try Tool.run([
            "fit", dir + "/rec/", "expanding-view", "--frame-interval", "0.2", "--fit", "expand.duration",
        ])
        #expect(
            size.status != 0 && size.stderr.contains("frame 3 is 640x1136 where the first is 320x568"), "\(size.stderr)"
        )
    }

    @Test("A bad --set is said without the usage; a hexadecimal duration is no duration")
    func setMessages() throws {
        let unknown = try Tool.run(["render", "expanding-view", "--set", "nope=1", "-o", temporaryFolder() + "/x.gif"])
        #expect(unknown.status == 64 && unknown.stderr.hasPrefix("Error: --set nope=1: nope: unknown key"))
        #expect(!unknown.stderr.contains("Usage:"), "\(unknown.stderr)")
        let hex = try Tool.run(["render", "expanding-view", "--set", "timing.restHold=0x1p-1s", "--dry-run"])
        #expect(hex.status == 64 && hex.stderr.contains("expected seconds (0.3, 0.3s or 300ms)"), "\(hex.stderr)")
    }

    @Test("A missing image of a scene file that is no built-in's copy is not told to write a built-in")
    func missingImageHint() throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["scene", "expanding-view", "--to", dir + "/ev"]).status == 0)
        // The user's own scene, from a built-in's: its own name.
        let text = try String(contentsOfFile: dir + "/ev/expanding-view.yaml", encoding: .utf8)
        try text.replacingOccurrences(of: "\nname: expanding-view\n", with: "\nname: login\n").write(
            toFile: dir + "/ev/login.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: dir + "/ev/next.png")
        let run = try Tool.run(["render", dir + "/ev/login.yaml", "--dry-run"])
        #expect(run.status != 0 && run.stderr.contains("or name another with --set assets.next=FILE"), "\(run.stderr)")
        #expect(!run.stderr.contains("flipbook scene"))
    }

    @Test("A 1x1 PNG is no screenshot of a 320x568 pt screen")
    func tinyScreenshot() throws {
        let dir = temporaryFolder()
        try PNGCodec.write(Bitmap(width: 1, height: 1), to: dir + "/one.png")
        let run = try Tool.run(["render", "expanding-view", "--set", "assets.screen=\(dir)/one.png", "--dry-run"])
        #expect(
            run.status != 0 && run.stderr.contains("is 1x1 px; expected a screenshot of the 320x568 pt canvas"),
            "\(run.stderr)")
    }
}
