import Foundation
import Synchronization
import Testing

@Suite("render --watch")
struct WatchTests {
    /// A running tool whose output is collected as it comes.
    final class Running: Sendable {
        let process = Process()
        let output = Mutex("")

        init(_ arguments: [String]) throws {
            process.executableURL = Tool.executable
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let text = String(decoding: handle.availableData, as: UTF8.self)
                self?.output.withLock { $0 += text }
            }
            try process.run()
        }

        /// Waits until `count` occurrences of `text` have been printed.
        func wait(for text: String, count: Int = 1, timeout: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if output.withLock({ $0.components(separatedBy: text).count - 1 }) >= count { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    @Test("A saved scene file renders again; a broken one says why, names the line, and the output stays")
    func rendersAgainOnSave() throws {
        let folder = temporaryFolder()
        let scene = (folder as NSString).appendingPathComponent("expanding-view")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        try FileManager.default.copyItem(
            atPath: root.appendingPathComponent("Assets/expanding-view").path, toPath: scene)
        let file = (scene as NSString).appendingPathComponent("expanding-view.yaml")
        let out = (folder as NSString).appendingPathComponent("out.gif")
        let tool = try Running(["render", file, "-o", out, "--watch"])
        defer { tool.stop() }
        #expect(tool.wait(for: "watching"))
        let first = try Data(contentsOf: URL(fileURLWithPath: out))
        let original = try String(contentsOfFile: file, encoding: .utf8)
        // An editor's save: a new file renamed over the old one.
        try original.replacingOccurrences(of: "restHold: {seconds: 0.7,", with: "restHold: {seconds: 0.3,")
            .write(toFile: file + ".swp", atomically: false, encoding: .utf8)
        _ = rename(file + ".swp", file)
        #expect(tool.wait(for: "watching", count: 2))
        let second = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(second != first)
        #expect(tool.output.withLock { $0.contains("2.60 s") })
        try original.replacingOccurrences(of: "restHold: {seconds: 0.7,", with: "restHold: {seconds: soon,")
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(tool.wait(for: "watching", count: 3))
        #expect(tool.output.withLock { $0.contains("error: \(file):25: params.timing.restHold: expected seconds") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == second)
    }
}
