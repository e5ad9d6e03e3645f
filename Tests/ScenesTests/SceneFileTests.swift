import FlipbookTesting
import Codecs
import Foundation
import Geometry
import Planner
import Raster
import Render
import Scenes
import Testing
import TestSupport

/// A small scene that uses every construct of the format once.
let tinyScene = """
    version: 1
    name: tiny
    summary: a scene with one of everything
    settings:
      canvas: {width: 100, height: 200}
    params:
      assets:
        doc: images
        screen: {image: screen.png, shape: screen, doc: the screen}
        strip: {image: strip.png, shape: [canvas.width, 10], doc: a strip}
        icon: {image: icon.png, shape: free, pixelsPerPoint: 2, doc: an icon}
      area: {rect: [10, 20, 30, 40], inside: canvas, doc: a box}
      tint: {color: "#FF000080", doc: a tint}
      pause: {seconds: 0.5, doc: a hold}
      count: {integer: 2, range: [1, 3], doc: how many}
      grow: {animation: {duration: 0.4, curve: easeIn}, doc: growing}
      spot: {point: [5, 6], doc: a point}
      on: {flag: true, doc: a flag}
      pick: {choice: a, of: [a, b], doc: a choice}
    let:
      half: canvas.width / 2
    require:
      - {that: "area.width > 1", key: area, message: "box {area.width} is too thin"}
    templates:
      tile:
        args: [n]
        color: tint
        frame: "rect(n * 10, 0, 10, 10)"
        children:
          dot: {color: "#000000", frame: [0, 0, 2, 2]}
    layers:
      screen: {image: assets.screen}
      strip: {image: assets.strip, frame: "rect(0, 0, canvas.width, 10)", source: [0, 0, 50, 10]}
      for i in 1...2:
        tile-{i}: {use: tile, with: {n: i}}
      box: {color: tint, frame: area, alpha: 0, cornerRadius: 4}
      icon: {image: assets.icon, frame: [0, 0, 10, 10], center: spot}
    poses:
      shown:
        args: [a]
        box.alpha: a
    phases:
      show:
        args: [a]
        steps:
          - {animate: grow, pose: [shown: {a: a}]}
    storyboards:
      main:
        - hold: pause
        - show: {a: 1}
        - if: on && pick == 'a'
          then: [{set: {tile-1.hidden: true}}]
          else: [{set: {tile-2.hidden: true}}]
        - drag: {from: [50, 50], moves: [{by: [0, 100], over: 1}], axis: y, distance: 100}
          box.center: [50, 150]
          crossing: {at: 50, above: [{set: {"tile-{half / 50}.z": 5}}]}
      other: {let: {x: 1}, steps: [hold: x]}
    """

let tinySizes: ImageSizes = [
    "assets.screen": Size(width: 200, height: 400), "assets.strip": Size(width: 200, height: 20),
    "assets.icon": Size(width: 20, height: 20),
]

