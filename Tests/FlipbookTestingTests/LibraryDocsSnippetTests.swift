import Flipbook
import FlipbookTesting
import Foundation
import Testing

/// The libraries' DocC pages' code, run as the pages show it: each block stands here line for
/// line (Tests/Docs/docs_test.py checks that). The pages write into the temporary folder.
@Suite("The libraries' documentation runs as written", .serialized)
struct LibraryDocsSnippetTests {
    @Test("Flipbook.md: a frame looked into, the storyboard written as a GIF")
    func landingPage() throws {
        let inbox = try Transition(builtIn: "expanding-cells")
        let middle = inbox.frame(at: inbox.duration / 2)
        print(middle.width, middle.height, middle[10, 10])
        try inbox.write(to: NSTemporaryDirectory() + "inbox.gif")
        #expect(middle.width == 375 && middle.height == 667)
        let gif = try Data(contentsOf: URL(fileURLWithPath: NSTemporaryDirectory() + "inbox.gif"))
        #expect(String(decoding: gif.prefix(6), as: UTF8.self) == "GIF89a" && gif.count > 100_000)
    }

    @Test("RenderingATransition.md: load, tweak, render frames, export an MP4")
    func renderingATransition() throws {
        let inbox = try Transition(builtIn: "expanding-cells")
        let file = URL(fileURLWithPath: Transition.assetsFolder + "/examples/nav-push/nav-push.yaml")
        let mine = try Transition(contentsOf: file)
        #expect(inbox.duration > 5 && mine.name == "nav-push")

        let slow = try Transition(
            builtIn: "expanding-cells", storyboard: "promo",
            set: ["present.duration=0.9", "present.damping=0.8"], fps: 60, width: 320)

        for frame in try slow.frames(at: [0.5, 1.0, 1.5]) {
            try frame.bitmap.writePNG(to: NSTemporaryDirectory() + "slow-\(frame.time).png")
        }
        for time in ["0.5", "1.0", "1.5"] {
            let png = try Bitmap(png: NSTemporaryDirectory() + "slow-\(time).png")
            #expect(png.width == 320, "slow-\(time).png")
        }

        var request = ExportRequest(scene: "expanding-view")
        request.assignments = ["expand.duration=0.5"]
        request.output = NSTemporaryDirectory() + "preview.mp4"
        request.maxSize = ByteSize("5MB")
        let report = try request.run(ExportEvents(progress: { done, total in print(done, total) }))
        // Prints: flipbook render expanding-view --set expand.duration=0.5 --max-size 5MB -o /tmp/preview.mp4
        print(request.commandLine)
        let mp4 = try Data(contentsOf: URL(fileURLWithPath: request.output!))
        #expect(report.bytes == mp4.count && String(decoding: mp4[4..<8], as: UTF8.self) == "ftyp")
        #expect(
            request.commandLine
                == "flipbook render expanding-view --set expand.duration=0.5 --max-size 5MB -o \(request.output!)")
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
