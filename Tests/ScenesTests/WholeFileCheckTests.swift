import Foundation
import Testing
import TestSupport

@testable import Scenes

/// The whole-file check (#33 item 1): every part of a scene file is checked when it loads,
/// whether or not the chosen storyboard uses it, and every problem is reported at once,
/// sorted, with its line, column, key path and a "did you mean".
@Suite("A scene file is checked whole when it loads")
struct WholeFileCheckTests {
    /// `tinyScene` with each edit applied (each must apply).
    static func edited(_ edits: [(String, String)]) -> String {
        var text = tinyScene
        for (old, new) in edits {
            #expect(text.contains(old), "the test's text to replace: \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }

    static func problems(_ text: String) throws -> (path: String, lines: [String]) {
        let path = try writeScene(text)
        do {
            _ = try SceneCatalog.prepare(path)
            return (path, [])
        } catch let error as ConfigProblems {
            return (path, error.problems.map { $0.description.replacingOccurrences(of: path, with: "tiny.yaml") })
        } catch {
            return (path, ["\(error)".replacingOccurrences(of: path, with: "tiny.yaml")])
        }
    }

    @Test("Six mistakes in six places, one in a storyboard nobody renders, are all reported at load, in line order")
    func everythingAtOnce() throws {
        let text = Self.edited([
            (
                "  icon: {image: assets.icon, frame: [0, 0, 10, 10], center: spot}",
                "  icon: {image: assets.icon, frame: [0, 0, 10, 10], centre: spot}"
            ),
            ("    box.alpha: a", "    box.alpah: a"),
            ("      - {animate: grow, pose: [shown: {a: a}]}", "      - {animate: grw, pose: [shwn: {a: a}]}"),
            ("  other: {let: {x: 1}, steps: [hold: x]}", "  other: {let: {x: 1}, steps: [hold: y, sho]}"),
        ])
        let (_, lines) = try Self.problems(text)
        #expect(
            lines == [
                "tiny.yaml:37:53: layers.icon: unknown key 'centre'; did you mean center?; expected one of use, with, image, source, mode, color, frame, center, scale, alpha, cornerRadius, clip, background, z, hidden, contentOffset, children",
                "tiny.yaml:41:5: poses.shown.box.alpah: no property 'alpah'; did you mean alpha?; expected one of frame, center, size, scale, alpha, cornerRadius, background, z, hidden, contentOffset",
                "tiny.yaml:46:19: phases.show.steps.0.animate: unknown name 'grw'; did you mean grow?; expected a param, a let value, an argument, canvas, screen or gesture",
                "tiny.yaml:46:31: phases.show.steps.0.pose: unknown pose 'shwn'; did you mean shown?; expected one of shown",
                "tiny.yaml:57:38: storyboards.other.steps.0.hold: unknown name 'y'; expected a param, a let value, an argument, canvas, screen or gesture",
                "tiny.yaml:57:41: storyboards.other.steps.1: unknown step or phase 'sho'; did you mean show?; expected one of show, hold, set, animate, parallel, sequence, drag, if, let, require",
            ], "\(lines.joined(separator: "\n"))")
    }

    @Test(
        "Shape mistakes a plan used to find only when it ran are found at load, in a storyboard nobody renders"
    )
    func shapesAtLoad() throws {
        let text = Self.edited([
            (
                "  other: {let: {x: 1}, steps: [hold: x]}",
                """
                  other:
                    - drag: {from: [0, 0], moves: [{by: [0, 10]}], axis: y}
                    - {animate: grow, crossing: {above: []}}
                """
            ),
            ("  - {that: \"area.width > 1\", key: area, message: \"box {area.width} is too thin\"}", "  - {that: on}"),
            ("  box: {color: tint, frame: area,", "  box: {color: tint, image: assets.icon, frame: area,"),
        ])
        let lines = try Self.problems(text).lines
        #expect(
            lines == [
                "tiny.yaml:23:5: require.0: expected {that: test, key: param, message: text}",
                "tiny.yaml:36:16: layers.box: a layer shows an image or a colour, not both",
                "tiny.yaml:58:13: storyboards.other.0.drag: a drag needs distance: the translation in points (signed) that makes progress 1",
                "tiny.yaml:58:36: storyboards.other.0.drag.moves.0: a move needs by: [dx, dy] and over: seconds",
                "tiny.yaml:59:33: storyboards.other.1.crossing: expected {at: points, above: [steps], below: [steps]}",
            ], "\(lines.joined(separator: "\n"))")
    }

