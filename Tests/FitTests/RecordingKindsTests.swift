import Codecs
@testable import Fit
import Flipbook
import Foundation
import TestSupport
import Testing
import Video

/// The recordings people have, made from a render with a known value: a device's screen
/// recording (H.264 in an .mp4, variable frame rate), the Simulator's (HEVC in a .mov at
/// 120 Hz, the screen inside its window), and a 30 fps capture saved as a GIF at 3 cs a frame.
/// Each is written and read back through FFmpeg's libraries and Flipbook's own readers.
@Suite("A fit reads the recordings people have")
struct RecordingKindsTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case deviceMP4, simulatorMOV, gifAtWrongDelays
        var testDescription: String { rawValue }
    }

    /// The value the recordings are made with, where in the storyboard they start, and how
    /// long they last: the expansion and the next screen's arrival, not its hold.
    static let duration = 0.55
    static let start = 0.16
    static let length = 1.2

    /// A recording of expanding-view's `bottom` with `expand.duration` at `duration`, as `kind`,
    /// from `start` seconds into the storyboard (before it: its first picture, still) for `length`.
    static func recording(_ kind: Kind, start: Double = start, length: Double = length) throws -> FrameSequence {
        let t = try Transition("expanding-view", storyboard: "bottom", set: ["expand.duration=\(duration)"])
        let folder = temporaryFolder("recording\(kind.rawValue)\(start)")
        switch kind {
        case .deviceMP4, .simulatorMOV:
            // A capture stamps only the refreshes that changed the picture, each at its own time.
            let hertz = kind == .deviceMP4 ? 60.0 : 120.0
            let path = folder + (kind == .deviceMP4 ? "/device.mp4" : "/simulator.mov")
            var options = MP4Options()
            options.codec = kind == .deviceMP4 ? .h264 : .hevc
            options.preset = "ultrafast"
            options.crf = 18
            options.variableTimescale = 600
            func picture(_ b: Bitmap) -> Bitmap {
                kind == .simulatorMOV ? ScreenFinderTests.inWindow(b, x: 50, y: 60, screenWidth: 320) : b
            }
            let first = picture(t.frame(at: max(0, start)).bitmap)
            let video = try MP4Encoder(
                path: path, width: first.width, height: first.height, fps: hertz, options: options)
            var previous: Bitmap?
            let refreshes = Int((length * hertz).rounded())
            let times = (0..<refreshes).map { start + Double($0) / hertz }
            var k = 0
            try t.forEachFrame(at: times.map { max(0, $0) }) { frame in
                defer { k += 1 }
                guard frame.bitmap != previous else { return }
                previous = frame.bitmap
                try video.add(picture(frame.bitmap), at: times[k] - start)
            }
            _ = try video.finish(at: Double(refreshes) / hertz)
            return try FrameSequence.load(path)
        case .gifAtWrongDelays:
            let path = folder + "/capture.gif"
            let times = (0..<Int((length * 30).rounded())).map { start + Double($0) / 30 }
            let first = t.frame(at: max(0, start)).bitmap
            let gif = try GIFEncoder(path: path, width: first.width, height: first.height)
            // Each frame stored 3 cs after the one before: the file plays 11 % fast.
            var k = 0
            try t.forEachFrame(at: times.map { max(0, $0) }) {
                try gif.add($0.bitmap, at: Double(k) * 0.03)
                k += 1
            }
            _ = try gif.finish(at: Double(times.count) * 0.03)
            return try FrameSequence.load(path)
        }
    }

    @Test(
        "Each kind with a lead-in of 0.3 s or 1.7 s, or cut 0.2 s into the motion: fit finds the value and where it starts; score at the true value is within 1.5 px RMS and beats the default",
        arguments: Kind.allCases, [(0.4, 0.96), (-1.0, 2.36), (0.9, 0.46)])
    func leadIns(kind: Kind, cut: (start: Double, length: Double)) throws {
        // The expansion starts at 0.7 s (the rest hold), so 0.4 leaves 0.3 s of still lead-in.
        let (start, length) = cut
        let recording = try Self.recording(kind, start: start, length: length)
        // The GIF's real frame interval, as its warning gives it.
        let interval = kind == .gifAtWrongDelays ? 1.0 / 30 : nil
        var fit = FitRequest(scene: "expanding-view", storyboard: "bottom", keys: ["expand.duration"])
        fit.frameInterval = interval
        let result = try Fitter.fit(fit, recording: recording)
        let value = try #require(result.values.first)
        #expect(abs(value.after - Self.duration) <= Self.duration * 0.03, "\(start): \(value.after)")
        #expect(value.determined.contains(Self.duration), "\(start): \(value.determined)")
        #expect(abs(result.offsetAfter - start) < 0.02, "\(start): \(result.offsetAfter)")
        // The circle's top while it expands (0.7 to 1.2 s into the storyboard, in the
        // recording's seconds), followed in the recording and the render: in the recording's
        // pixels, so in the Simulator's window below its title bar.
        let (x, y) = kind == .simulatorMOV ? (210, 563) : (160, 503)
        let circle = RecordingFeature(
            name: "circle top",
            kind: .extent(start: (x, y), to: 0, axis: .y, colour: .at(x: x, y: y, t: 0), until: false),
            during: max(0, 0.7 - start)...(1.2 - start))
        var request = ScoreRequest(scene: "expanding-view", features: [circle])
        request.storyboard = "bottom"
        request.frameInterval = interval
        request.assignments = ["expand.duration=\(Self.duration)"]
        let truth = try Scorer.score(request, recording: recording)
        request.assignments = []
        let defaults = try Scorer.score(request, recording: recording)
        #expect(abs(truth.start - start) < 1.0 / 60 && truth.foundStart, "\(kind) \(start): \(truth.start)")
        #expect(
            truth.features[0].rms <= 1.5 && truth.features[0].rms < defaults.features[0].rms,
            "\(start): \(truth.features[0].rms) against \(defaults.features[0].rms)")
    }

    @Test(
        "Each kind is fitted to within 3 %, its range holding the truth, the whole motion compared",
        arguments: Kind.allCases)
    func fits(kind: Kind) throws {
        let recording = try Self.recording(kind)
        var request = FitRequest(scene: "expanding-view", storyboard: "bottom", keys: ["expand.duration"])
        switch kind {
        case .deviceMP4, .simulatorMOV:
            // Still stretches are one long frame each: fewer frames than refreshes.
            let hertz = kind == .deviceMP4 ? 60.0 : 120.0
            #expect(Double(recording.frames.count) < (recording.duration * hertz).rounded() * 0.8)
            #expect(CaptureRate.suspected(in: recording) == nil)
        case .gifAtWrongDelays:
            // Told nothing, the fit would find a duration 11 % short: the suspicion names the real interval.
            let suspected = try #require(CaptureRate.suspected(in: recording))
            #expect(suspected.likely == 1.0 / 30 && abs(suspected.playsFast - 0.111) < 0.001)
            request.frameInterval = suspected.likely
        }
        let result = try Fitter.fit(request, recording: recording)
        let value = try #require(result.values.first)
        #expect(abs(value.after - Self.duration) <= Self.duration * 0.03, "\(kind): \(value.after)")
        #expect(value.determined.contains(Self.duration), "\(kind): \(value.determined)")
        #expect(!value.isWeak)
        #expect(result.motionInstants > 10 && result.comparedInstants == result.motionInstants)
        #expect(result.residuals[0].rmsAfter <= result.residuals[0].rmsBefore)
        if kind == .simulatorMOV {
            let screen = try #require(result.foundScreen, "the window's screen is found")
            #expect(abs(screen.x - 50) <= 1 && abs(screen.y - 60) <= 1 && abs(screen.width - 320) <= 1, "\(screen)")
        } else {
            #expect(result.foundScreen == nil)
        }
    }
}
