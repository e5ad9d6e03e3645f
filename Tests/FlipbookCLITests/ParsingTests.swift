import ArgumentParser
@testable import FlipbookCLI
import Flipbook
import Testing

/// The command line parsed in-process, as swift-argument-parser's own tests do: every option
/// check that needs no scene, without spawning the tool. The end-to-end suites keep the runs.
@Suite("Parsing: options are checked by name before any work")
struct ParsingTests {
    /// The message and exit code of parsing `arguments` as the tool does (a negative number
    /// after an option joined to it), or nil when they parse.
    func failure(_ arguments: [String]) -> (message: String, code: Int32)? {
        do {
            _ = try FlipbookCommand.parseAsRoot(negativeValuesJoined(arguments))
            return nil
        } catch {
            return (FlipbookCommand.message(for: error), FlipbookCommand.exitCode(for: error).rawValue)
        }
    }

    @Test(
        "render's errors name the value and what was expected: a missing output, a scene misspelt, a range",
        arguments: [
            (["render", "expanding-cells"], "-o is required"),
            (["render", "swipe", "-o", "x.gif"], "no scene 'swipe'; expected one of expanding-cells"),
            (
                ["render", "expanding-cell", "-o", "x.gif"],
                "no scene 'expanding-cell'; did you mean expanding-cells?; expected one of expanding-cells"
            ),
            (
                ["render", "expanding-cells", "-o", "x.gif", "--frames", "9-3"],
                "--frames 9-3: expected A-B (0-based, inclusive) or N"
            ),
            (
                ["render", "expanding-cells", "-o", "x.gif", "--max-size", "five"],
                "--max-size five: expected a size of at least 1 KiB"
            ),
        ])
    func renderErrors(arguments: [String], message: String) throws {
        let failed = try #require(failure(arguments), "\(arguments) parsed")
        #expect(failed.message.contains(message), "\(failed.message)")
        #expect(failed.code == 64)
    }