    @Test("A param's mistake and a layer's are reported together")
    func paramsAndLayers() throws {
        let text = Self.edited([
            ("  pause: {seconds: 0.5, doc: a hold}", "  pause: {secnds: 0.5, doc: a hold}"),
            ("  strip: {image: assets.strip,", "  strip: {image: assets.stirp,"),
        ])
        let (_, lines) = try Self.problems(text)
        #expect(lines.count == 2, "\(lines)")
        #expect(
            lines.first?.hasPrefix("tiny.yaml:14:") == true && lines.first?.contains("did you mean seconds?") == true)
        #expect(lines.last?.hasPrefix("tiny.yaml:33:") == true)
        #expect(lines.last?.contains("unknown image param 'assets.stirp'; did you mean assets.strip?") == true)
    }

    @Test("Names that only a plan can tell are not refused: spliced layer names, loop variables, template children")
    func noFalseAlarms() throws {
        let text = Self.edited([
            ("    - hold: pause\n", "    - hold: pause\n    - set: {tile-2-dot.alpha: 0.5, \"tile-{count}.z\": i}\n")
        ])
        #expect(try Self.problems(text).lines == [])
    }

    @Test("A section may hold params named as types; an image param under it is still one")
    func sectionsNamedAsTypes() throws {
        let text = Self.edited([
            (
                "  area: {rect:",
                "  looks:\n    doc: named as types\n    image: {image: icon.png, shape: free, doc: an image}\n    color: {color: \"#00FF00\", doc: a colour}\n  area: {rect:"
            ),
            (
                "  icon: {image: assets.icon,",
                "  other: {image: looks.image, color: looks.color}\n  icon: {image: assets.icon,"
            ),
        ])
        let lines = try Self.problems(text).lines
        // Only the interpreter's own objection (an image and a colour on one layer) may remain.
        #expect(lines.allSatisfy { !$0.contains("unknown") && !$0.contains("did you mean") }, "\(lines)")
    }

    @Test("Every built-in and example scene passes the check", arguments: SceneCatalog.names)
    func builtIns(name: String) throws {
        _ = try SceneCatalog.file(named: name)
    }

    @Test(
        "A move's easing that is not one lists the easings (a spring is not one)",
        arguments: [
            ("spring", "unknown easing 'spring'; expected linear, easeIn"),
            ("easeOutt", "unknown easing 'easeOutt'; did you mean easeOut?; expected linear, easeIn"),
            ("'system'", "'system' is not a Bézier: a spring has no fixed shape to move a finger along"),
        ])
    func easings(easing: String, message: String) throws {
        let text = Self.edited([
            ("moves: [{by: [0, 100], over: 1}]", "moves: [{by: [0, 100], over: 1, easing: \(easing)}]")
        ])
        let lines = try Self.problems(text).lines
        #expect(lines.count == 1 && lines[0].contains("storyboards.main.3.drag.moves.0.easing: \(message)"), "\(lines)")
    }

    /// A value of each property's kind, for a `set` on the `box` layer.
    static let samples: [String: String] = [
        "frame": "[0, 0, 10, 10]", "center": "[5, 5]", "position": "[5, 5]", "size": "[4, 4]", "scale": "2",
        "alpha": "0.5", "cornerRadius": "3", "background": "'#00FF00'", "z": "2", "hidden": "true",
        "contentOffset": "[0, 1]",
    ]

    @Test("Every property SceneFormat lists is one the interpreter changes, and the check knows them all")
    func everyProperty() throws {
        #expect(Set(Self.samples.keys) == Set(SceneFormat.properties.map(\.name) + ["position"]))
        for (property, value) in Self.samples.sorted(by: { $0.key < $1.key }) {
            let text = Self.edited([
                ("    - hold: pause\n", "    - hold: pause\n    - set: {box.\(property): \(value)}\n")
            ])
            let path = try writeScene(text)
            #expect(throws: Never.self, "\(property)") { try SceneCatalog.prepare(path).plan(sizes: tinySizes) }
        }
    }

    @Test("A typo in a layer's name is caught wherever it is changed")
    func layerTypo() throws {
        let text = Self.edited([("    box.alpha: a", "    bxo.alpha: a")])
        #expect(
            try Self.problems(text).lines == [
                "tiny.yaml:41:5: poses.shown.bxo.alpha: no layer 'bxo'; did you mean box?"
            ])
    }
}
