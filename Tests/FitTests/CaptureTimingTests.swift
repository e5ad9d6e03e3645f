import Flipbook
import Foundation
import TestSupport
import Testing

@testable import Fit

/// A render's own recordings at the rates people capture at, as Flipbook writes them: a GIF
/// rounds each frame's time to the centisecond (and at 60 fps drops frames to keep 2 cs), a
/// folder of frames has no times of its own. The fit must find the duration they were made
/// with, from the capture's own grid of times, not the rounded ones.
@Suite("fit reads a capture's times as the capture had them")
struct CaptureTimingTests {
    /// expanding-view's open at 0.55 s, exported by the library to `name` at `fps`.
    static func export(fps: Double, to name: String) throws -> String {
        let path = (temporaryFolder("capture-\(fps)") as NSString).appendingPathComponent(name)
        var request = ExportRequest(scene: "expanding-view")
        request.assignments = ["expand.duration=0.55"]
        request.fps = fps
        request.output = path
        _ = try request.run()
        return path
    }

    @Test(
        "expand.duration 0.55 within 2 % from a GIF at 30 and 60 fps and a folder at 60, with and without the interval",
        arguments: [(30.0, "ev.gif", nil), (60, "ev.gif", nil), (60, "ev.gif", 1.0 / 60), (60, "frames/", 1.0 / 60)])
    func duration(fps: Double, name: String, interval: Double?) throws {
        let path = try Self.export(fps: fps, to: name)
        let recording = try FrameSequence.load(path)
        let request = FitRequest(scene: "expanding-view", keys: ["expand.duration"], frameInterval: interval)
        let result = try Fitter.fit(request, recording: recording)
        let value = try #require(result.values.first)
        #expect(abs(value.after - 0.55) <= 0.55 * 0.02, "\(value.after)")
        #expect(value.determined.contains(0.55), "\(value.determined)")
    }

    @Test("The capture's step: 3, 3, 4 cs is 1/30 s; 2, 3, 2, 3 cs is 1/60 s; 3 cs throughout stays 0.03 s")
    func steps() {
        func starts(_ cs: [Int]) -> [Double] { cs.map { Double($0) / 100 } }
        #expect(abs(CaptureRate.step(starts: starts([0, 3, 7, 10, 13, 17, 20]), median: 0.03) - 1.0 / 30) < 1e-9)
        #expect(
            abs(CaptureRate.step(starts: starts([0, 2, 5, 7, 10, 12, 15, 17, 20]), median: 0.02) - 1.0 / 60) < 1e-9)
        #expect(CaptureRate.step(starts: starts([0, 3, 6, 9, 12, 15, 18]), median: 0.03) == 0.03)
    }

    @Test(
        "Each frame's capture time: a 30 fps GIF's 3, 3, 4 cs are thirds of a tenth; times on their grid already, and times on none, are kept"
    )
    func captureTimes() {
        func starts(_ cs: [Int]) -> [Double] { cs.map { Double($0) / 100 } }
        let captured = CaptureRate.captureTimes(starts: starts([0, 3, 7, 10, 13, 17, 20, 43]))
        let thirds: [Double] = [0, 1, 2, 3, 4, 5, 6, 13].map { (n: Double) -> Double in n / 30 }
        #expect(zip(captured, thirds).allSatisfy { abs($0 - $1) < 1e-9 } && captured.count == 8, "\(captured)")
        // 25 fps: 4 cs each, as stored, to the bit.
        let quarters = starts([0, 4, 8, 12, 16, 40])
        #expect(CaptureRate.captureTimes(starts: quarters) == quarters)
        // A screen recording's own times, on no rate's grid, as stored.
        let uneven = [0, 0.0085, 0.05, 0.1, 0.15]
        #expect(CaptureRate.captureTimes(starts: uneven) == uneven)
    }
}
