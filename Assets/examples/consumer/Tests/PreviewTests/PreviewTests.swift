import Foundation
import FlipbookTesting
import Testing

@Suite("Our transitions look as they did")
struct PreviewTests {
    @Test("The inbox row still grows the same way, on our slower spring")
    func inboxExpands() throws {
        try assertFrames(of: Transition(builtIn: "expanding-cells", set: ["present.duration=0.9"]), at: [1.15, 1.3, 1.6])
    }

    @Test("A rendered frame is a bitmap we can look into")
    func pixels() throws {
        let frame = try Transition(builtIn: "expanding-view", storyboard: "small").frame(at: 1.5)
        #expect(frame.width == 320 && frame.height == 568)
    }

    @Test("The README's preview is an MP4 the library writes, as `flipbook render` does")
    func exportsAnMP4() throws {
        var request = ExportRequest(scene: "expanding-view")
        request.storyboard = "small"
        request.output = NSTemporaryDirectory() + "preview-\(UUID().uuidString).mp4"
        defer { try? FileManager.default.removeItem(atPath: request.output!) }
        let report = try request.run()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: request.output!))
        #expect(report.bytes == bytes.count && bytes.count > 1000)
        #expect(String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp")
        #expect(request.commandLine.hasPrefix("flipbook render expanding-view --storyboard small -o "))
    }
}