/// The scene file `text` written to a fresh temporary folder.
func writeScene(_ text: String) throws -> String {
    let dir = NSTemporaryDirectory() + "scene-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/tiny.yaml"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite("Scene files: each construct, each error, the built-ins' round trip")
struct SceneFileTests {
    @Test(
        "A long flat expression is refused before it is evaluated, naming the file, line and key (it overflowed the stack)",
        arguments: [
            (Array(repeating: "1", count: 4000).joined(separator: "+"), "7999"),
            (Array(repeating: "2", count: 5000).joined(separator: "*"), "9999"),
            (Array(repeating: "on", count: 3000).joined(separator: " && "), "5999"),
        ])
    func longChains(expression: String, tokens: String) throws {
        let text = tinyScene.replacingOccurrences(
            of: "  box: {color: tint, frame: area,", with: "  box: {color: tint, frame: area, z: \"\(expression)\",")
        let path = try writeScene(text)
        #expect {
            try SceneCatalog.prepare(path).plan(sizes: tinySizes)
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("\(path):36:") && message.contains(": layers.box.z: '")
                && message.contains("\(tokens) tokens; an expression has at most 500")
                && message.count < 300
        }
    }

    /// Storyboards that double their steps 40 times over: phases that call the one below twice,
    /// which the plan stops at its step budget, and YAML aliases of a sequence doubled, which
    /// the reading stops at its budget of parts (each text, a marker it must hold, and the
    /// error).
    static let doublings: [(String, String, String)] = [
        (
            tinyScene.replacingOccurrences(
                of: "phases:\n",
                with: "phases:\n" + (0..<40).map { "  p\($0): [p\($0 + 1), p\($0 + 1)]" }.joined(separator: "\n")
                    + "\n  p40: [hold: 0]\n"
            ).replacingOccurrences(of: "  other: {let: {x: 1}, steps: [hold: x]}", with: "  other: [p0]"),
            "p40: [hold: 0]", "expands to more than 100000 steps; phases that call phases multiply them"
        ),
        (
            tinyScene.replacingOccurrences(
                of: "  other: {let: {x: 1}, steps: [hold: x]}",
                with: "  other:\n"
                    + (["    - sequence: &l0 [hold: 0, hold: 0]"]
                    + (1...40).map { "    - sequence: &l\($0) [{sequence: *l\($0 - 1)}, {sequence: *l\($0 - 1)}]" })
                    .joined(separator: "\n")),
            "&l40", "the file expands to more than 200000 parts; YAML aliases repeat what they name"
        ),
    ]

    @Test(
        "Phases that call the one below twice, 40 deep, and YAML aliases that double a sequence 40 times, stop at a budget",
        arguments: doublings)
    func doublingSteps(text: String, marker: String, message: String) throws {
        #expect(text.contains(marker))
        let path = try writeScene(text)
        #expect {
            try SceneCatalog.prepare(path, overrides: SceneOverrides(storyboard: "other")).plan(sizes: tinySizes)
        } throws: { "\($0)".contains(message) }
    }

    @Test("Four nested `for` loops of 999 stop at the layer budget as they expand, naming the file")
    func nestedLoops() throws {
        let loops = """
              for a in 1...999:
                for b in 1...999:
                  for c in 1...999:
                    for d in 1...999:
                      "dot-{a}-{b}-{c}-{d}": {color: tint, frame: area}
            """
        let text = tinyScene.replacingOccurrences(
            of: "  box: {color: tint, frame: area, alpha: 0, cornerRadius: 4}",
            with: "  box: {color: tint, frame: area, alpha: 0, cornerRadius: 4}\n" + loops)
        let path = try writeScene(text)
        #expect {
            try SceneCatalog.prepare(path).plan(sizes: tinySizes)
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("\(path):")
                && message.contains("more than 10000 layers; loops and templates multiply")
        }
    }

    @Test("99 x 99 translucent full-canvas layers animated for 60 s: refused before the first frame")
    func tooMuchWork() throws {
        let veils = """
              for a in 1...99:
                for b in 1...99:
                  "veil-{a}-{b}": {color: "#00000008", frame: [0, 0, 100, 200]}
            """
        let text = tinyScene.replacingOccurrences(
            of: "  box: {color: tint, frame: area, alpha: 0, cornerRadius: 4}",
            with: "  box: {color: tint, frame: area, alpha: 0, cornerRadius: 4}\n" + veils
        ).replacingOccurrences(
            of: "  other: {let: {x: 1}, steps: [hold: x]}", with: "  other: [{animate: linear(60), box.alpha: 1}]")
        let path = try writeScene(text)
        let scene = try SceneCatalog.prepare(path, overrides: SceneOverrides(storyboard: "other"))
        let renderer = try SceneRenderer(scene) { image, _ in
            let size = tinySizes[image.name]!
            return Texture(Bitmap(width: Int(size.width), height: Int(size.height)))
        }
        let times = renderer.times()
        #expect(times.count == 1800)
        var frames = 0
        #expect {
            _ = try renderer.render(times: times) { _, _ in frames += 1 }
        } throws: { error in
            "\(error)".hasPrefix("1800 frames would composite about 353 gigapixels (196 megapixels of layers")
                && "\(error)".contains("past the budget of 100")
        }
        #expect(frames == 0)
        // The most they could draw is past the budget too (so the estimate was made), and the
        // estimate is no more than it.
        let most = renderer.plan.mostWork(frames: times.count, scale: renderer.scale)
        let estimate = renderer.plan.drawWork(times: times, scale: renderer.scale).totalPixels
        #expect(most > SceneRenderer.maximumWork && estimate <= most, "\(most), \(estimate)")
        // Two of those frames are within the budget.
        #expect(try renderer.render(times: Array(times.prefix(2))) { _, _ in }.frames == 2)
    }

    @Test(
        "The most a render could draw bounds its estimate: every storyboard of every built-in, at @2x",
        arguments: SceneCatalog.names)
    func mostWork(name: String) throws {
        for storyboard in try SceneCatalog.prepare(name).storyboards {
            let scene = try SceneCatalog.prepare(
                name, overrides: SceneOverrides(storyboard: storyboard, scale: 2))
            let renderer = try SceneRenderer(scene) { image, _ in
                let size = try PNGCodec.size(path: image.path)
                return Texture(Bitmap(width: size.width, height: size.height))
            }
            let times = renderer.times()
            let estimate = renderer.plan.drawWork(times: times, scale: renderer.scale).totalPixels
            let most = renderer.plan.mostWork(frames: times.count, scale: renderer.scale)
            // A storyboard draws a few full canvases a frame, far less than every layer's.
            #expect(estimate > 0 && estimate <= most, "\(storyboard): \(estimate) of \(most)")
        }
    }

    @Test("A scene file that starts with a byte-order mark reads as without one")
    func byteOrderMark() throws {
        let path = try writeScene("\u{FEFF}" + tinyScene)
        #expect(try SceneCatalog.prepare(path).name == "tiny")
    }

    @Test("A hold that subtracts to 0 by rounding is 0, not refused; a real negative one still is")
    func roundedHold() throws {
        let zero = try writeScene(
            tinyScene.replacingOccurrences(
                of: "other: {let: {x: 1}, steps: [hold: x]}", with: "other: [hold: 0.5 - 0.2 - 0.1 - 0.2]"))
        #expect(
            try SceneCatalog.prepare(zero, overrides: SceneOverrides(storyboard: "other")).plan(sizes: tinySizes)
                .duration == 0)
        let negative = try writeScene(
            tinyScene.replacingOccurrences(
                of: "other: {let: {x: 1}, steps: [hold: x]}", with: "other: [hold: 0.5 - 0.75]"))
        #expect {
            try SceneCatalog.prepare(negative, overrides: SceneOverrides(storyboard: "other")).plan(sizes: tinySizes)
        } throws: { "\($0)".contains("storyboards.other.0.hold: -0.25 s: a hold is 0 seconds or more") }
    }

    @Test("A negative delay is refused, naming the line and key, as a negative hold is")
    func negativeDelay() throws {
        let path = try writeScene(
            tinyScene.replacingOccurrences(
                of: "  - {animate: grow, pose: [shown: {a: a}]}",
                with: "  - {animate: grow, delay: -10, pose: [shown: {a: a}]}"))
        #expect {
            try SceneCatalog.prepare(path).plan(sizes: tinySizes)
        } throws: { "\($0)".contains(":46: phases.show.steps.0.delay: -10 s: a delay is 0 seconds or more") }
    }

    @Test("A template's colour and its instance's image, each right alone, are refused together when merged")
    func templateColourAndInstanceImage() throws {
        let path = try writeScene(
            tinyScene.replacingOccurrences(
                of: "    tile-{i}: {use: tile, with: {n: i}}",
                with: "    tile-{i}: {use: tile, with: {n: i}, image: assets.icon}"))
        #expect {
            try SceneCatalog.prepare(path).plan(sizes: tinySizes)
        } throws: { "\($0)".contains(":27: templates.tile.color: a layer shows an image or a colour, not both") }
    }

    @Test(
        "A storyboard's length cuts it short mid-motion or holds its end; 0 is refused at its line",
        arguments: [("0.25", 0.25), ("2s", 2.0), ("x + 0.5", 1.5)])
    func storyboardLength(length: String, lasts: Double) throws {
        let path = try writeScene(
            tinyScene.replacingOccurrences(
                of: "other: {let: {x: 1}, steps: [hold: x]}",
                with: "other: {let: {x: 1}, steps: [hold: x, {animate: grow, box.alpha: 1}], length: \(length)}"))
        let prepared = try SceneCatalog.prepare(path, overrides: SceneOverrides(storyboard: "other"))
        let plan = try prepared.plan(sizes: tinySizes)
        #expect(plan.duration == lasts)
        // The timeline's spans end where the storyboard does.
        let spans = try prepared.scenePlan(sizes: tinySizes).phases
        #expect(spans.last!.end == min(lasts, 1.4) && spans.allSatisfy { $0.start < lasts })
    }

    @Test("An animation's crossing runs its steps when its progress passes a point, and again when a spring comes back")
    func animationCrossing() throws {
        let path = try writeScene(
            tinyScene.replacingOccurrences(
                of: "other: {let: {x: 1}, steps: [hold: x]}",
                with: """
                    other: [{animate: "spring(1, 0.3)", box.alpha: 1, crossing: {at: 1, above: [{set: {tile-1.hidden: true}}], below: [{set: {tile-1.hidden: false}}]}}]
                    """))
        let plan = try SceneCatalog.prepare(path, overrides: SceneOverrides(storyboard: "other")).plan(sizes: tinySizes)
        let spring = Curve.spring(duration: 1, damping: 0.3)
        let times = Array(stride(from: 0.0, through: 1.0, by: 0.001))
        let up = times.first { spring.progress(at: $0) > 1 }!
        let down = times.first { $0 > up && spring.progress(at: $0) <= 1 }!
        let tile = plan.layer(named: "tile-1")!
        #expect(!plan.modelState(of: tile, at: up - 0.01).isHidden)
        #expect(plan.modelState(of: tile, at: (up + down) / 2).isHidden)
        #expect(!plan.modelState(of: tile, at: down + 0.01).isHidden)
    }

    @Test("A storyboard's length of 0 is refused, naming its line and key")
    func zeroLength() throws {
        let path = try writeScene(
            tinyScene.replacingOccurrences(
                of: "other: {let: {x: 1}, steps: [hold: x]}", with: "other: {let: {x: 1}, steps: [hold: x], length: 0}")
        )
        #expect {
            try SceneCatalog.prepare(path, overrides: SceneOverrides(storyboard: "other")).plan(sizes: tinySizes)
        } throws: {
            "\($0)".contains(":57: storyboards.other.length: 0 s: a storyboard's length is more than 0 seconds")
        }
    }

    @Test("A name of forty dotted parts is refused at once (a thousand were looked up part by part)")
    func longNames() throws {
        let name = "canvas" + String(repeating: ".size", count: 40)
        let path = try writeScene(
            tinyScene.replacingOccurrences(of: "  half: canvas.width / 2", with: "  half: \(name)"))
        #expect {
            try SceneCatalog.prepare(path).plan(sizes: tinySizes)
        } throws: { "\($0)".contains("a name of more than 32 dotted parts") }
    }

    func tinyPlan(_ assignments: [String] = [], storyboard: String? = nil) throws -> Plan {
        try SceneCatalog.prepare(
            writeScene(tinyScene), assignments: assignments, overrides: SceneOverrides(storyboard: storyboard)
        ).plan(sizes: tinySizes)
    }

    @Test(
        "Every construct: params, let, require, templates, loops, poses, phases with arguments, if, drag and crossing")
    func constructs() throws {
        let scene = try SceneCatalog.prepare(writeScene(tinyScene))
        #expect(
            scene.name == "tiny" && scene.storyboards == ["main", "other"]
                && scene.settings.canvas == Size(width: 100, height: 200))
        #expect(scene.images.map(\.name) == ["assets.screen", "assets.strip", "assets.icon"])
        #expect(scene.images[0].path.hasSuffix("/screen.png") && scene.images[0].path.hasPrefix("/"))
        let plan = try scene.plan(sizes: tinySizes)
        #expect(
            plan.layers.map(\.name) == [
                "screen", "strip", "tile-1", "tile-1-dot", "tile-2", "tile-2-dot", "box", "icon",
            ])
        #expect(plan.layers[4].initial.frame == Rect(x: 20, y: 0, width: 10, height: 10))
        #expect(plan.layers[3].parent == 2)
        guard case .snapshot(let strip) = plan.layers[1].content, case .snapshot(let icon) = plan.layers[7].content
        else {
            Issue.record("snapshots expected")
            return
        }
        #expect(strip.pixelsPerPoint == 2 && strip.source == Rect(x: 0, y: 0, width: 100, height: 20))
        #expect(icon.pixelsPerPoint == 2 && icon.source == Rect(x: 0, y: 0, width: 20, height: 20))
        #expect(plan.layers[7].initial.position == Point(x: 5, y: 6))
        let box = plan.layer(named: "box")!
        #expect(plan.modelState(of: box, at: 0.5).alpha == 0)
        #expect(
            abs(plan.modelState(of: box, at: 0.7).alpha - CubicBezier.easeIn.with(duration: 0.4).progress(at: 0.2))
                < 1e-12)
        #expect(plan.modelState(of: plan.layer(named: "tile-1")!, at: 0.95).isHidden)
        #expect(!plan.modelState(of: plan.layer(named: "tile-2")!, at: 0.95).isHidden)
        // The drag: progress = translation / 100, linear over 1 s; the box's centre follows it.
        #expect(plan.modelState(of: box, at: 0.9 + 0.25).position == Point(x: 25 + 25 * 0.25, y: 40 + 110 * 0.25))
        // The crossing at 50 pt fires half-way through the drag (sampled each millisecond).
        let tile = plan.layer(named: "tile-1")!
        #expect(
            plan.modelState(of: tile, at: 0.9 + 0.49).zIndex == 0
                && plan.modelState(of: tile, at: 0.9 + 0.52).zIndex == 5)
        #expect(abs(plan.duration - 1.9) < 1e-12)
        #expect(try tinyPlan(storyboard: "other").duration == 1)
    }

    @Test("Config, --set and flags apply over a scene file's defaults, and name the key on error")
    func overrides() throws {
        let plan = try tinyPlan(["area=[0,0,50,50]", "pick=b", "grow.duration=0.8"])
        let box = plan.layer(named: "box")!
        #expect(plan.layers[box.index].initial.frame == Rect(x: 0, y: 0, width: 50, height: 50))
        #expect(plan.modelState(of: plan.layer(named: "tile-2")!, at: 1.4).isHidden)
        #expect(abs(plan.duration - 2.3) < 1e-12)
        #expect(throws: ConfigError.self) { try tinyPlan(["count=4"]) }
        #expect(throws: ConfigError.self) { try tinyPlan(["pick=c"]) }
    }

    @Test(
        "A bad scene file is an error naming the file, the line and the key",
        arguments: [
            (
                "  pause: {seconds: 0.5, doc: a hold}", "  pause: {seconds: 0.5}",
                "tiny.yaml:14: params.pause: every param needs a doc"
            ),
            (
                "  pause: {seconds: 0.5, doc: a hold}", "  pause: {seconds: 0.5, doc: a hold, or a wait}",
                "tiny.yaml:14: params.pause: 'or a wait' reads as a key: in a {…} mapping an unquoted comma ends a value; quote it: doc: \"a hold, or a wait\""
            ),
            (
                "name: tiny", "name: tiny\ncolour: red",
                "tiny.yaml:3:1: unknown key 'colour'; expected one of version, name"
            ),
            ("    box.alpha: a", "    ghost.alpha: a", "tiny.yaml:41:5: poses.shown.ghost.alpha: no layer 'ghost'"),
            (
                "    - show: {a: 1}", "    - shwo: {a: 1}",
                "tiny.yaml:50:7: storyboards.main.1: unknown step or phase 'shwo'; did you mean show?"
            ),
            (
                "    - show: {a: 1}", "    - show: {b: 1}",
                "storyboards.main.1.show: phase show has no argument 'b'; expected a"
            ),
            ("  half: canvas.width / 2", "  half: canvas.width / (2 - 2)", "tiny.yaml:21: let.half: divides by zero"),
            (
                "  half: canvas.width / 2", "  half: canvas.width / * 2",
                "let.half: 'canvas.width / * 2': expected a value, got '*'"
            ),
            ("  half: canvas.width / 2", "  half: canvs.width", "let.half: unknown name 'canvs.width'"),
            (
                "frame: area, alpha: 0", "frame: tint, alpha: 0",
                "layers.box.frame: expected a rect [x, y, width, height], got a colour"
            ),
            (
                "      dot: {color", "      inner: {use: tile, with: {n: 1}}\n      dot: {color",
                "template tile uses itself: template tile → template tile"
            ),
            ("- {that: \"area.width > 1\"", "- {that: \"area.width > 100\"", "area: box 30 is too thin"),
            ("    - hold: pause", "    - hold: -pause", "storyboards.main.0.hold: -0.5 s: a hold is 0 seconds or more"),
            (
                "    tile-{i}: {use: tile, with: {n: i}}", "    tile-{i}: {use: tile}",
                "template tile needs the argument 'n'"
            ),
            ("version: 1", "version: 2", "tiny.yaml:1: version: expected 1"),
            (
                "  half: canvas.width / 2",
                "  half: " + String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100),
                "nested more than 64 deep"
            ),
            (
                "  half: canvas.width / 2", "  half: " + String(repeating: "-", count: 100) + "1",
                "nested more than 64 deep"
            ),
            ("    - hold: pause", "    - hold: 4000", "main lasts 4001.4 s; a storyboard lasts at most 3600 s"),
            (
                "moves: [{by: [0, 100], over: 1}]", "moves: [{by: [0, 100], over: 1}, {hold: 1e9}]",
                "storyboards.main.3.drag.moves: the finger is down for 1000000001 s"
            ),
            (
                "  for i in 1...2:\n",
                "  for j in 1...100:\n    for k in 1...101:\n      x{j}-{k}: {}\n  for i in 1...2:\n",
                "more than 10000 layers"
            ),
            (
                "  area: {rect: [10, 20, 30, 40]", "  area: {rect: [10, 20, 300, 40]",
                "tiny.yaml:12: area: (10.0, 20.0, 300.0, 40.0) is outside the 100x200 pt canvas"
            ),
        ])
    func errors(old: String, new: String, message: String) throws {
        #expect(tinyScene.contains(old), "the test's text to replace")
        let path = try writeScene(tinyScene.replacingOccurrences(of: old, with: new))
        do {
            _ = try SceneCatalog.prepare(path).plan(sizes: tinySizes)
            Issue.record("no error; expected \(message)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test(
        "An image of the wrong shape is an error at the line that declares it, naming its key, size and the shape expected"
    )
    func imageShape() throws {
        var sizes = tinySizes
        sizes["assets.strip"] = Size(width: 200, height: 30)
        let path = try writeScene(tinyScene)
        #expect {
            try SceneCatalog.prepare(path).plan(sizes: sizes)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.file == path && error.line == 10 && error.keyPath == "assets.strip"
                && "\(error)".contains("200x30 px") && "\(error)".contains("a 100x10 pt image")
        }
    }

    @Test(
        "Each built-in scene file, copied with its images to another folder, gives the same plan",
        arguments: SceneCatalog.names)
    func roundTrip(name: String) throws {
        let builtin = try SceneRenderer(SceneCatalog.prepare(name))
        let file = try SceneCatalog.file(named: name)
        let dir = NSTemporaryDirectory() + "round-trip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for image in builtin.scene.images {
            try FileManager.default.copyItem(
                atPath: image.path, toPath: dir + "/" + (image.path as NSString).lastPathComponent)
        }
        try file.text.write(toFile: dir + "/copy.yaml", atomically: true, encoding: .utf8)
        for storyboard in builtin.scene.storyboards {
            let a = try SceneRenderer(SceneCatalog.prepare(name, overrides: SceneOverrides(storyboard: storyboard)))
            let b = try SceneRenderer(
                SceneCatalog.prepare(dir + "/copy.yaml", overrides: SceneOverrides(storyboard: storyboard)))
            #expect(b.scene.images.allSatisfy { $0.path.hasPrefix(dir) })
            #expect(a.plan.duration == b.plan.duration)
            for t in a.times() { #expect(a.plan.sample(at: t, scale: 2) == b.plan.sample(at: t, scale: 2)) }
        }
    }

    @Test(
        "Mangled scene files are errors, never crashes (300 seeded mutations of each built-in)",
        arguments: SceneCatalog.names)
    func mangled(name: String) throws {
        let text = try SceneCatalog.file(named: name).text
        // The images' own sizes, so that a mutation that leaves the file whole plans.
        let sizes = try SceneCatalog.prepare(name).images.reduce(into: ImageSizes()) { sizes, image in
            let size = try PNGCodec.size(path: image.path)
            sizes[image.name] = Size(width: Double(size.width), height: Double(size.height))
        }
        var rng = SeededRandom(seed: UInt64(name.count))
        let lines = text.components(separatedBy: "\n")
        let pieces = [
            "0", "-1", "1e308", "/ 0", "{", "]", ": ", "- ", "for i in 1...1000000:", "&a", "*a", "\"", "use: x", "''",
            "!x", ".",
        ]
        var loaded = 0, refused = 0
        for _ in 0..<300 {
            var l = lines
            let i = Int.random(in: 0..<l.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: l.remove(at: i)
            case 1:
                l[i].insert(
                    contentsOf: pieces.randomElement(using: &rng)!,
                    at: l[i].index(l[i].startIndex, offsetBy: Int.random(in: 0...l[i].count, using: &rng)))
            default: l.insert(l[Int.random(in: 0..<l.count, using: &rng)], at: i)
            }
            let path = NSTemporaryDirectory() + "mangled-\(name).yaml"
            try l.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try SceneCatalog.prepare(path).plan(sizes: sizes)
                loaded += 1
            } catch {
                // Every problem names the file, or (an image's) the key and the image's file.
                #expect(
                    "\(error)".contains("mangled-\(name).yaml") || error is SceneError || error is RenderError,
                    "\(error)")
                refused += 1
            }
        }
        // The mangling both breaks files and leaves some whole: both paths ran.
        #expect(loaded > 0 && refused > 0, "\(loaded) loaded, \(refused) refused")
    }

    static let navPush = SceneCatalog.installRoot + "/Assets/examples/nav-push/nav-push.yaml"

    @Test(
        "The nav-push example, a scene file with no Swift: golden frames of the push, the swipe and the cancelled swipe",
        arguments: [
            ("swipe-back", "mid-push", 0.85), ("swipe-back", "mid-swipe", 2.2),
            ("cancelled", "cancelled-release", 2.45),
        ])
    func navPushGoldens(storyboard: String, name: String, t: Double) throws {
        let renderer = try SceneRenderer(
            SceneCatalog.prepare(Self.navPush, overrides: SceneOverrides(storyboard: storyboard)))
        try assertFrames([Frame(time: t, bitmap: renderer.frame(at: t))], named: "nav-push-\(name)")
    }

    @Test(
        "nav-push: the swipe past half pops with the finger's speed; the short one springs home; the file is under 120 lines"
    )
    func navPushRelease() throws {
        let lines = try String(contentsOfFile: Self.navPush, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        ).count
        #expect(lines < 120)
        for (storyboard, x) in [("swipe-back", 375 * 1.5 + 6), ("cancelled", 375.0 / 2)] {
            let plan = try SceneRenderer(
                SceneCatalog.prepare(Self.navPush, overrides: SceneOverrides(storyboard: storyboard))
            ).plan
            let incoming = plan.layer(named: "incoming")!, dim = plan.layer(named: "dimming")!
            #expect(plan.modelState(of: incoming, at: plan.duration).position.x == x, "\(storyboard)")
            #expect(plan.modelState(of: dim, at: plan.duration).alpha == (storyboard == "cancelled" ? 1 : 0))
        }
    }

    @Test("The guide's example scene file renders as written")
    func guideExample() throws {
        let page = try String(
            contentsOfFile: SceneCatalog.installRoot + "/Sources/flipbook/Guide.docc/WritingATransition.md",
            encoding: .utf8)
        let section = try #require(page.components(separatedBy: "<!-- file: sheet.yaml -->\n").dropFirst().first)
        let yaml = try #require(
            section.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "```").first)
        let path = try writeScene(yaml)
        let folder = (path as NSString).deletingLastPathComponent
        for image in ["screen.png", "next.png"] {
            try FileManager.default.copyItem(
                atPath: SceneCatalog.installRoot + "/Assets/expanding-view/" + image, toPath: folder + "/" + image)
        }
        let renderer = try SceneRenderer(SceneCatalog.prepare(path))
        #expect(abs(renderer.plan.duration - 3.05) < 1e-9)
        let sheet = renderer.plan.layer(named: "sheet")!
        #expect(renderer.plan.modelState(of: sheet, at: 1.7).position.y == 568 / 2 + 40)
    }
}
