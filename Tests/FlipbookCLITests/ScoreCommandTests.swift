import Codecs
import Foundation
import Raster
import TestSupport
import Testing

/// `flipbook score` from the command line: the table for a recording, and clear refusals.
@Suite("flipbook score")
struct ScoreCommandTests {
    /// The tapped circle's top while it grows over expanding-view's screen (the guide's example).
    static let features = """
        features:
          - name: circle top
            extent: {from: [160, 503], to: 0, axis: y, colour-at: [160, 503, 0.0]}
        """

    /// A 25 fps GIF of expanding-view's `bottom` with `set`, in a fresh folder beside the
    /// features file, and the words of `flipbook score` for it.
    static func recording(set: [String] = [], name: String = #function) throws -> (dir: String, score: [String]) {
        let dir = temporaryFolder(name)
        try features.write(toFile: dir + "/features.yaml", atomically: true, encoding: .utf8)
        let render = try Tool.run(
            ["render", "expanding-view", "--storyboard", "bottom", "--fps", "25"]
                + set.flatMap { ["--set", $0] } + ["-o", dir + "/rec.gif"])
        #expect(render.status == 0, "\(render.stderr)")
        return (
            dir,
            [
                "score", dir + "/rec.gif", "expanding-view", "--storyboard", "bottom", "--features",
                dir + "/features.yaml",
            ]
        )
    }

