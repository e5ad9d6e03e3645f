import FlipbookTesting
import Testing

@Suite("Our transitions look as they did")
struct PreviewTests {
    @Test("The inbox row still grows the same way, on our slower spring")
    func inboxExpands() throws {
        try assertFrames(of: Transition(builtIn: "expanding-cells", set: ["present.duration=0.9"]), at: [1.15, 1.3, 1.6])
    }

    @Test("A rendered frame is a bitmap we can look into")
    func pixels() throws {
        let frame = try Transition(builtIn: "expanding-view", storyboard: "small").frame(at: 1.5)
        #expect(frame.width == 320 && frame.height == 568)
    }
}
