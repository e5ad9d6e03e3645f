import Codecs
import Foundation
import TestSupport
import Testing

/// `flipbook score` from the command line: the table for a recording, and clear refusals.
@Suite("flipbook score")
struct ScoreCommandTests {
    static let features =
        (#filePath as NSString).deletingLastPathComponent + "/../../Assets/fidelity/dismiss-final.yaml"

    /// A 25 fps GIF of expanding-cells' dismiss-final with `set`, in a fresh folder, and the
    /// words of `flipbook score` for it with dismiss-final's features.
    static func recording(set: [String] = [], name: String = #function) throws -> (dir: String, score: [String]) {
        let dir = temporaryFolder(name)
        let render = try Tool.run(
            ["render", "expanding-cells", "--storyboard", "dismiss-final", "--fps", "25", "--scale", "1"]
                + set.flatMap { ["--set", $0] } + ["-o", dir + "/rec.gif"])
        #expect(render.status == 0, "\(render.stderr)")
        return (
            dir,
            ["score", dir + "/rec.gif", "expanding-cells", "--storyboard", "dismiss-final", "--features", features]
        )
    }

    @Test("A GIF of the storyboard itself scores 0.0 px at no lag, as a table and as JSON")
    func ownRecording() throws {
        let (_, args) = try Self.recording()
        let table = try Tool.run(args)
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix("the recording 3.40 s, ours 3.40 s (1.00)"), "\(table.stdout)")
        #expect(lines.contains { $0.hasPrefix("  bar bottom             85     0.0      +0.0") }, "\(table.stdout)")
        #expect(lines.contains { $0.hasPrefix("  detail body") && $0.contains(" 0.0 ") }, "\(table.stdout)")
        let json = try Tool.run(args + ["--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let features = object?["features"] as? [[String: Any]]
        #expect(features?.map { $0["name"] as? String } == ["bar bottom", "detail body"])
        #expect(features?.allSatisfy { (($0["rms"] as? NSNumber)?.doubleValue ?? 1) < 0.01 } == true, "\(json.stdout)")
    }

    @Test("--grid ranks the recording's own value first; --window without --grid or --fit-stroke is refused")
    func grid() throws {
        let (_, args) = try Self.recording(set: ["dismiss.duration=0.5"])
        let ranked = try Tool.run(args + ["--grid", "dismiss.duration=0.5,0.8"])
        let lines = ranked.stdout.split(separator: "\n").map(String.init)
        #expect(ranked.status == 0 && lines.count == 3, "\(ranked.stdout)\(ranked.stderr)")
        #expect(lines[0].hasPrefix("rec.gif: 2 combinations of dismiss.duration, best first"), "\(lines)")
        // Best first: the recording's own 0.5 s, within a pixel (its stretches are scored as a
        // 25 fps capture of a 60 Hz display, which a render is not); the other farther.
        let overall = lines.dropFirst().map { Double($0.split(separator: " ")[0])! }
        #expect(lines[1].contains("dismiss.duration=0.5  |") && overall[0] < 1 && overall[1] > 2, "\(lines)")
        let window = try Tool.run(args + ["--window", "1,2"])
        #expect(window.status == 64 && window.stderr.contains("--window ranks a --grid or bounds a --fit-stroke"))
    }

    @Test("--side-by-side and --sheet show a slower recording beside ours, both rows labelled and marked")
    func pictures() throws {
        let (dir, args) = try Self.recording(set: ["dismiss.duration=0.9"])
        let run = try Tool.run(args + ["--side-by-side", dir + "/side.gif", "--sheet", dir + "/sheet.png"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("wrote \(dir)/side.gif") && run.stdout.contains("wrote \(dir)/sheet.png"))
        let side = try GIFDecoder.read(path: dir + "/side.gif")
        // The recording and ours, 8 px apart, under a 20 px label row, a frame each 40 ms.
        #expect(side.width == 375 * 2 + 8 && side.height == 667 + 20)
        #expect(side.centiseconds == 372, "\(side.centiseconds)")
        // Somewhere the two differ by more than 2 px, a red mark is drawn on both sides.
        let marked = side.frames.contains { frame in
            (0..<667).contains { y in
                let left = frame.bitmap[45, 20 + y], right = frame.bitmap[375 + 8 + 45, 20 + y]
                return left.r > 200 && left.g < 80 && right.r > 200 && right.g < 80
            }
        }
        #expect(marked)
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
