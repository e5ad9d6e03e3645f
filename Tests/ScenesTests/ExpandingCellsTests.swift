import FlipbookTesting
import Codecs
import Foundation
import Geometry
import Planner
import Raster
import Render
import Scenes
import Testing

@Suite("expanding-cells: choreography, config, goldens")
struct ExpandingCellsTests {
    static let renderer: SceneRenderer = try! SceneRenderer(SceneCatalog.prepare("expanding-cells"))
    var plan: Plan { Self.renderer.plan }
    /// The present starts after the list hold (the recording shows no highlight).
    let presentStart = 1.08
    let spring = Curve.spring(duration: 0.6, damping: 1)

    func frame(_ name: String, at t: Double) -> Rect { plan.modelState(of: plan.layer(named: name)!, at: t).frame }
    func alpha(_ name: String, at t: Double) -> Double { plan.modelState(of: plan.layer(named: name)!, at: t).alpha }

    @Test("Every piece of the expand moves on UIKit's 0.6 s damping-1 spring")
    func expandGeometry() {
        for t in stride(from: presentStart, through: presentStart + 0.6, by: 0.03) {
            let k = spring.progress(at: t - presentStart)
            let container = frame("container", at: t)
            #expect(abs(container.minY - 169 * (1 - k)) < 1e-9 && abs(container.height - (70 + 597 * k)) < 1e-9)
            #expect(abs(frame("top", at: t).minY - (20 - 169 * k)) < 1e-9)
            #expect(abs(frame("bottom", at: t).minY - (239 + 428 * k)) < 1e-9)
            #expect(abs(frame("navbar", at: t).height - 64 * (1 - k)) < 1e-9)
            #expect(abs(alpha("detail", at: t) - k) < 1e-9 && abs(alpha("cell", at: t) - (1 - k)) < 1e-9)
        }
        // From the cut-off on, the model value: exactly full screen.
        #expect(frame("container", at: presentStart + 0.6 + 1e-9) == Rect(x: 0, y: 0, width: 375, height: 667))
    }

