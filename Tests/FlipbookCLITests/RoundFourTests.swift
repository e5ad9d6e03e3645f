import Codecs
import Comparison
import Flipbook
import Foundation
import Geometry
import Glibc
import Testing

@testable import FlipbookCLI

/// Reliability round four, run as a user runs the tool: no user file touched, no trap on a
/// name or a number, output to standard output checked like any other write.
@Suite("Reliability, round four: user files, names, numbers, standard output")
struct RoundFourTests {
    func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// `command` run by the shell from `folder`, with the tool as `$F`.
    func shell(_ command: String, in folder: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(["F": Tool.executable.path]) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let err = Pipe()
        process.standardError = err
        try process.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    @Test("A user's files named like a temporary file of an ended process stay as they were beside a new output")
    func temporaryNamesAreNotSwept() throws {
        let dir = temporaryFolder()
        let names = [".flipbook-31337.tar.gz", ".notes.flipbook-424242.txt"]
        for name in names { try Data(name.utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        #expect(try Tool.run(["render", "expanding-view", "-o", dir + "/x.gif", "--fps", "5", "--quiet"]).status == 0)
        #expect(files(dir) == (names + ["x.gif"]).sorted())
        for name in names { #expect(FileManager.default.contents(atPath: dir + "/" + name) == Data(name.utf8)) }
    }

    @Test("An output named as a file that is a folder is refused, and the folder is left as it was")
    func fileNamedFolder() throws {
        let dir = temporaryFolder()
        try FileManager.default.createDirectory(atPath: dir + "/out.gif", withIntermediateDirectories: false)
        let run = try Tool.run(["render", "expanding-view", "-o", dir + "/out.gif", "--fps", "5"])
        #expect(run.status == 1 && run.stderr.contains("out.gif is a folder; expected a file name"), "\(run.stderr)")
        #expect(files(dir + "/out.gif").isEmpty)
    }

    @Test("A folder named like a frame in the output folder is the user's: --overwrite neither removes nor fills it")
    func folderNamedLikeAFrame() throws {
        let out = temporaryFolder() + "/fr"
        try FileManager.default.createDirectory(atPath: out + "/frame0001.png", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/frame0001.png/keep"))
        let run = try Tool.run(["render", "expanding-view", "-o", out + "/", "--fps", "5", "--overwrite"])
        #expect(run.status == 1 && run.stderr.contains("frame0001.png, which is not a PNG file"), "\(run.stderr)")
        #expect(files(out) == ["frame0001.png"])
        #expect(FileManager.default.contents(atPath: out + "/frame0001.png/keep") == Data("mine".utf8))
    }

    @Test("A read-only output file is not replaced")
    func readOnlyOutput() throws {
        let dir = temporaryFolder()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/x.gif"))
        chmod(dir + "/x.gif", 0o444)
        let run = try Tool.run(["render", "expanding-view", "-o", dir + "/x.gif", "--fps", "5"])
        #expect(run.status == 1 && run.stderr.contains("is read-only (mode 444)"), "\(run.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/x.gif") == Data("mine".utf8))
    }

    @Test(
        "One-character names of outputs, configs and manifests are names like any other",
        arguments: [
            ("$F render expanding-view -o f/ --fps 5 --quiet", 0, ""),
            ("$F render expanding-view -o 1/ --fps 5 --quiet", 0, ""),
            ("echo 'x: 1' > c && $F render expanding-view --config c -o a.gif", 1, "c:1: x: unknown key"),
            ("echo 'x: 1' > c && $F config expanding-view --config c", 1, "c:1: x: unknown key"),
            ("echo 'a: 1' > m && $F build --manifest m", 1, "m:1: a: unknown key"),
        ])
    func oneCharacterNames(command: String, status: Int32, message: String) throws {
        let run = try shell(command, in: temporaryFolder())
        #expect(
            run.status == status && (message.isEmpty || run.stderr.contains(message)), "\(run.status) \(run.stderr)")
    }

    @Test(
        "A number far out of range in a scene file draws or is refused, never a trap",
        arguments: [
            ("button.scale: covering}", #"button.scale: "covering * 1e300"}"#),
            ("frame: button, cornerRadius", #"frame: "rect(135, 478, 1e300, 1e300)", cornerRadius"#),
            ("bottom: {rect: [135, 478, 50, 50]", "bottom: {rect: [135, 478, 1e300, 1e300]"),
        ])
    func hugeNumbers(find: String, replace: String) throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["scene", "expanding-view", "--to", dir + "/ev"]).status == 0)
        let file = dir + "/ev/expanding-view.yaml"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try #require(text.contains(find))
        try text.replacingOccurrences(of: find, with: replace).write(toFile: file, atomically: true, encoding: .utf8)
        let run = try Tool.run(["render", file, "-o", dir + "/y.gif", "--fps", "5", "--quiet"])
        #expect(run.status == 0 || (run.status == 1 && run.stderr.contains("expanding-view.yaml:")), "\(run.stderr)")
    }

    @Test("Aliases that expand past any document are refused at once, naming the file and line")
    func aliasBomb() throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["scene", "expanding-view", "--to", dir + "/ev"]).status == 0)
        let file = dir + "/ev/expanding-view.yaml"
        var bomb = [#"  a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]"#]
        for i in 1..<9 {
            bomb.append("  a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ",") + "]")
        }
        let text = try String(contentsOfFile: file, encoding: .utf8)
            .replacingOccurrences(of: "let:\n", with: "let:\n" + bomb.joined(separator: "\n") + "\n")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try Tool.run(["render", file, "-o", dir + "/y.gif"])
        #expect(run.status != 0 && run.stderr.contains("expanding-view.yaml:"), "\(run.stderr)")
        #expect(
            run.stderr.contains("the file expands to more than 200000 parts; YAML aliases repeat what they name"),
            "\(run.stderr)")
    }

