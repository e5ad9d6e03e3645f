import Foundation
import Testing

/// The examples shipped beside the built-ins are scenes a name gives, as the built-ins are.
@Suite("Example scenes are named like the built-ins")
struct ExampleScenesTests {
    @Test("list shows nav-push as an example; scene --to writes it with its images; render takes its name")
    func navPush() throws {
        let list = try Tool.run(["list"])
        let line = list.stdout.split(separator: "\n").first { $0.hasPrefix("nav-push ") }
        #expect(line?.contains("example, to start your own from") == true, "\(list.stdout)")
        #expect(line?.contains("(storyboards: swipe-back, cancelled)") == true, "\(list.stdout)")
        let dir = temporaryFolder()
        #expect(try Tool.run(["scene", "nav-push", "--to", dir + "/np"]).status == 0)
        #expect(
            ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/np")) ?? []).sorted() == [
                "display.png", "nav-push.yaml", "settings.png",
            ])
        let byName = try Tool.run(["render", "nav-push", "-o", dir + "/a.png", "--time", "0.5"])
        let byCopy = try Tool.run(["render", dir + "/np/nav-push.yaml", "-o", dir + "/b.png", "--time", "0.5"])
        #expect(byName.status == 0 && byCopy.status == 0, "\(byName.stderr) \(byCopy.stderr)")
        #expect(
            FileManager.default.contents(atPath: dir + "/a.png") == FileManager.default.contents(atPath: dir + "/b.png")
        )
        let typo = try Tool.run(["scene", "nav-pus"])
        #expect(typo.status == 64 && typo.stderr.contains("did you mean nav-push?"), "\(typo.stderr)")
    }
}
