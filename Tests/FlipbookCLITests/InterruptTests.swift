import Flipbook
import Foundation
import Studio
import Testing

@testable import FlipbookCLI

@Suite("An interrupted render leaves nothing")
struct InterruptTests {
    @Test(
        "Ctrl-C, SIGTERM or SIGHUP during a folder render removes the frames it wrote; the next render needs no --overwrite",
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func folder(signal: Int32) throws {
        let folder = temporaryFolder() + "/frames/"
        let process = Process()
        process.executableURL = Tool.executable
        process.arguments = ["render", "sliding-panels", "-o", folder, "--scale", "3", "--threads", "1", "--quiet"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        func frames() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".png") }
        }
        while frames().count < 5 && Date() < deadline && process.isRunning { Thread.sleep(forTimeInterval: 0.01) }
        #expect(process.isRunning, "the render ended before it could be interrupted")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        #expect(frames().isEmpty, "\(frames().count) frames left behind")
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said == "\ninterrupted: no output was written\n", "\(said)")
        let again = try Tool.run(["render", "expanding-view", "-o", folder, "--frames", "0-2", "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// A copy of expanding-view to open in the studio.
    static func sceneCopy() throws -> String {
        let folder = temporaryFolder()
        try FileManager.default.copyItem(
            atPath: (Transition.assetsFolder as NSString).appendingPathComponent("expanding-view"),
            toPath: folder + "/ev")
        return folder + "/ev/expanding-view.yaml"
    }

    @Test("Stopped with edits it had not saved, the studio prints them as the --set flags that give them back")
    func studioNote() throws {
        let scene = try Self.sceneCopy()
        let session = try StudioSession(options: StudioOptions(scene: scene))
        #expect(StudioCommand.stopNote(session) == "the studio stopped; it had no unsaved edits")
        #expect(session.edit(["expand.duration": "0.5", "buttons.bottom": "[135, 470, 50, 50]"]) == nil)
        #expect(
            StudioCommand.stopNote(session) == """
                the studio stopped with 2 edits not saved into \(scene):
                  --set 'buttons.bottom=[135, 470, 50, 50]' --set expand.duration=0.5
                """)
        // The flags give flipbook render the very values.
        let run = try Tool.run([
            "render", scene, "--set", "buttons.bottom=[135, 470, 50, 50]", "--set", "expand.duration=0.5", "--dry-run",
        ])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test("Ctrl-C stops the studio with exit 130, saying so")
    func studioInterrupted() throws {
        let process = Process()
        process.executableURL = Tool.executable
        process.arguments = ["studio", try Self.sceneCopy()]
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        // The address is printed once the studio listens.
        let started = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        #expect(started.hasPrefix("Flipbook studio: http://127.0.0.1:"), "\(started)")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130)
        #expect(said == "\nthe studio stopped; it had no unsaved edits\n", "\(said)")
    }

    @Test("Ctrl-C during a build keeps the outputs it finished, and says how many")
    func build() throws {
        let folder = temporaryFolder()
        // Two outputs of a few seconds each, one job: they build in turn (the costlier first).
        try """
        version: 1
        outputs:
          - path: panels.gif
            scene: sliding-panels
          - path: card.gif
            scene: app-store-card
        """.write(toFile: folder + "/flipbook.yaml", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = Tool.executable
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.arguments = ["build", "--jobs", "1"]
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        // Interrupted once the first output is built: the build prints each as it finishes.
        var printed = ""
        while !printed.contains("[1/2] built ") && process.isRunning {
            printed += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130, "\(printed)")
        #expect(said == "\ninterrupted: 1 of 2 outputs built and kept; none is half-written\n", "\(said)")
        let first = try #require(printed.split(separator: " ").dropFirst(2).first.map(String.init))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == [first, "flipbook.yaml"].sorted(), "\(left) after \(printed)")
    }
}
