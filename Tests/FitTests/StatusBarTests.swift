import Flipbook
import Foundation
import TestSupport
import Testing

@testable import Fit

@Suite("StatusBar: the strip at the top no frame of a change moves, drawn over the change")
struct StatusBarTests {
    /// A white opaque frame `width` x `height` with black boxes (x, y, width, height) on it.
    static func frame(width: Int, height: Int, black boxes: [(Int, Int, Int, Int)]) -> Bitmap {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for (bx, by, bw, bh) in boxes {
            for y in by..<(by + bh) {
                for x in bx..<(bx + bw) { for c in 0..<3 { bytes[(y * width + x) * 4 + c] = 0 } }
            }
        }
        return Bitmap(width: width, height: height, premultipliedPixels: bytes)
    }

    /// Five frames 800 x 400 (a point a pixel): a status bar's text at the top that stays, and a
    /// line of text below that moves down 10 a frame from row `line`; `extra` adds boxes to the
    /// third frame.
    static func frames(line: Int = 25, text: (Int, Int, Int, Int) = (10, 6, 60, 8), extra: [(Int, Int, Int, Int)] = [])
        -> [Bitmap]
    {
        (0..<5).map { k in
            frame(width: 800, height: 400, black: [text, (0, line + 10 * k, 800, 10)] + (k == 2 ? extra : []))
        }
    }

    @Test("The rows above the first that any frame changes, where they show something")
    func height() {
        #expect(StatusBar.height(in: Self.frames(), canvasWidth: 800) == 25)
        // At half the scale (400 points across the 800 pixels), half the points.
        #expect(StatusBar.height(in: Self.frames(), canvasWidth: 400) == 12.5)
        // Six pixels of a row changed (the tips of a line of text moving under it) change the
        // row, though its mean moves by under 2 levels.
        #expect(StatusBar.height(in: Self.frames(extra: [(300, 21, 6, 1)]), canvasWidth: 800) == 21)
        // Taller than a status bar: no more than `tallest`.
        #expect(StatusBar.height(in: Self.frames(line: 90), canvasWidth: 800) == 60)
    }

    @Test("No status bar where the strip shows nothing, where its top row changes, or where it is too short")
    func none() {
        // Nothing but white above the moving line.
        #expect(StatusBar.height(in: Self.frames(text: (0, 0, 0, 0)), canvasWidth: 800) == nil)
        // The top row changes in the third frame.
        #expect(StatusBar.height(in: Self.frames(extra: [(0, 0, 800, 2)]), canvasWidth: 800) == nil)
        // The moving line starts at row 5: under `shortest`.
        #expect(StatusBar.height(in: Self.frames(line: 5, text: (10, 1, 60, 3)), canvasWidth: 800) == nil)
    }

    @Test("A screen's colour under the bar: the strip's median, text aside")
    func color() {
        var bytes = [UInt8](repeating: 0, count: 100 * 40 * 4)
        for i in stride(from: 0, to: bytes.count, by: 4) {
            (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) = (20, 120, 220, 255)
        }
        for x in 0..<10 { for c in 0..<3 { bytes[(5 * 100 + x) * 4 + c] = 0 } }
        let bitmap = Bitmap(width: 100, height: 40, premultipliedPixels: bytes)
        #expect(StatusBar.color(of: bitmap, height: 10, canvasWidth: 50) == "#1478DC")
    }

    /// A made scene's file in `folder`, with its two screens 100 x 200: the same status bar text
    /// on each, a red box on the first and a blue one on the next; the first dismissed by
    /// `curve` from `start`, under a status bar 20 points tall. No black dims the screen
    /// underneath, so that its pixels are its own.
    static func dismissal(in folder: String, curve: MadeChange.Curve, start: Double, length: Double) throws -> String {
        func screen(_ box: (Int, Int, Int, Int), _ color: (UInt8, UInt8, UInt8)) -> Bitmap {
            var bytes = [UInt8](repeating: 255, count: 100 * 200 * 4)
            for y in 6..<14 { for x in 10..<30 { for c in 0..<3 { bytes[(y * 100 + x) * 4 + c] = 0 } } }
            for y in box.1..<(box.1 + box.3) {
                for x in box.0..<(box.0 + box.2) {
                    (bytes[(y * 100 + x) * 4], bytes[(y * 100 + x) * 4 + 1], bytes[(y * 100 + x) * 4 + 2]) = color
                }
            }
            return Bitmap(width: 100, height: 200, premultipliedPixels: bytes)
        }
        try screen((0, 40, 100, 20), (255, 0, 0)).writePNG(to: folder + "/screen-1.png")
        try screen((0, 60, 100, 20), (0, 0, 255)).writePNG(to: folder + "/screen-2.png")
        var dismiss = MadeChange(kind: .dismiss, from: 1, to: 2, start: start, curve: curve, seconds: 0...1)
        (dismiss.statusBar, dismiss.numbers["Dim"]) = (20, 0)
        let text = MadeSceneText(
            name: "bar", summary: "a dismissal under a status bar", canvas: (100, 200), scale: 1, fps: 30,
            screens: [("screen-1.png", 0), ("screen-2.png", 1)], changes: [dismiss], length: length, header: [],
            screenTops: ["#FFFFFF", "#FFFFFF"])
        try text.text.write(toFile: folder + "/bar.yaml", atomically: true, encoding: .utf8)
        return folder + "/bar.yaml"
    }