    @Test("Measured from rendered frames, the bottom region follows the spring within a pixel")
    func expandInPixels() {
        // The "Social" row's red icon, found down column x = 30.
        func iconTop(_ bitmap: Bitmap) -> Int? {
            (0..<bitmap.height).first { y in
                let p = bitmap[30, y]
                return p.r > 180 && p.g < 110 && p.b < 100
            }
        }
        let y0 = iconTop(Self.renderer.frame(at: presentStart))!
        for t in [0.04, 0.06, 0.1, 0.15, 0.2, 0.3] {  // from the first moment the screen shows it
            let k = spring.progress(at: t)
            guard let y = iconTop(Self.renderer.frame(at: presentStart + t)) else {
                #expect(Double(y0) + 428 * k > 660, "icon gone too early at \(t)")
                continue
            }
            #expect(abs(Double(y) - (Double(y0) + 428 * k)) <= 1.0, "t \(t): \(y) against \(Double(y0) + 428 * k)")
        }
        // The promo's measurement: the container is half way grown by 0.10-0.11 s.
        let half = 70 + (667.0 - 70) / 2
        #expect(
            frame("container", at: presentStart + 0.10).height < half
                && frame("container", at: presentStart + 0.11).height > half)
    }

    @Test(
        "Pulling: the content follows the finger through the rubber band, the bar fills the gap, the status bar turns light past 32 pt"
    )
    func pull() {
        let pullStart = presentStart + 0.6 + 1.117
        let detailRestY = 20.0
        var crossed: Double? = nil
        for t in stride(from: pullStart, through: pullStart + 0.41, by: 0.01) {
            let d = frame("detail", at: t).minY - detailRestY
            #expect(abs(frame("navbar", at: t).height - d) < 1e-9)
            #expect(d >= 0 && d <= 114.5 + 1e-9)
            if crossed == nil && d > 32 { crossed = t }
        }
        #expect(abs(frame("detail", at: pullStart + 0.414 - 1e-9).minY - detailRestY - 114.5) < 1e-6)
        #expect(alpha("status-light", at: crossed! + 0.31) == 1)
        #expect(alpha("status-dark", at: crossed! - 0.02) == 1)
    }

    @Test(
        "Released past the threshold, the pull offset drops at once (the bar stays), then it dismisses into the row, starting at 3.5 distances a second"
    )
    func dismiss() throws {
        let release = presentStart + 0.6 + 1.117 + 0.414 + 0.149
        #expect(frame("detail", at: release + 1e-6).minY == 20)
        #expect(abs(frame("navbar", at: release + 1e-6).height - 114.5) < 0.1)
        // The container goes from the screen back to its row on the dismiss spring, handed the
        // pull on (pull.dismissVelocity); dismiss-final's teardown starts it at rest.
        let handed = Curve.spring(duration: 0.6, damping: 1, velocity: 3.5)
        for t in [0.04, 0.1, 0.2, 0.4] {
            #expect(abs(frame("container", at: release + t).minY - 169 * handed.progress(at: t)) < 1e-6, "t \(t)")
        }
        #expect(frame("container", at: release + 0.6) == Rect(x: 0, y: 169, width: 375, height: 70))
        let final = try SceneRenderer(
            SceneCatalog.prepare("expanding-cells", overrides: SceneOverrides(storyboard: "dismiss-final"))
        ).plan
        let finalRelease = 1.15 + 0.481 + 0.389, atRest = Curve.spring(duration: 0.6, damping: 1)
        let container = final.layer(named: "container")!
        for t in [0.04, 0.1, 0.2] {
            #expect(
                abs(final.modelState(of: container, at: finalRelease + t).frame.minY - 169 * atRest.progress(at: t))
                    < 1e-6, "t \(t)")
        }
        let end = plan.sample(at: plan.duration - 0.01, scale: 1)
        #expect(end.commands.map(\.layer) == ["list"])
        #expect(abs(plan.duration - 5.44) < 0.01)
    }

    /// The content's pull offset in each recording, every other frame at 25 fps from the
    /// frame before the pull: measured by aligning each frame's lower half with a still
    /// detail frame of the same recording (1 px per point), to the nearest 2 pt.
    static let recordedPulls: [(storyboard: String, firstFrame: Int, offsets: [Double])] = [
        ("promo", 70, [0, 18, 46, 82, 100, 110, 114, 116]),
        ("dismiss-initial", 36, [2, 28, 58, 98, 126, 152, 164, 98, 48, 24, 12, 6, 2, 2, 0]),
        (
            "dismiss-status-bar", 38,
            [0, 16, 24, 32, 40, 52, 68, 82, 88, 90, 90, 92, 92, 92, 92, 92, 76, 34, 16, 6, 4, 2, 0, 0]
        ),
        ("dismiss-final", 29, [0, 30, 72, 98, 104, 112, 122, 126, 126, 126, 126, 126]),
    ]

    @Test("Each storyboard's pull follows its recording's within 6 pt, frame by frame", arguments: 0..<4)
    func pullsMatchRecordings(index: Int) throws {
        let (storyboard, first, offsets) = Self.recordedPulls[index]
        let plan = try SceneRenderer(
            SceneCatalog.prepare("expanding-cells", overrides: SceneOverrides(storyboard: storyboard))
        ).plan
        let detail = plan.layer(named: "detail")!
        let step = 2
        var worst = 0.0
        for (k, recorded) in offsets.enumerated() {
            let t = Double(first + k * step) / 25
            worst = max(worst, abs(plan.state(of: detail, at: t).frame.minY - 20 - recorded))
        }
        #expect(worst <= 6, "\(storyboard): worst difference \(worst) pt")
    }

    @Test(
        "Each recording's storyboard lasts as long as it, within 10 %",
        arguments: [
            ("promo", 5.44), ("transition-preview", 6.52), ("dismiss-initial", 3.36), ("dismiss-status-bar", 4.36),
            ("dismiss-final", 3.40),
        ])
    func lengths(storyboard: String, seconds: Double) throws {
        let plan = try SceneRenderer(
            SceneCatalog.prepare("expanding-cells", overrides: SceneOverrides(storyboard: storyboard))
        ).plan
        #expect(abs(plan.duration - seconds) / seconds < 0.1, "\(plan.duration) s")
    }

    @Test(
        "Where each recording ends: dismissed to the list, or back on the detail with a dark status bar",
        arguments: [
            ("promo", true), ("transition-preview", true), ("dismiss-initial", false), ("dismiss-status-bar", false),
            ("dismiss-final", true),
        ])
    func endings(storyboard: String, dismissed: Bool) throws {
        let plan = try SceneRenderer(
            SceneCatalog.prepare("expanding-cells", overrides: SceneOverrides(storyboard: storyboard))
        ).plan
        let layers = plan.sample(at: plan.duration, scale: 1).commands.map(\.layer)
        if dismissed {
            #expect(layers == ["list"])
        } else {
            #expect(plan.modelState(of: plan.layer(named: "container")!, at: plan.duration).frame.height == 667)
            #expect(plan.modelState(of: plan.layer(named: "status-dark")!, at: plan.duration).alpha == 1)
        }
    }

    @Test("The first version never turns the status bar light; the second does while the pull is past 32 pt")
    func statusBarVersions() throws {
        for (storyboard, light) in [("dismiss-initial", false), ("dismiss-status-bar", true)] {
            let plan = try SceneRenderer(
                SceneCatalog.prepare("expanding-cells", overrides: SceneOverrides(storyboard: storyboard))
            ).plan
            let status = plan.layer(named: "status-light")!
            let peak = stride(from: 0.0, through: plan.duration, by: 0.02).map {
                plan.modelState(of: status, at: $0).alpha
            }
            .max()!
            #expect(peak == (light ? 1 : 0), "\(storyboard)")
        }
    }

    @Test(
        "A close from the dark detail turns the status bar light at once as the bar comes under it, as transition-preview.gif does between two frames"
    )
    func closeSwitchesAtOnce() throws {
        let plan = try SceneRenderer(
            SceneCatalog.prepare("expanding-cells", overrides: SceneOverrides(storyboard: "transition-preview"))
        ).plan
        let light = { (t: Double) -> Double in
            plan.sample(at: t, scale: 1).commands.first { $0.layer == "status-light" }?.alpha ?? 0
        }
        // The recording's frames stamped 4.72 and 4.76 s are dark and light; `flipbook score`'s
        // capture model puts what they show 0.8 of a 40 ms frame after their stamps.
        #expect(light(4.72 + 0.032) == 0 && light(4.76 + 0.032) == 1)
        // Never between: no cross-fade over the close.
        for t in stride(from: 4.5, through: 5.2, by: 1.0 / 240) { #expect(light(t) == 0 || light(t) == 1, "t \(t)") }
        // The bar has come under the status bar where it first shows light.
        let first = try #require(stride(from: 4.5, through: 5.2, by: 0.001).first { light($0) == 1 })
        let bar = try #require(plan.sample(at: first, scale: 1).commands.first { $0.layer == "navbar" })
        #expect(bar.rect.height >= 20, "\(first): \(bar.rect)")
    }

    @Test(
        "Short of the threshold the content springs back on its spring, at the finger's speed plus backVelocity",
        arguments: [
            // dismiss-initial: its own 0.7 s spring at 4; the finger rests before it lifts.
            (
                "dismiss-initial", [String](), 1.411 + 0.448 + 0.051, 163.5,
                Curve.spring(duration: 0.7, damping: 1, velocity: 4)
            ),
            // dismiss-status-bar reads pull.springBack and pull.backVelocity (0 unless set).
            ("dismiss-status-bar", [], 1.476 + 0.616 + 0.668, 90.5, Curve.spring(duration: 0.55, damping: 1)),
            (
                "dismiss-status-bar", ["pull.backVelocity=2"], 1.476 + 0.616 + 0.668, 90.5,
                Curve.spring(duration: 0.55, damping: 1, velocity: 2)
            ),
        ])
    func springBack(storyboard: String, assignments: [String], release: Double, pulled: Double, back: Curve) throws {
        let plan = try SceneRenderer(
            SceneCatalog.prepare(
                "expanding-cells", assignments: assignments, overrides: SceneOverrides(storyboard: storyboard))
        ).plan
        let detail = plan.layer(named: "detail")!
        let offset = { (t: Double) in plan.modelState(of: detail, at: t).frame.minY - 20 }
        #expect(abs(offset(release - 1e-6) - pulled) < 1e-6)
        for t in [0.04, 0.1, 0.2, 0.4] {
            #expect(abs(offset(release + t) - pulled * (1 - back.progress(at: t))) < 1e-6, "t \(t)")
        }
    }

    @Test("A config with only present: {duration: 0.9} is valid and stretches the expand")
    func partialConfig() throws {
        let file = try writeConfig("present: {duration: 0.9}\n")
        let plan = try SceneRenderer(SceneCatalog.prepare("expanding-cells", configFile: file)).plan
        let slow = Curve.spring(duration: 0.9, damping: 1)
        let container = plan.layer(named: "container")!
        for t in [0.1, 0.3, 0.6] {
            #expect(
                abs(plan.modelState(of: container, at: presentStart + t).frame.minY - 169 * (1 - slow.progress(at: t)))
                    < 1e-9)
        }
    }

    @Test(
        "Config errors name the file, the line and the key path",
        arguments: [
            (
                "present:\n  duration: 0.9\n  dampin: 1\n",
                ":3: present.dampin: unknown key; expected one of duration, dampingRatio, velocity, curve"
            ),
            ("fps: fast\n", ":1: fps: expected a number in 1...120, got 'fast'"),
            ("layout:\n  tappedRow: [0, 169, 375]\n", ":2: layout.tappedRow: expected [x, y, width, height]"),
            ("present: {duration: 30}\n", ":1: present.duration: 30 is out of range; expected 0.01...10"),
            ("version: 2\n", ":1: version: expected 1, got '2'"),
            (
                "storyboard: director\n",
                ":1: storyboard: expected one of promo, transition-preview, dismiss-initial, dismiss-status-bar, dismiss-final, got 'director'"
            ),
            (
                "present: [1, 2]\n",
                ":1: present: expected a mapping of duration, dampingRatio, velocity, curve, got a list"
            ),
            ("layout: {barColor: blue}\n", ":1: layout.barColor: expected a colour"),
            ("present:\n  curve: wobble\n", ":2: present.curve: curve 'wobble': unknown curve"),
            ("fps: [\n", ": not valid YAML"),
            (
                "timing:\n  listHold: 1\n  listHold: 2\n",
                ":2: not valid YAML: a mapping has the key 'listHold' more than once"
            ),
        ])
    func configErrors(yaml: String, message: String) throws {
        let file = try writeConfig(yaml)
        do {
            _ = try SceneCatalog.prepare("expanding-cells", configFile: file)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect("\(error)".hasPrefix(file), "\(error)")
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test("A missing config file is named")
    func missingConfig() {
        #expect(throws: ConfigError(file: "/nonexistent.yaml", line: nil, keyPath: "", message: "no such file")) {
            try SceneCatalog.prepare("expanding-cells", configFile: "/nonexistent.yaml")
        }
    }

    @Test("A screenshot of the wrong shape, or a row outside the canvas, says what was expected")
    func badScreenshots() throws {
        let folder = NSTemporaryDirectory() + "flipbook-byo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PNGCodec.write(Bitmap(width: 750, height: 1000, fill: Color.white.premultiplied), to: folder + "/short.png")
        let file = try writeConfig("assets: {list: short.png}\n", in: folder)
        do {
            _ = try SceneRenderer(SceneCatalog.prepare("expanding-cells", configFile: file))
            Issue.record("accepted a 750x1000 list")
        } catch {
            #expect(
                "\(error)".contains(
                    "expanding-cells.yaml:"
                )
                    && "\(error)".contains(
                        "assets.list: \(folder)/short.png is 750x1000 px; expected a screenshot of the 375x667 pt canvas at any scale (e.g. 750x1334 at @2x); give an image of that size, or make the canvas the screenshot's: at @2x it is settings.canvas {width: 375, height: 500}"
                    ), "\(error)")
        }
        let outside = try writeConfig("layout: {tappedRow: [0, 640, 375, 70]}\n")
        // Said where the scene file declares the row, with its key.
        #expect(throws: ConfigError.self) {
            try SceneRenderer(SceneCatalog.prepare("expanding-cells", configFile: outside))
        }
        do {
            _ = try SceneRenderer(SceneCatalog.prepare("expanding-cells", configFile: outside))
        } catch {
            #expect(
                "\(error)".hasSuffix(
                    "expanding-cells.yaml:17: layout.tappedRow: (0.0, 640.0, 375.0, 70.0) is outside the 375x667 pt canvas"
                ),
                "\(error)")
        }
    }

    @Test(
        "Golden key frames: start, mid-expand, end of expand, mid-pull",
        arguments: [
            ("start", 0.0), ("mid-expand", 1.2), ("end-of-expand", 1.7), ("mid-pull", 3.1), ("release", 3.45),
        ])
    func goldens(name: String, t: Double) throws {
        try assertFrames([Frame(time: t, bitmap: Self.renderer.frame(at: t))], named: "expanding-cells-\(name)")
    }

    func writeConfig(_ yaml: String, in folder: String? = nil) throws -> String {
        let dir = folder ?? NSTemporaryDirectory()
        let path = "\(dir)/config-\(UUID().uuidString).yaml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