    @Test("A GIF of the storyboard itself scores 0.0 px at no lag, as a table and as JSON")
    func ownRecording() throws {
        let (_, args) = try Self.recording()
        let table = try Tool.run(args)
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix("the recording 3.00 s, ours 3.00 s (1.00)"), "\(table.stdout)")
        #expect(lines.contains { $0.hasPrefix("  circle top             75     0.0      +0.0") }, "\(table.stdout)")
        #expect(lines.filter { $0.hasPrefix("    moving ") }.count == 2, "\(table.stdout)")
        let json = try Tool.run(args + ["--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let features = object?["features"] as? [[String: Any]]
        #expect(features?.map { $0["name"] as? String } == ["circle top"])
        #expect(features?.allSatisfy { (($0["rms"] as? NSNumber)?.doubleValue ?? 1) < 0.01 } == true, "\(json.stdout)")
    }

    @Test(
        "A recording cut 0.32 s into the storyboard: its start is found, and scores 0.0 px at no lag, as when told; --start 0 is far off"
    )
    func start() throws {
        let dir = temporaryFolder()
        try Self.features.write(toFile: dir + "/features.yaml", atomically: true, encoding: .utf8)
        #expect(
            try Tool.run(["render", "expanding-view", "--storyboard", "bottom", "--fps", "25", "-o", dir + "/all/"])
                .status == 0)
        // Its first 8 frames (0.32 s at 25 fps) left out.
        let frames = try FileManager.default.contentsOfDirectory(atPath: dir + "/all").sorted()
        try FileManager.default.createDirectory(atPath: dir + "/cut", withIntermediateDirectories: true)
        for name in frames.dropFirst(8) {
            try FileManager.default.copyItem(atPath: dir + "/all/" + name, toPath: dir + "/cut/" + name)
        }
        #expect(try Tool.run(["encode", dir + "/cut", "-o", dir + "/cut.gif", "--fps", "25"]).status == 0)
        let args = [
            "score", dir + "/cut.gif", "expanding-view", "--storyboard", "bottom", "--features", dir + "/features.yaml",
        ]
        let told = try Tool.run(args + ["--start", "0.32"])
        #expect(told.stdout.contains("the recording starts 0.320 s into the storyboard (--start)"), "\(told.stdout)")
        #expect(
            told.stdout.contains("  circle top             67     0.0      +0.0   0.00      +0   +0.00"),
            "\(told.stdout)")
        let found = try Tool.run(args)
        #expect(
            found.stdout.contains(
                "the recording starts 0.320 s into the storyboard (found from whole frames; --start gives it)"),
            "\(found.stdout)")
        #expect(
            found.stdout.contains("  circle top             67     0.0      +0.0   0.00      +0   +0.00"),
            "\(found.stdout)")
        let wrong = try Tool.run(args + ["--start", "0"])
        let row = wrong.stdout.split(separator: "\n").first { $0.hasPrefix("  circle top") } ?? ""
        let rms = Double(row.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first ?? "") ?? 0
        #expect(rms > 50, "\(wrong.stdout)")
        let refused = try Tool.run(args + ["--start", "nan"])
        #expect(
            refused.status == 64 && refused.stderr.contains("--start nan: expected seconds in -600...600"),
            "\(refused.stderr)")
    }

    @Test("--grid ranks the recording's own value first; --window without --grid or --fit-stroke is refused")
    func grid() throws {
        let (_, args) = try Self.recording(set: ["expand.duration=0.5"])
        let ranked = try Tool.run(args + ["--grid", "expand.duration=0.5,0.6"])
        let lines = ranked.stdout.split(separator: "\n").map(String.init)
        #expect(ranked.status == 0 && lines.count == 3, "\(ranked.stdout)\(ranked.stderr)")
        #expect(lines[0].hasPrefix("rec.gif: 2 combinations of expand.duration, best first"), "\(lines)")
        // Best first: the recording's own 0.5 s, within a few pixels (its stretches are scored as
        // a 25 fps capture of a 60 Hz display, which a render is not); the other far off, even
        // at the start that suits it best (each trial is aligned as fit aligns it), and farther
        // at the recording's own start.
        let overall = lines.dropFirst().map { Double($0.split(separator: " ")[0])! }
        #expect(lines[1].contains("expand.duration=0.5  |") && overall[0] < 3 && overall[1] > 10, "\(lines)")
        let atZero = try Tool.run(args + ["--grid", "expand.duration=0.5,0.6", "--start", "0"]).stdout
            .split(separator: "\n").dropFirst().map { Double($0.split(separator: " ")[0])! }
        #expect(atZero.count == 2 && atZero[0] == overall[0] && atZero[1] > 50, "\(atZero)")
        let window = try Tool.run(args + ["--window", "1,2"])
        #expect(window.status == 64 && window.stderr.contains("--window ranks a --grid or bounds a --fit-stroke"))
    }

    @Test("--side-by-side and --sheet show a slower recording beside ours, both rows labelled and marked")
    func pictures() throws {
        let (dir, args) = try Self.recording(set: ["expand.duration=0.6"])
        let run = try Tool.run(args + ["--side-by-side", dir + "/side.gif", "--sheet", dir + "/sheet.png"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("wrote \(dir)/side.gif") && run.stdout.contains("wrote \(dir)/sheet.png"))
        let side = try GIFDecoder.read(path: dir + "/side.gif")
        // The recording and ours, 8 px apart, under a 20 px label row, a frame each 40 ms.
        #expect(side.width == 320 * 2 + 8 && side.height == 568 + 20)
        #expect(side.centiseconds == 320, "\(side.centiseconds)")
        // Where the two circles' tops differ by more than 2 px, each side marks its own, in red,
        // across the circle's centre line.
        func marked(_ frame: Bitmap, x: Int) -> Bool {
            (0..<568).contains { y in
                let p = frame[x, 20 + y]
                return p.r > 200 && p.g < 80
            }
        }
        let both = side.frames.filter { marked($0.bitmap, x: 150) && marked($0.bitmap, x: 320 + 8 + 150) }
        #expect(both.count >= 10, "\(both.count)")
        let sheet = try PNGCodec.read(path: dir + "/sheet.png")
        #expect(sheet.width == 8 + 12 * (150 + 8), "\(sheet.width)")
    }

    @Test("A features file's problems are said with their lines, without the usage, exit 1")
    func badFeatures() throws {
        let dir = temporaryFolder()
        try "features:\n  - name: x\n    shift: {rect: [0, 0, 10], at: 0, search: 5}\n".write(
            toFile: dir + "/f.yaml", atomically: true, encoding: .utf8)
        let run = try Tool.run(["score", dir + "/none.gif", "expanding-cells", "--features", dir + "/f.yaml"])
        #expect(
            run.status == 1 && run.stderr.contains("f.yaml:3: features[0].shift.rect: expected [x, y, width, height]"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("Usage:"))
    }
}
