import Foundation
import Geometry
import Raster
import TestSupport
import Testing

@testable import FlipbookTesting

/// What `assertFrames` records and reports, checked on a small transition in a temporary
/// folder: a timing change fails saying what changed, whatever the mode but `all`.
@Suite("Reference frames cannot drift")
struct ReferenceCheckTests {
    static func transition(restHold: Double = 0.7) throws -> Transition {
        try Transition(
            "expanding-view", storyboard: "small", set: ["timing.restHold=\(restHold)"], fps: 10, width: 40)
    }

    static func check(
        _ transition: Transition, in folder: String, mode: RecordMode, artifacts: String = temporaryFolder()
    ) throws -> ReferenceCheck {
        let frames = try transition.frames(at: keyTimes(of: transition))
        let taken = ReferenceRecord(
            scene: transition.name, storyboard: transition.storyboard, length: transition.duration, frames: frames,
            scale: transition.scale)
        return try ReferenceCheck(
            frames, taken: taken, name: "small", folder: folder, tolerance: .exact, mode: mode, artifacts: artifacts)
    }

    static func pngs(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
    }

    @Test("A first run records eight frames and what they were taken of; a second passes")
    func firstRecording() throws {
        let folder = temporaryFolder() + "/refs"
        let first = try Self.check(Self.transition(), in: folder, mode: .missing)
        #expect(first.recorded.count == 9)
        #expect(first.messages.count == 1)
        #expect(first.messages[0].hasPrefix("recorded 8 reference frames of small"))
        let record = try #require(try ReferenceRecord.read(in: folder))
        #expect(record.scene == "expanding-view" && record.storyboard == "small")
        #expect(record.size == [40, 71] && record.scale == 0.125)
        #expect(record.moments.count == 8 && record.moments.first == 0)
        let length = try Self.transition().duration
        #expect(abs(record.length! - length) < 1e-6)
        let second = try Self.check(Self.transition(), in: folder, mode: .never)
        #expect(second.messages.isEmpty && second.recorded.isEmpty)
    }

    @Test(
        "A longer storyboard fails, naming the old and new length, and writes nothing",
        arguments: [RecordMode.never, .missing, .failed])
    func timingChange(mode: RecordMode) throws {
        let folder = temporaryFolder() + "/refs"
        _ = try Self.check(Self.transition(), in: folder, mode: .missing)
        let before = Self.pngs(in: folder)
        let json = try String(contentsOfFile: folder + "/references.json", encoding: .utf8)
        let old = try Self.transition().duration, new = try Self.transition(restHold: 1.2).duration
        let check = try Self.check(Self.transition(restHold: 1.2), in: folder, mode: mode)
        #expect(check.recorded.isEmpty)
        #expect(check.messages.count == 1)
        let message = check.messages[0]
        #expect(message.contains(String(format: "the storyboard is %.3f s long, was %.3f s", new, old)), "\(message)")
        #expect(message.contains("the moments are"))
        #expect(message.contains("FLIPBOOK_RECORD=all"))
        #expect(Self.pngs(in: folder) == before)
        #expect(try String(contentsOfFile: folder + "/references.json", encoding: .utf8) == json)
    }

