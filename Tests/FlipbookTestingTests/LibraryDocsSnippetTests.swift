import Flipbook
import FlipbookTesting
import Foundation
import Testing

/// The libraries' DocC pages' code, run as the pages show it: each block stands here line for
/// line (Tests/Docs/docs_test.py checks that), in a fresh current folder, since the pages write
/// relative paths as a user's code would.
@Suite("The libraries' documentation runs as written", .serialized)
struct LibraryDocsSnippetTests {
    /// Runs `body` with the current folder a fresh one holding `Previews/sheet.yaml` (a scene file
    /// with its images), and returns that folder.
    @discardableResult
    static func inFreshFolder(_ body: () throws -> Void) throws -> String {
        let folder = NSTemporaryDirectory() + "flipbook-docs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/Previews", withIntermediateDirectories: true)
        let scene = Transition.assetsFolder + "/expanding-view/"
        for file in ["screen.png", "next.png", "statusbar.png"] {
            try FileManager.default.copyItem(atPath: scene + file, toPath: folder + "/Previews/" + file)
        }
        try FileManager.default.copyItem(
            atPath: scene + "expanding-view.yaml", toPath: folder + "/Previews/sheet.yaml")
        let before = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(folder)
        defer { FileManager.default.changeCurrentDirectoryPath(before) }
        try body()
        return folder
    }

    @Test("Flipbook.md: a frame looked into, the storyboard written as a GIF")
    func landingPage() throws {
        let folder = try Self.inFreshFolder {
            let inbox = try Transition(builtIn: "expanding-cells")
            let middle = inbox.frame(at: inbox.duration / 2)
            print(middle.width, middle.height, middle[10, 10])
            try inbox.write(to: "inbox.gif")
            #expect(middle.width == 375 && middle.height == 667)
        }
        let gif = try Data(contentsOf: URL(fileURLWithPath: folder + "/inbox.gif"))
        #expect(String(decoding: gif.prefix(6), as: UTF8.self) == "GIF89a" && gif.count > 100_000)
    }

    @Test("RenderingATransition.md: load, tweak, render frames, export an MP4")
    func renderingATransition() throws {
        var exported: ExportReport?
        var command = ""
        let folder = try Self.inFreshFolder {
            let inbox = try Transition(builtIn: "expanding-cells")
            let mine = try Transition(contentsOf: URL(fileURLWithPath: "Previews/sheet.yaml"))
            #expect(inbox.duration > 5 && mine.name == "expanding-view")

            let slow = try Transition(
                builtIn: "expanding-cells", storyboard: "promo",
                set: ["present.duration=0.9", "present.damping=0.8"], fps: 60, width: 320)

            for frame in try slow.frames(at: [0.5, 1.0, 1.5]) {
                try frame.bitmap.writePNG(to: "slow-\(frame.time).png")
            }

            var request = ExportRequest(scene: "expanding-view")
            request.assignments = ["expand.duration=0.5"]
            request.output = "preview.mp4"
            request.maxSize = ByteSize("5MB")
            let report = try request.run(ExportEvents(progress: { done, total in print(done, total) }))
            // Prints: flipbook render expanding-view --set expand.duration=0.5 --max-size 5MB -o preview.mp4
            print(request.commandLine)
            exported = report
            command = request.commandLine
        }
        for time in ["0.5", "1.0", "1.5"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/slow-\(time).png"), "slow-\(time).png")
        }
        let mp4 = try Data(contentsOf: URL(fileURLWithPath: folder + "/preview.mp4"))
        #expect(exported?.bytes == mp4.count && String(decoding: mp4[4..<8], as: UTF8.self) == "ftyp")
        #expect(command == "flipbook render expanding-view --set expand.duration=0.5 --max-size 5MB -o preview.mp4")
    }

    static let sheetURL = URL(fileURLWithPath: Transition.assetsFolder + "/expanding-view/expanding-view.yaml")

    @Suite(.frameTesting(record: .failed))
    struct Previews {
        let sheetURL = LibraryDocsSnippetTests.sheetURL

        @Test func sheet() throws {
            try assertFrames(of: Transition(contentsOf: sheetURL), at: [0.9])
        }
    }
}
