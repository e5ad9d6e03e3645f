import ArgumentParser
import Flipbook
import Testing

@testable import FlipbookCLI

/// The one export request: the CLI parses flags into it, prints it back as flags, and spells
/// its typed errors as flags, while the library and a manifest name options as keys.
@Suite("Export requests: flags in, the same request out, typed errors spelled by who shows them")
struct ExportRequestTests {
    @Test(
        "A render's flags make a request whose command line parses back to the same request",
        arguments: [
            ["expanding-cells", "-o", "a.gif"],
            [
                "expanding-view", "--storyboard", "small", "--set", "expand.duration=0.5", "--fps", "20", "--width",
                "240",
                "--max-size", "950kB", "-o", "b.gif",
            ],
            ["app-store-card", "--time", "1.25", "--scale", "2", "-o", "c.png"],
            ["sliding-panels", "--speed", "0.5", "--frames", "3-9", "--quality", "80", "--loop", "2", "-o", "d.webp"],
            [
                "expanding-cells", "--dither", "0", "--lossy", "16", "--colors", "64", "--quantizer-speed", "3",
                "--palette-steps", "0", "--threads", "2", "--stats", "s.json", "-o", "e.gif",
            ],
            ["expanding-cells", "--dry-run", "--sheet", "sheet.png"],
            ["expanding-cells", "--overwrite", "-o", "frames/"],
        ])
    func roundTrip(_ arguments: [String]) throws {
        let request = try RenderCommand.parse(arguments).request()
        #expect(try RenderCommand.parse(request.arguments).request() == request)
        #expect(request.commandLine.hasPrefix("flipbook render \(arguments[0]) "))
    }

    @Test("The flags fill the request's typed fields")
    func fields() throws {
        let request = try RenderCommand.parse([
            "expanding-view", "--set", "expand.duration=0.5", "--max-size", "950kB", "--loop", "3", "-o", "x.webp",
        ]).request()
        let frames = try RenderCommand.parse(["expanding-view", "--frames", "4", "-o", "x.gif"]).request()
        #expect(request.scene == "expanding-view" && request.assignments == ["expand.duration=0.5"])
        #expect(request.maxSize?.bytes == 950_000 && request.maxSize?.description == "950kB")
        #expect(frames.frames == FrameRange(4...4) && request.encoding.loop == .plays(3))
        #expect(request.format == .animation(.webp) && request.output == "x.webp")
    }

    @Test("A refused request names its option and value; the CLI spells it as a flag, others as a key")
    func typedErrors() throws {
        var request = ExportRequest(scene: "expanding-cells")
        request.output = "x.png"
        request.time = 1
        request.speed = 2
        let error = try #require(throws: ExportError.self) { try request.check() }
        #expect(error.kind == .invalid && error.option == .speed)
        #expect(error.description == "speed: a PNG still is one moment (time); leave speed out")
        #expect(error.message.onCommandLine == "--speed: a PNG still is one moment (--time); leave --speed out")

        request.speed = 1
        request.maxSize = ByteSize("5MB")
        let budget = try #require(throws: ExportError.self) { try request.check() }
        #expect(budget.option == .maxSize && budget.value == "5MB")
    }

    @Test("A manifest's text sets an option, or is refused naming it")
    func setFromText() throws {
        var request = ExportRequest(scene: "expanding-cells")
        try request.set(.maxSize, to: "1.5MiB")
        try request.set(.speed, to: "0.5")
        try request.set(.loop, to: "forever")
        #expect(request.maxSize?.bytes == 1_572_864 && request.speed == 0.5 && request.encoding.loop == .forever)
        let error = try #require(throws: ExportError.self) { try request.set(.fps, to: "fast") }
        #expect(error.option == .fps && error.value == "fast" && error.description == "fps fast: expected a number")
    }
}