    @Test(
        "Standard output closed or full is an error that says so, for every command that prints",
        arguments: [
            "plan expanding-view", "list", "scene expanding-view", "config expanding-view",
            "curve spring:duration=0.5,dampingRatio=0.8",
        ])
    func standardOutput(command: String) throws {
        let dir = temporaryFolder()
        let closed = try shell("$F \(command) >&-", in: dir)
        #expect(closed.status == 1 && closed.stderr.contains("standard output is closed"), "\(closed.stderr)")
        let full = try shell("$F \(command) > /dev/full", in: dir)
        #expect(full.status == 1 && full.stderr.contains("No space left on device"), "\(full.stderr)")
        #expect(files(dir).isEmpty)
    }

    @Test("A closed standard output never becomes a file the command writes")
    func closedOutputIsNoFile() throws {
        let dir = temporaryFolder()
        let run = try shell("$F render expanding-view -o x.gif --fps 5 >&-", in: dir)
        #expect(run.status == 1 && run.stderr.contains("standard output is closed"), "\(run.stderr)")
        // The GIF was written whole before its report line failed: it is a GIF, not the report.
        #expect(FileManager.default.contents(atPath: dir + "/x.gif")?.prefix(6) == Data("GIF89a".utf8))
    }

    @Test(
        "A negative number after an option is its value, and a value out of range is refused by name",
        arguments: [
            (["render", "expanding-view", "-o", "x.gif", "--width", "-5"], "--width -5: expected 16...8192 pixels"),
            (["render", "expanding-view", "-o", "x.png", "--time", "-1"], "--time -1.0: expected seconds, 0 or more"),
            (["render", "expanding-view", "-o", "x.gif", "--speed", "-1"], "--speed -1.0: expected a factor"),
            (["build", "--jobs", "-1"], "--jobs -1: expected 1...256"),
            (
                ["fit", "r.gif", "expanding-view", "--fit", "expand.duration", "--frame-interval", "1e-9"],
                "--frame-interval 1e-09: expected seconds in 0.001...10"
            ),
            (
                ["fit", ".", "expanding-view", "--fit", "expand.duration"],
                ". is a folder of frames, which carries no times: --frame-interval SECONDS gives them"
            ),
        ])
    func negativeValues(arguments: [String], message: String) throws {
        let run = try Tool.run(arguments, in: temporaryFolder())
        #expect(run.status == 64 && run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("Negative numbers are joined to the option before them; other words are left as they are")
    func negativeValuesJoinedInProcess() {
        #expect(
            negativeValuesJoined(["render", "x", "--width", "-5", "--crop", "-5,-5,10,10", "--shard", "-1/3"])
                == ["render", "x", "--width=-5", "--crop=-5,-5,10,10", "--shard=-1/3"])
        #expect(
            negativeValuesJoined(["--time", "-.5", "--quiet", "-o", "a.gif"]) == [
                "--time=-.5", "--quiet", "-o", "a.gif",
            ])
        #expect(negativeValuesJoined(["--set", "a=1", "--", "-5"]) == ["--set", "a=1", "--", "-5"])
        #expect(negativeValuesJoined(["--fps=5", "-5"]) == ["--fps=5", "-5"])
    }

    @Test("An interrupted render into a folder it made leaves neither frames nor the folder")
    func interruptedFolder() throws {
        let dir = temporaryFolder()
        let out = dir + "/made/frames"
        let process = Process()
        process.executableURL = Tool.executable
        process.arguments = ["render", "sliding-panels", "--scale", "2", "-o", out + "/", "--quiet"]
        try process.run()
        for _ in 0..<400 where files(out).isEmpty { Thread.sleep(forTimeInterval: 0.01) }
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(files(dir).isEmpty, "\(files(dir)) \(files(out))")
    }

    @Test("A scene image that is a FIFO is refused at once, by render and by build, naming it")
    func fifoImage() throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["scene", "expanding-view", "--to", dir + "/ev"]).status == 0)
        unlink(dir + "/ev/next.png")
        #expect(mkfifo(dir + "/ev/next.png", 0o644) == 0)
        try Data("version: 1\noutputs:\n  - path: out.gif\n    scene: ev/expanding-view.yaml\n    fps: 5\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/flipbook.yaml"))
        let build = try shell("timeout 60 $F build", in: dir)
        #expect(
            build.status == 1 && build.stderr.contains("next.png: cannot read: is not a regular file"),
            "\(build.stderr)")
        let render = try shell("timeout 60 $F render ev/expanding-view.yaml -o x.gif", in: dir)
        #expect(render.status == 1 && render.stderr.contains("next.png"), "\(render.stderr)")
        #expect(files(dir) == ["ev", "flipbook.yaml"])
    }

    @Test("A watch whose first render is refused by its command line (the output is the scene's image) ends at once")
    func watchOntoAnInput() throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["scene", "expanding-view", "--to", dir + "/ev"]).status == 0)
        let run = try shell("timeout 60 $F render ev/expanding-view.yaml --watch -o ev/next.png --time 1", in: dir)
        #expect(run.status == 64 && run.stderr.contains("is an input (assets.next)"), "\(run.status) \(run.stderr)")
    }

    /// A GIF of `count` one-pixel frames on a `side`-pixel canvas, 2 cs apart: a small file of
    /// large decoded frames, each one pixel from the last.
    func onePixelFrames(_ count: Int, side: Int, to path: String) throws {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var out = Array("GIF89a".utf8) + le16(side) + le16(side) + [0xF0, 0, 0, 0, 0, 0, 255, 255, 255]
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for i in 0..<count {
            out += [0x21, 0xF9, 4, 4] + le16(2) + [0, 0]
            out += [0x2C] + le16(i % side) + le16(i / side % side) + le16(1) + le16(1) + [0]
            out += [2, 2, 0x44, 1, 0]
        }
        out.append(0x3B)
        try Data(out).write(to: URL(fileURLWithPath: path))
    }

    @Test("compare of thousands of one-pixel frames on a large canvas answers, moment by moment")
    func manySmallFrames() throws {
        let dir = temporaryFolder()
        try onePixelFrames(2000, side: 1000, to: dir + "/many.gif")
        let run = try Tool.run(["compare", dir + "/many.gif", dir + "/many.gif"])
        #expect(run.status == 0 && run.stdout.contains("2000 moments compared, 0 differ"), "\(run.stdout)")
    }

    @Test(
        "A recording is held within a budget of decoded bytes: past it an error says how much, and holds share pixels")
    func decodedBudget() throws {
        let dir = temporaryFolder()
        try onePixelFrames(10, side: 100, to: dir + "/ten.gif")
        let frameBytes = 100 * 100 * 4
        #expect(
            try FrameSequence(reading: FrameReader.open(dir + "/ten.gif"), maximumHeldBytes: 10 * frameBytes).frames
                .count == 10)
        #expect {
            try FrameSequence(reading: FrameReader.open(dir + "/ten.gif"), maximumHeldBytes: 4 * frameBytes)
        } throws: { "\($0)".contains("decodes to more than 4 distinct frames of 100x100") }
        // The same frame over and over holds one frame's pixels.
        let still = Bitmap(width: 100, height: 100)
        var left = 50
        let held = try FrameSequence(
            reading: FrameReader {
                guard left > 0 else { return nil }
                left -= 1
                return (
                    FrameSequence.Frame(start: Double(49 - left) / 10, bitmap: still, label: ""), Double(50 - left) / 10
                )
            }, maximumHeldBytes: frameBytes)
        #expect(held.frames.count == 50)
    }

    @Test("fit of a small GIF that decodes to 10 GB reads it a frame at a time within a 4 GB address space")
    func fitUnderAnAddressSpaceCap() throws {
        let dir = temporaryFolder()
        try onePixelFrames(400, side: 2532, to: dir + "/big.gif")
        let run = try shell("ulimit -v 4000000; $F fit big.gif app-store-card --fit demo.position.duration", in: dir)
        // Every frame is read (the screen finder looks at each), and what is wrong is the
        // recording's content, not its size.
        #expect(
            run.status == 1
                && run.stderr.contains("big.gif: the recording's 2532x2532 frames are not the canvas's shape"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("cannot read"), "\(run.stderr)")
    }

    @Test("An output name of 251 characters is written: its temporary name is cut to fit the file system")
    func longOutputName() throws {
        let dir = temporaryFolder()
        let name = String(repeating: "n", count: 247) + ".gif"
        let run = try Tool.run(["render", "expanding-view", "-o", dir + "/" + name, "--fps", "5", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(files(dir) == [name])
    }

    /// An animated PNG of `frames`, each shown `centiseconds`, made from the PNGs the codec
    /// writes: their IHDR, an acTL, and each frame's IDAT data under an fcTL (the first as IDAT,
    /// the rest as fdAT).
    func apng(_ frames: [Bitmap], centiseconds: UInt16) throws -> [UInt8] {
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        func be32(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            be32(UInt32(data.count)) + Array(type.utf8) + data + be32(crc(Array(type.utf8) + data))
        }
        /// The chunks of a PNG: (type, data).
        func chunks(_ png: [UInt8]) -> [(String, [UInt8])] {
            var out: [(String, [UInt8])] = []
            var at = 8
            while at + 8 <= png.count {
                let length = png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
                out.append(
                    (
                        String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self),
                        Array(png[(at + 8)..<(at + 8 + length)])
                    ))
                at += 12 + length
            }
            return out
        }
        let pngs = try frames.map { try PNGCodec.encode($0, format: .rgba) }
        let first = chunks(pngs[0])
        var out = Array(pngs[0][0..<8]) + chunk("IHDR", first[0].1)
        out += chunk("acTL", be32(UInt32(frames.count)) + be32(0))
        var sequence: UInt32 = 0
        for (k, png) in pngs.enumerated() {
            let w = UInt32(frames[k].width), h = UInt32(frames[k].height)
            let delay = [UInt8(centiseconds >> 8), UInt8(centiseconds & 0xFF), 0, 100]
            out += chunk("fcTL", be32(sequence) + be32(w) + be32(h) + be32(0) + be32(0) + delay + [0, 0])
            sequence += 1
            for (type, data) in chunks(png) where type == "IDAT" {
                if k == 0 {
                    out += chunk("IDAT", data)
                } else {
                    out += chunk("fdAT", be32(sequence) + data)
                    sequence += 1
                }
            }
        }
        return out + chunk("IEND", [])
    }

    @Test("An animated PNG is read as the animation browsers play, not as its first frame")
    func animatedPNG() throws {
        let dir = temporaryFolder()
        let red = Bitmap(width: 40, height: 30, fill: Color(r: 255, g: 0, b: 0).premultiplied)
        let blue = Bitmap(width: 40, height: 30, fill: Color(r: 0, g: 0, b: 255).premultiplied)
        try Data(try apng([red, blue, red, blue], centiseconds: 10)).write(to: URL(fileURLWithPath: dir + "/anim.png"))
        try Data(try PNGCodec.encode(red)).write(to: URL(fileURLWithPath: dir + "/first.png"))
        let frames = try FrameSequence.load(dir + "/anim.png")
        #expect(frames.frames.map(\.start) == [0, 0.1, 0.2, 0.3] && abs(frames.duration - 0.4) < 1e-9)
        #expect(frames.frames.map { $0.bitmap[5, 5].b } == [0, 255, 0, 255])
        // A FIFO named .png with no writer is an error at once, as it was before animations.
        #expect(mkfifo(dir + "/pipe.png", 0o644) == 0)
        let pipe = try shell("timeout 20 $F compare pipe.png first.png", in: dir)
        #expect(pipe.status == 2, "\(pipe.status) \(pipe.stderr)")
        let run = try Tool.run(["compare", dir + "/anim.png", dir + "/first.png"])
        #expect(run.status == 1 && run.stdout.contains("DIFFERENT"), "\(run.stdout) \(run.stderr)")
        #expect(try Tool.run(["compare", dir + "/anim.png", dir + "/anim.png"]).status == 0)
    }

    @Test("score's --screen and --window are checked against the recording, naming what it has")
    func scoreChecksTheRecording() throws {
        let dir = temporaryFolder()
        let features = ReliabilityTests.assets + "/fidelity/transition-1.yaml"
        #expect(
            try Tool.run(["render", "expanding-view", "--storyboard", "transition-1", "-o", dir + "/t.gif", "--quiet"])
                .status == 0)
        let score = ["score", dir + "/t.gif", "expanding-view", "--storyboard", "transition-1", "--features", features]
        let screen = try Tool.run(score + ["--screen", "10000,10000,5,5"])
        #expect(
            screen.status == 1
                && screen.stderr.contains("--screen 10000,10000,5,5: outside the recording's 320x568 frames"),
            "\(screen.stderr)")
        let window = try Tool.run(score + ["--window", "100,200", "--grid", "expand.duration=0.4,0.5"])
        #expect(
            window.status == 1 && window.stderr.contains("--window 100,200: the recording lasts 2.70 s"),
            "\(window.stderr)")
    }
}