    @Test(
        "A made scene's dismissal under a status bar: the bar stays on top, the sliding screen shows its own colour there, and after it each screen shows its own bar again"
    )
    func madeScene() throws {
        let transition = try Transition(
            Self.dismissal(in: temporaryFolder(), curve: .bezier("linear", duration: 1), start: 0.1, length: 1.5))
        func pixel(_ t: Double, _ x: Int, _ y: Int) -> [UInt8] {
            let p = transition.frame(at: t)[x, y]
            return [p.r, p.g, p.b]
        }
        // Half way: the first screen 100 down. The bar's text stays at the top; where the first
        // screen's own bar text is now, its colour (white); its red box 100 lower; the next
        // screen's blue box uncovered above it.
        #expect(pixel(0.6, 15, 10) == [0, 0, 0])
        #expect(pixel(0.6, 15, 110) == [255, 255, 255])
        #expect(pixel(0.6, 50, 150) == [255, 0, 0])
        #expect(pixel(0.6, 50, 110) == [255, 255, 255])
        #expect(pixel(0.6, 50, 70) == [0, 0, 255])
        // Before and after, each screen with its own bar.
        #expect(pixel(0.05, 15, 10) == [0, 0, 0])
        #expect(pixel(1.4, 15, 10) == [0, 0, 0])
        #expect(pixel(1.4, 50, 70) == [0, 0, 255])
        #expect(pixel(1.4, 50, 150) == [255, 255, 255])
    }

    @Test(
        "A recording of a sheet dismissed under a status bar that stays gives a scene that keeps it: the strip no frame moves, its param, and the report's line"
    )
    func fromRecording() throws {
        let folder = temporaryFolder()
        let recording = try SceneMakingTests.recording(in: folder, scene: "dismissal", as: "dismissal.gif")
        let report = try SceneMakingRequest(recording: recording, folder: folder + "/made").run()
        let change = try #require(report.changes.first)
        #expect(report.changes.count == 1 && change.kind == .dismiss, "\(report.changes)")
        // The rows no frame moves: the status bar's 20 points, and the plain grey under it down
        // to where the sheet's title starts.
        let bar = try #require(change.statusBar)
        #expect(bar >= 20 && bar <= 40, "\(bar)")
        #expect(report.check.changes.allSatisfy { $0.rms < 6 && $0.lag == 0 }, "\(report.check.changes)")
        // The GIF merged the held frames, so its last small steps (0.60-0.63 s, as the sheet
        // leaves the screen) are its quietest differences; the change still runs to them.
        #expect(report.check.changes.first.map { $0.seconds.upperBound > 0.65 } == true, "\(report.check.changes)")
        #expect(
            report.text.contains(", under a status bar \(FitResult.text(bar)) pt tall that stays"), "\(report.text)")
        // The sheet's rows are plain, so whole frames barely tell one place of it from
        // another: its motion is timed by where each frame places it (`SlideTrack`), and comes
        // back as the truth's spring (0.55 s, damping 0.9) within 5 %, drawn within 2 px of the
        // recording's sheet.
        guard case .spring(let duration, let ratio, _) = change.curve else {
            Issue.record("expected a spring, got \(change.curve)")
            return
        }
        #expect(abs(duration / 0.55 - 1) < 0.05 && abs(ratio / 0.9 - 1) < 0.05, "\(change.curve)")
        let offset = try #require(report.check.changes.first?.offset)
        #expect(offset.rms < 2 && offset.frames >= 5, "\(offset)")
        let made = try String(contentsOfFile: folder + "/made/dismissal.yaml", encoding: .utf8)
        #expect(made.contains("dismissStatusBar: {number: \(FitResult.text(bar))"), "\(made)")
        #expect(made.contains("status-bar: {image: assets.screen1"), "\(made)")
    }
}
