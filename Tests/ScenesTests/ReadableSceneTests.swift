import Foundation
import Geometry
import Planner
import Scenes
import Testing
import TestSupport

/// Time you can read and names that mean one thing (#33 item 3): seconds as `0.3`, `0.3s` or
/// `300ms` wherever seconds are taken; a param, a layer and a phase never share a name; an
/// animation's damping ratio is `dampingRatio`, its former name still read.
@Suite("Scene files read as people write them")
struct ReadableSceneTests {
    @Test(
        "Seconds are a number, with s or with ms",
        arguments: [
            ("0.3", 0.3), ("0.3s", 0.3), ("300ms", 0.3), ("2", 2), ("2s", 2), (" 250 ms ", 0.25), ("1e-3s", 0.001),
            (".5s", 0.5),
        ])
    func secondsText(text: String, seconds: Double) {
        #expect(SecondsText.parse(text).map { abs($0 - seconds) < 1e-12 } == true, "\(text)")
    }

    @Test("Not seconds", arguments: ["", "s", "ms", "0.3x", "0.3 sec", "infs", "nan", "3h", "0.3mss"])
    func notSeconds(text: String) {
        #expect(SecondsText.parse(text) == nil, "\(text)")
    }

    /// The plan's length with `pause` and `grow` spelled as given.
    static func duration(pause: String, grow: String, hold: String = "pause", set: [String] = []) throws -> Double {
        let text =
            tinyScene
            .replacingOccurrences(
                of: "pause: {seconds: 0.5, doc: a hold}", with: "pause: {seconds: \(pause), doc: a hold}"
            )
            .replacingOccurrences(
                of: "grow: {animation: {duration: 0.4,", with: "grow: {animation: {duration: \(grow),"
            )
            .replacingOccurrences(of: "    - hold: pause\n", with: "    - hold: \(hold)\n")
        #expect(tinyScene.contains("    - hold: pause\n") && text.contains("    - hold: \(hold)\n"))
        let path = try writeScene(text)
        return try SceneCatalog.prepare(path, assignments: set).plan(sizes: tinySizes).duration
    }

    @Test("A seconds param, an animation's duration, a hold, --set and an expression all take units")
    func unitsEverywhere() throws {
        let plain = try Self.duration(pause: "0.5", grow: "0.4")
        #expect(try Self.duration(pause: "0.5s", grow: "400ms") == plain)
        #expect(try Self.duration(pause: "500ms", grow: "0.4s") == plain)
        #expect(try Self.duration(pause: "0.5", grow: "0.4", hold: "\"250ms + 250ms\"") == plain)
        #expect(try Self.duration(pause: "0.5", grow: "0.4", hold: "0.5s") == plain)
        #expect(try Self.duration(pause: "1", grow: "0.4", set: ["pause=500ms"]) == plain)
        #expect(try Self.duration(pause: "0.5", grow: "1", set: ["grow.duration=0.4s"]) == plain)
        let longer = try Self.duration(pause: "0.5", grow: "0.4", hold: "pause + 1s")
        #expect(abs(longer - (plain + 1)) < 1e-9, "\(longer) \(plain)")
    }

    @Test("A curve spec's duration takes units")
    func curveSpecUnits() throws {
        let ms = try Curve(spec: "easeIn:duration=300ms"), s = try Curve(spec: "easeIn:duration=0.3")
        #expect(ms.duration == s.duration)
        #expect(try Curve(spec: "caspring:mass=1,stiffness=100,damping=10,duration=1.5s").duration == 1.5)
    }

    @Test("A seconds value that is not one names the key and what is expected")
    func badSeconds() throws {
        let path = try writeScene(
            tinyScene.replacingOccurrences(of: "pause: {seconds: 0.5,", with: "pause: {seconds: 0.5 sec,"))
        #expect {
            try SceneCatalog.prepare(path)
        } throws: {
            "\($0)" == "\(path):14: params.pause: expected seconds (0.3, 0.3s or 300ms) in 0...60, got '0.5 sec'"
        }
    }

    @Test(
        "A param, a layer and a phase may not share a name; the error names both lines",
        arguments: [
            // A layer named as a param.
            (
                ["  icon: {image: assets.icon,": "  tint: {image: assets.icon,"], "tint", "layer", "  tint: {color:",
                "param"
            ),
            // A phase named as a layer, and as a param.
            (["  show:\n": "  box:\n", "- show: {a: 1}": "- box: {a: 1}"], "box", "phase", "  box: {color:", "layer"),
            (
                ["  show:\n": "  pause:\n", "- show: {a: 1}": "- pause: {a: 1}"], "pause", "phase", "  pause: {",
                "param"
            ),
        ])
    func oneNameOneMeaning(edits: [String: String], name: String, kind: String, first: String, firstKind: String) throws
    {
        var text = tinyScene
        for (old, new) in edits {
            #expect(text.contains(old), "the test's text to replace")
            text = text.replacingOccurrences(of: old, with: new)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstLine = lines.firstIndex { $0.hasPrefix("  " + first) || $0.hasPrefix(first) }! + 1
        let path = try writeScene(text)
        let section = kind == "layer" ? "layers" : "phases"
        #expect {
            try SceneCatalog.prepare(path)
        } throws: { error in
            "\(error)".hasPrefix(path + ":")
                && "\(error)".contains(
                    "\(section).\(name): '\(name)' names a \(kind) and a \(firstKind) (line \(firstLine)); one name means one thing in a file: rename one"
                )
        }
    }

    @Test("dampingRatio is read; damping, its former name, too; both at once is an error")
    func dampingRatio() throws {
        let ratio = try SceneCatalog.prepare("expanding-cells", assignments: ["present.dampingRatio=0.7"])
        let former = try SceneCatalog.prepare("expanding-cells", assignments: ["present.damping=0.7"])
        #expect(ratio.configYAML == former.configYAML)
        #expect(ratio.configYAML.contains("dampingRatio: 0.7"))
        #expect(!ratio.configYAML.contains("damping: "))
        let folder = temporaryFolder()
        let config = folder + "/both.yaml"
        try "present: {duration: 0.5, damping: 0.8, dampingRatio: 0.9}\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        #expect {
            try SceneCatalog.prepare("expanding-cells", configFile: config)
        } throws: {
            "\($0)"
                == "\(config):1: present.dampingRatio: 'dampingRatio' and 'damping' are two spellings of one value (dampingRatio); give one"
        }
    }

    @Test("A save of dampingRatio edits a file's former spelling where it stands")
    func saveFormerSpelling() throws {
        let text = "present: {duration: 0.5, damping: 0.8}  # slower\n"
        let edited = try ValueEdit.apply(
            [.init(path: ["present", "dampingRatio"], value: "0.6")], to: text, file: "c.yaml")
        #expect(edited == "present: {duration: 0.5, damping: 0.6}  # slower\n")
    }
}
