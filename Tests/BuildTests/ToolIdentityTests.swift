import Foundation
import TestSupport
import Testing

@testable import Build
import Flipbook

/// An output's key names the tool that made it: other rendering code or another encoder library
/// makes every output stale, and the stale output says it was the tool.
@Suite("Build keys name the tool")
struct ToolIdentityTests {
    @Test("This tool is named by its version, its rendering code's digest and its libraries' versions")
    func current() {
        let tool = ToolIdentity.current(version: "9.9")
        #expect(tool.sources.count == 64 && tool.sources.allSatisfy(\.isHexDigit), "\(tool.sources)")
        let names = tool.libraries.map { String($0.split(separator: " ")[0]) }
        #expect(names == ["libpng", "giflib", "libimagequant", "libwebp", "libavcodec", "libavformat", "libswscale"])
        #expect(tool.description.hasPrefix("flipbook 9.9, rendering code \(tool.sources.prefix(12)), libpng "))
    }

    @Test(
        "Other rendering code, or another library, makes every output stale, naming the tool alone; a new version does not"
    )
    func anotherTool() throws {
        let dir = temporaryFolder()
        let manifest = try BuildManifest(
            text: """
                outputs:
                  - {path: a.gif, scene: expanding-view, fps: 4, width: 64}
                  - {path: b.png, scene: expanding-view, time: 0.5, width: 64}
                """, file: dir + "/flipbook.yaml")
        let tool = ToolIdentity.current(version: "test")
        let first = try BuildPlan(manifest: manifest, tool: tool)
        #expect(first.items.map(\.state) == [.missing, .missing])
        let outcomes = BuildRunner(jobs: 1, threads: 1).build(first.items)
        #expect(outcomes.count == 2)
        #expect(try BuildPlan(manifest: manifest, tool: tool).items.map(\.state) == [.fresh, .fresh])

        var patched = tool
        patched.sources = String(repeating: "0", count: 64)
        var relinked = tool
        relinked.libraries[2] = "libimagequant 1"
        // A release whose rendering code and libraries are the same makes the same pixels.
        var upgraded = tool
        upgraded.version = "test-2"
        #expect(try BuildPlan(manifest: manifest, tool: upgraded).items.map(\.state) == [.fresh, .fresh])
        for other in [patched, relinked] {
            let items = try BuildPlan(manifest: manifest, tool: other).items
            #expect(items.map(\.state) == [.stale, .stale])
            #expect(items.map(\.staleBecause) == [["tool"], ["tool"]])
            #expect(items[0].key.parts[1...] == first.items[0].key.parts[1...])
        }
    }

    @Test("A stamp carries the key and its parts, and reads back; another kind of stamp is none")
    func stamps() {
        let key = OutputKey(parts: OutputKey.partNames.map { $0 + String(repeating: "a", count: 64) })
        #expect(key.stamp.count == OutputStamp.length && OutputKey(stamp: key.stamp) == key)
        #expect(OutputKey(stamp: key.hex) == nil)
        let other = OutputKey(parts: ["t", "s", "scene", "c", "i"].map { String(repeating: "c", count: 60) + $0 })
        #expect(key.changedParts(since: other) == OutputKey.partNames)
        #expect(key.changedParts(since: key) == [])
    }
}
