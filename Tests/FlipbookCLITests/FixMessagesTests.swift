import Foundation
import Testing

/// Messages a user writing a scene meets, each naming the file, line and key, and the fix.
@Suite("Messages name where and how to fix")
struct FixMessagesTests {
    @Test("A mistyped step kind is named, at its line, with the kind it was meant to be")
    func mistypedStep() throws {
        let dir = temporaryFolder()
        #expect(try Tool.run(["scene", "expanding-view", "--to", dir + "/ev"]).status == 0)
        let file = dir + "/ev/expanding-view.yaml"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let find = "{animate: expand, button.scale: covering}"
        try #require(text.contains(find))
        try text.replacingOccurrences(of: find, with: "{animat: expand, button.scale: covering}")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let line = try #require(text.components(separatedBy: "\n").firstIndex { $0.contains(find) }) + 1
        let run = try Tool.run(["render", file, "-o", dir + "/x.gif"])
        #expect(run.status != 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "expanding-view.yaml:\(line):10: phases.tap-and-close.steps.2: unknown step kind 'animat'; did you mean animate?"
            ), "\(run.stderr)")
    }

    @Test("A --set of a param the storyboard does not read warns, naming it; one it reads does not, nor a config key")
    func unreadParam() throws {
        let dir = temporaryFolder()
        try Data("buttons:\n  left: [10, 10, 50, 50]\n".utf8).write(to: URL(fileURLWithPath: dir + "/c.yaml"))
        let run = try Tool.run([
            "render", "expanding-view", "--storyboard", "small", "-o", dir + "/x.gif", "--config", dir + "/c.yaml",
            "--set", "buttons.topRight=[10,10,50,50]", "--set", "expand.duration=0.5",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // A config may hold params for other storyboards (a whole one, as `flipbook config` prints).
        #expect(!run.stderr.contains("buttons.left"), "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "--set buttons.topRight=[10,10,50,50]: the small storyboard does not read buttons.topRight"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("expand.duration"), "\(run.stderr)")
    }
}
