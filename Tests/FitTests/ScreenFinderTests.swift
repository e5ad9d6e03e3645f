@testable import Fit
import Geometry
import Flipbook
import Foundation
import TestSupport
import Testing

/// Recordings as people make them: the screen inside a simulator's window, at its own size.
@Suite("The screen is found in a recording that holds more than it")
struct ScreenFinderTests {
    /// expanding-view's `bottom` at 10 fps, each frame scaled to `screenWidth` and drawn at
    /// (`x`, `y`) in a 420 x 700 grey window with a darker title bar: a simulator's recording.
    static func windowed(x: Int, y: Int, screenWidth: Int, set: [String] = []) throws -> FrameSequence {
        let t = try Transition("expanding-view", storyboard: "bottom", set: set)
        let times = Array(stride(from: 0.0, to: t.duration, by: 0.1))
        let frames = try t.frames(at: times).enumerated().map { i, frame in
            FrameSequence.Frame(
                start: times[i], bitmap: inWindow(frame.bitmap, x: x, y: y, screenWidth: screenWidth),
                label: "frame \(i)")
        }
        return FrameSequence(frames: frames, duration: t.duration)
    }

    /// `screen` scaled to `screenWidth` and drawn at (`x`, `y`) in a 420 x 700 grey window
    /// with a darker title bar.
    static func inWindow(_ screen: Bitmap, x: Int, y: Int, screenWidth: Int) -> Bitmap {
        let height = Int((Double(screenWidth) * Double(screen.height) / Double(screen.width)).rounded())
        let scaled = screen.resized(width: screenWidth, height: height)
        var window = Bitmap(width: 420, height: 700, fill: Color(rgb: 0xD0D0D0).premultiplied)
        for row in 0..<28 {
            for column in 0..<420 { window[column, row] = Color(rgb: 0x505050).premultiplied }
        }
        for row in 0..<height {
            for column in 0..<screenWidth { window[x + column, y + row] = scaled[column, row] }
        }
        return window
    }

    static let canvas = try! Transition("expanding-view").canvas

    static func first() throws -> Bitmap { try Transition("expanding-view", storyboard: "bottom").frame(at: 0).bitmap }

    @Test(
        "The screen at its own size, and at three quarters, is found to the pixel",
        arguments: [(50, 60, 320), (90, 120, 240)])
    func found(x: Int, y: Int, width: Int) throws {
        let recording = try Self.windowed(x: x, y: y, screenWidth: width)
        #expect(!ScreenFinder.isScreenShaped(width: 420, height: 700, canvas: Self.canvas))
        let found = try #require(ScreenFinder.find(recording, canvas: Self.canvas, render: Self.first()))
        let height = Int((Double(width) * 568 / 320).rounded())
        #expect(abs(found.crop.x - x) <= 1 && abs(found.crop.y - y) <= 1, "\(found)")
        #expect(abs(found.crop.width - width) <= 1 && abs(found.crop.height - height) <= 2, "\(found)")
        #expect(found.difference < ScreenFinder.certain, "\(found)")
    }

    @Test("Frames of the canvas's shape are the screen already")
    func screenShaped() {
        #expect(ScreenFinder.isScreenShaped(width: 320, height: 568, canvas: Self.canvas))
        #expect(ScreenFinder.isScreenShaped(width: 640, height: 1136, canvas: Self.canvas))
        #expect(ScreenFinder.isScreenShaped(width: 300, height: 532, canvas: Self.canvas))
        #expect(!ScreenFinder.isScreenShaped(width: 320, height: 600, canvas: Self.canvas))
    }

    @Test("A screen that is not the render's is not taken: the fit names the --crop it would have used")
    func notCertain() throws {
        // The recording's screen is the render's in negative: it changes where the render's
        // does, but its first frame is not the render's.
        var recording = try Self.windowed(x: 50, y: 60, screenWidth: 320)
        recording.frames = recording.frames.map { frame in
            var negative = frame.bitmap
            for row in 0..<568 {
                for column in 0..<320 {
                    let p = frame.bitmap[50 + column, 60 + row]
                    negative[50 + column, 60 + row] = PremultipliedColor(
                        r: 255 - p.r, g: 255 - p.g, b: 255 - p.b, a: 255)
                }
            }
            return FrameSequence.Frame(start: frame.start, bitmap: negative, label: frame.label)
        }
        let request = FitRequest(scene: "expanding-view", storyboard: "bottom", keys: ["expand.duration"])
        #expect {
            try Fitter.fit(request, recording: recording)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("the recording's 420x700 frames are not the canvas's shape")
                && text.contains("give crop X,Y,W,H")
        }
    }
}

/// A score of a recording in a simulator's window finds the screen as the fit does.
@Suite("flipbook score finds the screen in a simulator's window")
struct ScoreScreenTests {
    @Test("The storyboard's own recording in a window scores within a pixel, on the screen it found")
    func ownRecordingInAWindow() throws {
        let recording = try ScreenFinderTests.windowed(x: 90, y: 120, screenWidth: 240)
        // The tapped circle's top, in the recording's pixels: the screen's (160, 503) at 0.75.
        var request = ScoreRequest(
            scene: "expanding-view",
            features: [
                RecordingFeature(
                    name: "circle top",
                    kind: .extent(
                        start: (x: 210, y: 497), to: 120, axis: .y, colour: .at(x: 210, y: 497, t: 0), until: false))
            ])
        request.storyboard = "bottom"
        let result = try Scorer.score(request, recording: recording)
        let found = try #require(result.foundScreen)
        #expect(abs(found.x - 90) <= 1 && abs(found.y - 120) <= 1 && abs(found.width - 240) <= 1, "\(found)")
        let circle = try #require(result.features.first)
        #expect(circle.frames > 10 && circle.rms < 1.5, "\(circle.frames) frames, RMS \(circle.rms)")
    }
}
