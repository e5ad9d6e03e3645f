import Foundation
import Testing

@testable import FlipbookTesting

/// The timeline a transition gives its tools: when each layer's properties animate, which param
/// sets each phase's length, and what each param changes.
@Suite("A transition's timeline: tracks, the param behind each phase's length, what each param moves")
struct TransitionTimelineTests {
    @Test("expanding-cells: each phase's length is its hold or its animation's duration")
    func expandingCellsLengths() throws {
        let t = try Transition("expanding-cells")
        #expect(t.phases.map(\.name) == ["hold-list", "expand", "hold-detail", "pull-down", "release", "hold-end"])
        #expect(
            t.influence().phaseLengthKeys == [
                "timing.listHold", "present.duration", "timing.detailHold", "pull.duration", "dismiss.duration",
                "timing.endHold",
            ])
    }

    @Test(
        "A phase's end edits the motion that ends it: app-store-card's open-demo, the open's spring, not the press before it"
    )
    func openDemoEndsOnTheOpen() throws {
        let t = try Transition("app-store-card", storyboard: "old-demo")
        let keys = t.influence().phaseLengthKeys
        let opens = t.phases.indices.filter { t.phases[$0].name == "open-demo" }
        #expect(opens.count == 2)
        #expect(opens.map { keys[$0] } == ["demo.position.duration", "demo.position.duration"], "\(keys)")
        // The drag back ends on its spring; expanding-view's one phase on its expansion.
        #expect(keys[t.phases.firstIndex { $0.name == "drag-back-demo" }!] == "dismiss.duration")
        #expect(try Transition("expanding-view").influence().phaseLengthKeys == ["expand.duration"])
    }

    @Test("What each param shapes: the phases whose length or picture it changes, by name")
    func phasesShaped() throws {
        let t = try Transition("app-store-card", storyboard: "old-demo")
        let shaped = t.influence().phasesShaped
        #expect(shaped["demo.position"]?.contains("open-demo") == true, "\(shaped["demo.position"] ?? [])")
        #expect(shaped["demoTiming.secondPress"]?.contains("open-demo") == true)
        #expect(shaped["demo.position"]?.contains("drag-back") != true)
        let moved = t.influence().layersMoved["demo.position"] ?? []
        #expect(moved.contains { $0.hasPrefix("card-1") || $0.hasPrefix("anchor-1") }, "\(moved)")
    }

    @Test(
        "Every built-in's phase lengths: the param named lengthens its phase by as much, and no phase of another name")
    func lengthKeysLengthen() throws {
        var shared: [String] = []
        for name in Transition.builtIns {
            let t = try Transition(name)
            let keys = t.influence().phaseLengthKeys
            #expect(keys.contains { $0 != nil }, "\(name): no phase has a length param")
            for (i, key) in keys.enumerated() {
                guard let key else { continue }
                let value = try #require(Self.value(of: key, in: t))
                let longer = try Transition(name, set: ["\(key)=\(value + 0.1)"])
                let (was, now) = (t.phases[i], longer.phases[i])
                #expect(abs((now.end - now.start) - (was.end - was.start) - 0.1) < 1e-9, "\(name) \(was.name): \(key)")
                // A sequence played twice is one phase: its param lengthens both.
                let others = zip(t.phases, longer.phases).enumerated().filter { j, pair in
                    pair.0.name != was.name && abs((pair.1.end - pair.1.start) - (pair.0.end - pair.0.start)) > 1e-9
                }
                if !others.isEmpty { shared.append("\(name) \(was.name): \(key)") }
            }
        }
        #expect(shared == [])
    }

    @Test("What a param moves: a colour its layer alone, a hold nothing, an animation the layers it animates")
    func layersMoved() throws {
        let moved = try Transition("expanding-cells").influence().layersMoved
        #expect(moved["layout.barColor"] == ["navbar"])
        #expect(moved["layout.highlight"] == ["highlight", "cell-highlight"])
        #expect(moved["timing.listHold"] == [])
        #expect(moved["timing.endHold"] == [])
        let present = try #require(moved["present"])
        #expect(present.contains("container") && present.contains("detail") && !present.contains("status-light"))
        #expect(moved["timing.statusBarFade"] == ["status-light", "status-dark"])
    }

    @Test("Tracks: each animated property of each layer with its spans, a set as a span of no length")
    func tracks() throws {
        let tracks = try Transition("expanding-cells").tracks
        let container = try #require(tracks.first { $0.layer == "container" && $0.property == "center" })
        #expect(zip(container.spans.map(\.lowerBound), [1.08, 1.08, 3.36]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(container.spans.count == 3)
        #expect(abs(container.spans[1].upperBound - 1.68) < 1e-9 && container.spans[0].upperBound == 1.08)
        #expect(
            Set(tracks.map(\.property)).isSubset(of: [
                "center", "size", "scale", "alpha", "cornerRadius",
                "background", "z", "hidden", "contentOffset",
            ]))
        // Every built-in's tracks are named as its scene file writes the change (`center`,
        // `background`, `z`), the planner's own names.
        let written: Set = [
            "center", "size", "scale", "alpha", "cornerRadius", "background", "z", "hidden", "contentOffset",
        ]
        for name in Transition.builtIns {
            let names = Set(try Transition(name).tracks.map(\.property))
            #expect(names.isSubset(of: written), "\(name): \(names)")
        }
    }

    private static func value(of key: String, in t: Transition) -> Double? {
        for p in t.parameters {
            if p.key == key { return Double(p.value) }
            if let a = p.animation, key == "\(p.key).duration" { return a.duration }
        }
        return nil
    }
}
