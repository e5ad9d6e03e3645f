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

    @Test("flipbook config names Flipbook's own images from its folder, and the config renders the same from anywhere")
    func configNamesBuiltInImages() throws {
        let dir = temporaryFolder()
        let config = try Tool.run(["config", "expanding-cells"], in: dir)
        #expect(config.stdout.contains(#"list: "Assets/expanding-cells/list.png""#), "\(config.stdout.prefix(600))")
        #expect(!config.stdout.contains(#": "/"#), "no absolute path")
        try Data(config.stdout.utf8).write(to: URL(fileURLWithPath: dir + "/full.yaml"))
        let withConfig = try Tool.run(
            ["render", "expanding-cells", "--config", "full.yaml", "-o", "a.png", "--time", "1"], in: dir)
        let without = try Tool.run(["render", "expanding-cells", "-o", "b.png", "--time", "1"], in: dir)
        #expect(withConfig.status == 0 && without.status == 0, "\(withConfig.stderr)")
        #expect(withConfig.stderr.isEmpty, "a whole config warns of nothing: \(withConfig.stderr)")
        #expect(
            FileManager.default.contents(atPath: dir + "/a.png") == FileManager.default.contents(atPath: dir + "/b.png")
        )
    }
}