    @Test(
        "Bad options and combinations are exit 64, naming the option",
        arguments: [
            (
                ["render", "expanding-cells", "-o", "x.gif", "--speed", "0.009"],
                "--speed 0.009: expected a factor in 0.01...100"
            ),
            (["render", "expanding-cells", "-o", "x.gif", "--threads", "0"], "--threads 0: expected 1...256"),
            (["render", "expanding-cells", "-o", "x.gif", "--time", "1"], "--time: only a PNG still"),
            (
                ["render", "expanding-cells", "-o", "x.png", "--time", "1", "--frames", "3"],
                "--frames 3: a PNG still is one moment"
            ),
            (["render", "expanding-cells", "-o", "x.png"], "a PNG still needs --time"),
            (["render", "expanding-cells", "-o", "x.gif", "--overwrite"], "--overwrite: only a folder of frames"),
            (["render", "expanding-cells", "-o", "x.gif", "--dry-run"], "--dry-run writes nothing"),
            (["render", "expanding-cells", "-o", "x.bmp"], "-o x.bmp: expected out.gif, out.webp"),
            (["render", "expanding-cells", "-o", "x.webp", "--colors", "64"], "--colors: a GIF setting"),
            (
                ["render", "expanding-cells", "-o", "x.webp", "--loop", "65536"],
                "--loop 65536: a WebP plays at most 65535 times"
            ),
            (["render", "expanding-cells", "-o", "x.mp4", "--loop", "2"], "--loop: an MP4 has no loop count"),
            (
                ["render", "expanding-cells", "-o", "x.png", "--time", "1", "--quality", "80"],
                "--quality: PNG frames are exact"
            ),
            (["render", "expanding-cells", "-o", "frames/", "--loop", "3"], "--loop: PNG frames are exact"),
            (["encode", "frames", "-o", "x.mp4", "--fps", "0.1"], "--fps 0.1: an MP4 plays at 1...120 fps"),
            (["render", "expanding-cells", "--watch", "-o", "frames/"], "--watch: a folder of frames"),
            (["render", "expanding-cells", "-o", "x.gif", "--fps", "0"], "--fps 0.0: expected a number in 1...120"),
            (["render", "expanding-cells", "-o", "x.gif", "--scale", "4"], "--scale 4: expected 1, 2 or 3"),
            (["render", "nope", "-o", "x.gif"], "no scene 'nope'"),
            (
                ["render", "expanding-cells", "-o", "x.gif", "--width", "300", "--scale", "2"],
                "--width and --scale: give one"
            ),
            (["render", "expanding-cells", "-o", "x.gif", "--width", "8"], "--width 8: expected 16...8192"),
            (["scene"], "expected a scene"),
            (["scene", "expanding-view", "--reference", "--to", "x"], "--reference prints the format, not a scene"),
            (["scene", "--reference", "--to", "x"], "--to x: --reference prints the format"),
            (["scene", "--reference", "--schema"], "--reference and --schema: choose one"),
            (["scene", "expanding-view", "--schema"], "expanding-view: --schema prints the format, not a scene"),
            (["build", "--shard", "5/4"], "--shard 5/4: expected I/N"),
            (["build", "--shard", "two"], "--shard two: expected I/N"),
            (["build", "--check", "--list"], "--check and --list: give one"),
            (["build", "--force", "--check"], "--force renders"),
            (["build", "--jobs", "0"], "--jobs 0: expected 1...256"),
            (["studio", "expanding-cells", "--host", "localhost"], "--host localhost: expected an IP address"),
            (
                ["studio", "expanding-cells", "--features", "f.yaml"],
                "--features f.yaml: scores the render against a recording; give --against"
            ),
            (["scene", "expanding-cells", "--reference"], "--reference prints the format"),
            (
                ["render", "expanding-cells", "-o", "frames/", "--max-size", "5MB"],
                "--max-size 5000000 B: fits a GIF, a WebP, an MP4 or an APNG"
            ),
            (
                ["render", "expanding-cells", "-o", "x.gif", "--max-size", "5MB", "--frames", "1-9"],
                "--frames 1-9: --max-size fits the whole storyboard"
            ),
            (
                ["render", "expanding-cells", "-o", "x.gif", "--max-size", "5MB", "--sheet", "s.png"],
                "--sheet s.png: --max-size runs several encodes"
            ),
            (["render", "expanding-cells", "-o", "x.gif", "--max-size", "five"], "--max-size"),
            (
                ["render", "expanding-cells", "-o", "x.mp4", "--lossy", "3"],
                "--lossy: a GIF setting; an MP4 takes --quality"
            ),

            (["encode", "frames", "-o", "x.mov"], "expected a path ending in .gif, .webp, .mp4 or .apng"),
            (["render", "expanding-cells", "-o", "x.gif", "--max-size", "100"], "--max-size"),
            (["render", "expanding-cells", "-o", "x.gif", "--frames", "9-3"], "--frames 9-3"),
            (["render", "expanding-cells", "-o", "x.gif", "--frames", "-2"], "--frames"),
            (["scene", "--from", "push.gif"], "--from push.gif: --to FOLDER says where the scene goes"),
            (
                ["scene", "nav-push", "--from", "push.gif", "--to", "out"],
                "nav-push: --from makes a scene from a recording"
            ),
            (["scene", "--from", "push.gif", "--to", "out", "--points", "5"], "--points 5: expected a screen width"),
            (["scene", "--from", "push.gif", "--to", "out", "--frame-interval", "20"], "--frame-interval 20.0"),
            (["scene", "expanding-view", "--points", "375"], "--points is for --from RECORDING"),
            (["scene", "expanding-view", "--first", "a.png"], "--first is for --from RECORDING"),
            (
                ["scene", "--from", "push.gif", "--to", "out", "--side-by-side", "x.txt"],
                "--side-by-side x.txt: a .gif"
            ),
        ])
    func refused(arguments: [String], message: String) {
        let f = failure(arguments)
        #expect(f?.code == 64, "\(arguments)")
        #expect(f?.message.contains(message) == true, "\(f?.message ?? "parsed")")
    }