    @Test("Re-recording everything takes the new moments and removes the ones no longer asked for")
    func recordAll() throws {
        let folder = temporaryFolder() + "/refs"
        _ = try Self.check(Self.transition(), in: folder, mode: .missing)
        let before = Set(Self.pngs(in: folder))
        let check = try Self.check(Self.transition(restHold: 1.2), in: folder, mode: .all)
        let after = Set(Self.pngs(in: folder))
        let asked = try Self.transition(restHold: 1.2)
        let expected = Set(keyTimes(of: asked).map(ReferenceRecord.pngName))
        #expect(after == expected)
        #expect(Set(check.removed) == before.subtracting(expected))
        #expect(!check.removed.isEmpty)
        #expect(
            check.messages.contains {
                $0.hasPrefix("removed \(check.removed.count) references of small no longer asked for")
            })
        #expect(try ReferenceRecord.read(in: folder)?.length == (asked.duration * 1e6).rounded() / 1e6)
        // The new references pass as they are.
        #expect(try Self.check(asked, in: folder, mode: .never).messages.isEmpty)
    }

    @Test("References from before the record: CI fails asking for it; a local run records it alone")
    func referencesWithoutRecord() throws {
        let folder = temporaryFolder() + "/refs"
        _ = try Self.check(Self.transition(), in: folder, mode: .missing)
        try FileManager.default.removeItem(atPath: folder + "/references.json")
        let ci = try Self.check(Self.transition(), in: folder, mode: .never)
        #expect(ci.messages.count == 1 && ci.messages[0].contains("no references.json"))
        let local = try Self.check(Self.transition(), in: folder, mode: .missing)
        #expect(local.recorded == [folder + "/references.json"])
        #expect(local.messages.count == 1 && local.messages[0].hasPrefix("recorded what the references of small"))
    }

    @Test("A changed frame fails with artefacts; its sheet labels actual, expected and diff")
    func labelledSheet() throws {
        let folder = temporaryFolder() + "/refs", artifacts = temporaryFolder()
        let transition = try Self.transition()
        _ = try Self.check(transition, in: folder, mode: .missing)
        let moment = keyTimes(of: transition)[4]
        try transition.frame(at: 0).bitmap.writePNG(to: folder + "/" + ReferenceRecord.pngName(moment))
        let check = try Self.check(transition, in: folder, mode: .never, artifacts: artifacts)
        #expect(check.messages.count == 1 && check.messages[0].contains("1 of 8 frames differ"))
        let sheet = try Bitmap(png: artifacts + String(format: "/small/t%.3f.sheet.png", moment))
        let frame = transition.frame(at: moment).bitmap
        let band = (LabelFont.glyphHeight + 6)
        #expect(sheet.height == frame.height + band)
        #expect(sheet.width == 3 * frame.width + 16)
        // The "a" of "actual" at (3, 3): its second row is the bar 01110.
        let white = Color.white.premultiplied, grey = Color(rgb: 0x808080).premultiplied
        #expect(sheet[3 + 1, 3 + 2] == white && sheet[3, 3 + 2] == grey)
        // "expected" starts over the second column.
        #expect(sheet[frame.width + 8 + 3, 3 + 4] == white)
        // The frames sit under the band.
        #expect(sheet[0, band] == frame[0, 0])
    }

    @Test("A reference of another size fails naming both sizes")
    func otherSize() throws {
        let folder = temporaryFolder() + "/refs"
        let transition = try Self.transition()
        _ = try Self.check(transition, in: folder, mode: .missing)
        let moment = keyTimes(of: transition)[2]
        try Bitmap(width: 20, height: 35).writePNG(to: folder + "/" + ReferenceRecord.pngName(moment))
        let check = try Self.check(transition, in: folder, mode: .never)
        #expect(check.messages.count == 1)
        #expect(
            check.messages[0].contains(
                String(format: "first at %.3f s (the sizes differ: actual 40×71, expected 20×35)", moment)),
            "\(check.messages)")
    }

    @Test("Settings are scoped: inside withFrameTesting, and back outside")
    func scopedSettings() throws {
        let outside = FrameTesting.current.record
        withFrameTesting(record: .all, artifacts: "/tmp/elsewhere") {
            #expect(FrameTesting.current.record == .all)
            #expect(FrameTesting.current.artifacts == "/tmp/elsewhere")
            withFrameTesting(record: .never) {
                #expect(FrameTesting.current.record == .never)
                #expect(FrameTesting.current.artifacts == "/tmp/elsewhere")
            }
        }
        #expect(FrameTesting.current.record == outside)
    }

    @Test("The trait scopes a test's settings", .frameTesting(record: .failed))
    func trait() {
        #expect(FrameTesting.current.record == .failed)
    }
}
