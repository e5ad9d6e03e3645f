import Flipbook
import Foundation
import Testing

/// The curve editor's facts come from the library: which fields a curve reads, and what each
/// handle edits and writes.
@Suite("Motion controls: the fields a curve reads and its handles' edits, as the library reads the param")
struct MotionControlsTests {
    /// expanding-view's `expand` animation with its curve set to `curve`.
    func controls(_ curve: String, extra: [String] = []) throws -> MotionControls {
        let t = try Transition(builtIn: "expanding-view", set: ["expand.curve=\(curve)"] + extra)
        return try #require(t.motionControls(of: "expand"))
    }

    @Test("easeIn:duration=0.3 reads its curve alone; easeIn reads the param's duration too")
    func ownDuration() throws {
        let own = try controls("easeIn:duration=0.3")
        #expect(own.kind == .bezier && own.reads == ["curve"])
        #expect(own.handles["p1"]?.template == "bezier:{x1},{y1},{x2},{y2},duration=0.3")
        let named = try controls("easeIn", extra: ["expand.duration=0.5"])
        #expect(named.reads == ["duration", "curve"])
        #expect(named.handles["p1"]?.template == "bezier:{x1},{y1},{x2},{y2}")
        #expect(named.handles["p1"]?.values == [0.42, 0, 1, 1] && named.handles["p2"]?.at == [0.5, 1])
    }

    @Test("UIKit's spring reads all three parts; its handles write the duration and the damping ratio")
    func spring() throws {
        let c = try controls("spring", extra: ["expand.duration=0.6", "expand.dampingRatio=0.7"])
        #expect(c.kind == .spring && c.reads == ["duration", "dampingRatio", "velocity", "curve"])
        #expect(c.handles["duration"]?.key == "expand.duration" && c.handles["duration"]?.at == [0.6, 1])
        let bounce = try #require(c.handles["bounce"])
        #expect(bounce.key == "expand.dampingRatio" && bounce.template == "{value}" && bounce.values == [0.7])
        // Rising overshoot, falling damping: no overshoot is ζ = 1.
        let table = try #require(bounce.byOvershoot)
        #expect(table.first == [0, 1] && table.last![1] == 0.04)
    }

    @Test("A response spring's handles write its spec with one part free, the others as written")
    func response() throws {
        let c = try controls("response:response=0.5,bounce=0.3")
        #expect(c.kind == .response && c.reads == ["curve"])
        #expect(c.handles["duration"]?.template == "response:response={value},bounce=0.3")
        #expect(c.handles["bounce"]?.template == "response:response=0.5,bounce={value}")
        #expect(
            try controls("response:response=0.4").handles["bounce"]?.template == "response:response=0.4,bounce={value}")
        // SwiftUI's bounce is 1 − ζ: no overshoot is no bounce.
        #expect(c.handles["bounce"]?.byOvershoot?.first == [0, 0])
    }

    @Test("Any other spec has no handles; every preset is a curve the library reads")
    func presets() throws {
        #expect(try controls("system").handles.isEmpty)
        #expect(try controls("caspring:mass=1,stiffness=300,damping=20").kind == .spec)
        let values = MotionControls.presets.flatMap(\.presets).map(\.value)
        #expect(values.count == 9)
        for value in values where value != "spring" {
            #expect(throws: Never.self) { _ = try Motion(spec: value) }
        }
    }
}