    @Test(
        "Good combinations parse",
        arguments: [
            ["render", "expanding-cells", "-o", "x.gif", "--speed", "0.01"],
            ["render", "expanding-cells", "-o", "x.png", "--time", "1.5", "--scale", "2"],
            ["render", "Assets/examples/nav-push/nav-push.yaml", "-o", "frames/", "--overwrite", "--frames", "0-9"],
            ["render", "expanding-cells", "--dry-run", "--stats", "s.json"],
            ["compare", "a.gif", "b.gif", "--json", "--max-delta", "3"],
            ["scene", "--reference"],
            ["scene", "--schema"],
            ["scene", "--from", "push.gif", "--to", "out", "--points", "390", "--crop", "0,0,780,1688"],
            ["render", "expanding-cells", "-o", "x.webp", "--max-size", "1.5MiB"],
            ["render", "expanding-cells", "-o", "x.mp4", "--max-size", "500KB"],
        ])
    func accepted(arguments: [String]) {
        #expect(failure(arguments) == nil, "\(failure(arguments)?.message ?? "")")
    }

    @Test("A scene argument completes to the built-ins, then scene files and the folders on the way to them")
    func sceneCompletion() {
        #expect(SceneOptionGroup.sceneFiles(matching: "Assets/examples/nav") == ["Assets/examples/nav-push/"])
        #expect(
            SceneOptionGroup.sceneFiles(matching: "Assets/examples/nav-push/") == [
                "Assets/examples/nav-push/nav-push.yaml"
            ])
        #expect(
            SceneOptionGroup.sceneFiles(matching: "Assets/expanding-view/expanding-view.y") == [
                "Assets/expanding-view/expanding-view.yaml"
            ])
        #expect(SceneOptionGroup.sceneFiles(matching: "Assets/expanding-view/list").isEmpty)
        #expect(SceneOptionGroup.sceneCandidates("exp") == ["expanding-cells", "expanding-view"])
        #expect(SceneOptionGroup.sceneCandidates("Assets/app").first == "Assets/app-store-card/")
    }

    @Test("--frames takes A-B or N, 0-based and inclusive, and says itself back as given")
    func frameRanges() {
        #expect(FrameRange("30-45") == FrameRange(30...45))
        #expect(FrameRange("7") == FrameRange(7...7))
        #expect(FrameRange("7")?.description == "7" && FrameRange("0-9")?.description == "0-9")
        for bad in ["", "-", "3-", "-3", "9-3", "a-b", "1-2-3", " 4"] {
            #expect(FrameRange(bad) == nil, "\(bad)")
        }
    }

    @Test("Every laid-out line of a command's help (an example, a table row) fits an 80-column terminal")
    func helpFitsATerminal() {
        // Prose is wrapped by the parser; an indented line is laid out by hand, and one the parser
        // wrapped would break a command in two or a table's columns.
        for command in [FlipbookCommand.self] + FlipbookCommand.configuration.subcommands {
            let discussion = command.configuration.discussion
            for line in discussion.split(separator: "\n") where line.first == " " {
                #expect(line.count <= 80, "flipbook \(command.configuration.commandName ?? ""): \(line)")
            }
        }
    }

    @Test(
        "encode's out-of-range options name the option and the range",
        arguments: [
            (["--quality", "0"], "--quality 0: expected 1...100"),
            (["--dither", "2"], "--dither 2.0: expected a number in 0...1"),
            (["--colors", "300"], "--colors 300: expected 2...256"),
            (["--fps", "0"], "--fps 0: expected a number in 0.1...1000"),
            (["--loop", "-3"], "--loop"), (["--lossy", "65"], "--lossy 65: expected 0...64"),
            (["--lossy", "2", "--dither", "0.5"], "--lossy 2 needs --dither 0"),
        ])
    func encodeOptions(extra: [String], message: String) throws {
        let failed = try #require(failure(["encode", "frames", "-o", "o.gif"] + extra))
        #expect(failed.code == 64 && failed.message.contains(message), "\(failed.message)")
    }

    @Test(
        "compare's tolerances fail closed: NaN, text or out of range is an error, never a pass",
        arguments: [
            ["--max-delta", "nan"], ["--max-delta", "1.5"], ["--max-fraction", "two"], ["--max-fraction", "150%"],
            ["--perceptual=-1"], ["--perceptual", "inf"],
        ])
    func compareTolerances(option: [String]) throws {
        let failed = try #require(failure(["compare", "a.png", "b.png"] + option))
        let name = option[0].split(separator: "=")[0]
        #expect(
            failed.message.contains("' is invalid for '\(name) <") && failed.message.contains("expected a"),
            "\(failed.message)")
    }
}
