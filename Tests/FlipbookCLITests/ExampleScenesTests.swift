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

    @Test(
        "scene byo-notes --to writes the example config with its screenshots, which render from there as from the installation"
    )
    func byoNotes() throws {
        // flipbook list is one scene a line, each one render takes; a config is not one.
        let list = try Tool.run(["list"])
        #expect(!list.stdout.contains("byo-notes"), "\(list.stdout)")
        let help = try Tool.run(["scene", "--help"])
        #expect(help.stdout.contains("byo-notes"), "\(help.stdout)")
        let dir = temporaryFolder()
        let copy = try Tool.run(["scene", "byo-notes", "--to", "notes"], in: dir)
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(
            copy.stdout.contains("flipbook render expanding-cells --config notes/expanding-cells.yaml -o byo-notes.gif")
        )
        #expect(
            ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/notes")) ?? []).sorted() == [
                "detail@3x.png", "expanding-cells.yaml", "list@3x.png", "statusbar-dark@3x.png",
                "statusbar-light@3x.png",
            ])
        let copied = try Tool.run(
            ["render", "expanding-cells", "--config", "notes/expanding-cells.yaml", "-o", "a.png", "--time", "1.2"],
            in: dir)
        let shipped = try Tool.run(["scene", "byo-notes"])
        #expect(shipped.stdout.contains("list: list@3x.png"), "\(shipped.stdout)")
        let installed = try Tool.run(
            [
                "render", "expanding-cells", "--config",
                FileManager.default.currentDirectoryPath + "/Assets/examples/byo-notes/expanding-cells.yaml",
                "-o", dir + "/b.png", "--time", "1.2",
            ])
        #expect(copied.status == 0 && installed.status == 0, "\(copied.stderr) \(installed.stderr)")
        #expect(
            FileManager.default.contents(atPath: dir + "/a.png") == FileManager.default.contents(atPath: dir + "/b.png")
        )
        // Writing it again over the same bytes is fine; over a changed file, nothing is written.
        #expect(try Tool.run(["scene", "byo-notes", "--to", "notes"], in: dir).status == 0)
        try "changed".write(toFile: dir + "/notes/list@3x.png", atomically: true, encoding: .utf8)
        let refused = try Tool.run(["scene", "byo-notes", "--to", "notes"], in: dir)
        #expect(refused.status != 0 && refused.stderr.contains("list@3x.png exists and differs"), "\(refused.stderr)")
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
