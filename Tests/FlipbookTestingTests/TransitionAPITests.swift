import Foundation
import TestSupport
import Testing

@testable import FlipbookTesting

/// The library's entry points as Swift reads them: a built-in by name, a scene file by URL,
/// and one kind of frame whichever way it is asked for.
@Suite("Transition's entry points")
struct TransitionAPITests {
    static let file = URL(fileURLWithPath: Transition.assetsFolder).appendingPathComponent(
        "expanding-view/expanding-view.yaml")

    @Test("builtIn:, contentsOf: and the string form give the same frames")
    func sameFrames() throws {
        let byName = try Transition("expanding-view", storyboard: "small", width: 80)
        let builtIn = try Transition(builtIn: "expanding-view", storyboard: "small", width: 80)
        let file = try Transition(contentsOf: Self.file, storyboard: "small", width: 80)
        for t in [0.0, 0.9, 1.4] {
            let expected = byName.frame(at: t).bitmap
            #expect(builtIn.frame(at: t).bitmap == expected)
            #expect(file.frame(at: t).bitmap == expected)
        }
    }

    @Test("setting(_:) is a load with the same assignments: frames, length and every parameter's value")
    func settingIsALoad() throws {
        let base = try Transition("app-store-card", storyboard: "promo", set: ["demo.peekScroll=20"], width: 80)
        for extra in [
            ["demo.position.duration=0.62", "demo.position.damping=0.6"], ["demoTiming.firstDrag=0.7"],
            ["fps=24"],
        ] {
            let set = try base.setting(extra)
            let loaded = try Transition(
                "app-store-card", storyboard: "promo", set: ["demo.peekScroll=20"] + extra, width: 80)
            #expect(set.duration == loaded.duration && set.frameTimes == loaded.frameTimes, "\(extra)")
            #expect(set.parameters.map(\.value) == loaded.parameters.map(\.value), "\(extra)")
            for t in stride(from: 0.0, through: loaded.duration, by: 0.35) {
                #expect(set.frame(at: t).bitmap == loaded.frame(at: t).bitmap, "\(extra) at \(t)")
            }
        }
        #expect(try base.setting(["demoTiming.firstDrag=0.7"]).duration > base.duration)
    }

    @Test("A config given as a URL is read as the path form reads it")
    func configURL() throws {
        let folder = temporaryFolder()
        let config = URL(fileURLWithPath: folder).appendingPathComponent("slow.yaml")
        try "timing:\n  restHold: 1.5\n".write(to: config, atomically: true, encoding: .utf8)
        let byURL = try Transition(builtIn: "expanding-view", storyboard: "small", config: config, width: 40)
        let byPath = try Transition("expanding-view", storyboard: "small", config: config.path, width: 40)
        #expect(byURL.duration == byPath.duration)
        #expect(byURL.duration > (try Transition(builtIn: "expanding-view", storyboard: "small", width: 40)).duration)
    }

    @Test("builtIn: refuses a name that is not one, listing the built-ins; contentsOf: refuses a web URL")
    func refusals() throws {
        let error = #expect(throws: TransitionError.self) { try Transition(builtIn: "expanding-cell") }
        #expect(
            error?.description
                == "expanding-cell: not a built-in scene (the built-ins: \(Transition.builtIns.joined(separator: ", ")))"
        )
        let web = #expect(throws: TransitionError.self) {
            try Transition(contentsOf: URL(string: "https://example.com/scene.yaml")!)
        }
        #expect(web?.description == "https://example.com/scene.yaml: not a file URL")
    }

    @Test("frame(at:) is the Frame frames(at:) gives for that moment")
    func oneKindOfFrame() throws {
        let t = try Transition(builtIn: "expanding-view", storyboard: "small", width: 64)
        let one: Frame = t.frame(at: 1.2)
        let many: [Frame] = try t.frames(at: [1.2])
        #expect(one.time == many[0].time && one.bitmap == many[0].bitmap)
        #expect(one.width == 64 && one.height == one.bitmap.height && one[10, 10] == one.bitmap[10, 10])
    }
}
