import Flipbook
import Foundation
import TestSupport
import Testing

@testable import Fit

/// A made scene writes its times to four places; each step still shows first in the frame the
/// fit chose, however the rounded holds and durations add up.
@Suite("A made scene's steps show in the frames their fitted times do")
struct FrameEdgesTests {
    /// A 60 fps recording's edges: frame k starts at k / 60, and shows what was made two
    /// refreshes before.
    static let edges = FrameEdges(starts: (0..<300).map { Double($0) / 60 })

    @Test("A time rounded across an edge is kept on its side, to four places; one that stays is as rounded")
    func keptOnItsSide() {
        let edge = 203.0 / 60 - 2.0 / 60  // 3.35
        // Fitted 0.000018 s before the edge, rounded past it: the nearest time before it.
        #expect(Self.edges.kept(3.3499824, preferring: 3.35) == 3.3499)
        #expect(Self.edges.between(3.3499824) == Self.edges.between(3.3499))
        #expect(Self.edges.between(3.3499824) != Self.edges.between(3.35 + 1e-6))
        // Just after an edge, rounded before it: the first time after.
        #expect(Self.edges.kept(edge + 0.00003, preferring: 3.35) == 3.3501)
        // On an edge, it shows in that edge's frame: kept before it, clear of it.
        let on = 181.0 / 60 - 2.0 / 60  // 2.98333…
        #expect(Self.edges.kept(on, preferring: 2.9833) == 2.9833)
        #expect(Self.edges.kept(on + 1e-12, preferring: 2.9834) == 2.9833)
        let onPlace = 179.0 / 60 - 2.0 / 60  // 2.95
        #expect(Self.edges.kept(onPlace, preferring: 2.95) == 2.9499)
        // Rounded within its frame: as rounded, however far from the fitted time.
        #expect(Self.edges.kept(3.3412, preferring: 3.3401) == 3.3401)
        // At 0 a step shows at once; with no edges, as rounded.
        #expect(Self.edges.kept(0, preferring: 0) == 0)
        #expect(FrameEdges(starts: []).kept(3.3499824, preferring: 3.35) == 3.35)
    }

    /// A sheet dismissed linearly from 0.21004 s over 0.50004 s, then a cut back at `cut`:
    /// each rounded on its own, the hold before the cut counts from 0.71 where the fit's
    /// counted from 0.71008.
    static func scene(in folder: String, cut: Double, edges: FrameEdges) throws -> (path: String, text: String) {
        var text = try BandScreen.dismissedThenBack(
            start: 0.21004, duration: 0.50004, cut: cut, length: 2, name: "edges", in: folder)
        text.edges = edges
        try text.text.write(toFile: folder + "/edges.yaml", atomically: true, encoding: .utf8)
        return (folder + "/edges.yaml", text.text)
    }

    @Test("A cut fitted just after an edge shows a frame later than the edge, as the fit drew it")
    func cutShowsInItsFrame() throws {
        // Edge 70 / 60 (frame 72's): fitted 0.00001 s after it.
        let cut = 70.0 / 60 + 0.00001
        let kept = try Self.scene(in: temporaryFolder(), cut: cut, edges: Self.edges)
        // The hold from the dismissal's written end (0.71) to the first time past the edge.
        #expect(kept.text.contains("before2: {seconds: 0.4567,"), "\(kept.text)")
        let transition = try Transition(kept.path)
        #expect(SettlingChangeTests.color(transition, 72.0 / 60, y: 45) != (255, 0, 0))
        #expect(SettlingChangeTests.color(transition, 73.0 / 60, y: 45) == (255, 0, 0))
        // Each rounded on its own, the cut shows a frame early.
        let rounded = try Self.scene(in: temporaryFolder(), cut: cut, edges: FrameEdges(starts: []))
        #expect(rounded.text.contains("before2: {seconds: 0.4566,"), "\(rounded.text)")
        #expect(SettlingChangeTests.color(try Transition(rounded.path), 72.0 / 60, y: 45) == (255, 0, 0))
    }

    @Test("The file's holds and durations add up to the placed times: what a fit of it reads back")
    func fileSaysPlaced() throws {
        let cut = 70.0 / 60 + 0.00001
        var text = try BandScreen.dismissedThenBack(
            start: 0.21004, duration: 0.50004, cut: cut, length: 2, name: "edges")
        text.edges = Self.edges
        let (placed, end) = text.placed
        #expect(placed.map(\.start) == [0.21, 1.1667])
        #expect(placed[0].curve == .bezier("linear", duration: 0.5))
        #expect(abs(end - 2) < 1e-12)
        let file = text.text
        #expect(file.contains("before1: {seconds: 0.21,"))
        #expect(file.contains("before2: {seconds: 0.4567,"))
        #expect(file.contains("end: {seconds: 0.8333,"))
    }

    @Test(
        "A change held back by the one before past the frame its fitted end shows keeps its own seconds: the file loads, every duration positive"
    )
    func heldBackPastItsEnd() throws {
        let folder = temporaryFolder()
        try BandScreen.bitmap(band: 40, (255, 0, 0)).writePNG(to: folder + "/screen-1.png")
        try BandScreen.bitmap(band: 120, (0, 0, 255)).writePNG(to: folder + "/screen-2.png")
        // A circle grows from 0.21 s over 0.4 s, then screen 2 fades in over 0.1 s (to 0.71 s);
        // the screen back was fitted inside the fade (0.62 to 0.67 s): it can only start once
        // the fade is over, and its end has passed by then.
        var reveal = MadeChange(
            kind: .reveal, from: 1, to: 2, start: 0.21004, curve: .bezier("easeIn", duration: 0.4), seconds: 0...1)
        (reveal.rect, reveal.color, reveal.fade) = ([40, 80, 20, 20], "#FF0000", 0.1)
        var back = MadeChange(
            kind: .dismiss, from: 2, to: 1, start: 0.62, curve: .bezier("easeOut", duration: 0.05), seconds: 0...1)
        back.numbers["Dim"] = 0
        var text = MadeSceneText(
            name: "held", summary: "a reveal, then a dismissal fitted inside its fade", canvas: (100, 200), scale: 1,
            fps: 60, screens: [("screen-1.png", 0), ("screen-2.png", 1)], changes: [reveal, back], length: 2,
            header: [])
        text.edges = Self.edges
        let (placed, _) = text.placed
        #expect(placed.map(\.start) == [0.21, 0.71], "\(placed.map(\.start))")
        #expect(abs(placed[1].curve.duration - 0.05) < 1e-9, "\(placed[1].curve)")
        try text.text.write(toFile: folder + "/held.yaml", atomically: true, encoding: .utf8)
        let transition = try Transition(folder + "/held.yaml")
        #expect(transition.duration > 0.76, "\(transition.duration)")
    }

    @Test("Where rounding keeps every step in its frame, the file is as each value rounded on its own")
    func asRoundedElsewhere() throws {
        let cut = 1.04
        let kept = try Self.scene(in: temporaryFolder(), cut: cut, edges: Self.edges).text
        #expect(kept == (try Self.scene(in: temporaryFolder(), cut: cut, edges: FrameEdges(starts: [])).text))
        #expect(kept.contains("before1: {seconds: 0.21,"))
        #expect(kept.contains("before2: {seconds: 0.3299,"))
        #expect(kept.contains("dismiss: {animation: {duration: 0.5, curve: linear}"), "\(kept)")
    }
}
