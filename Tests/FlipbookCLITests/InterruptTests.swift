import Foundation
import Testing

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
        process.standardError = FileHandle.nullDevice
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
        let again = try Tool.run(["render", "expanding-view", "-o", folder, "--frames", "0-2", "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
    }
}
