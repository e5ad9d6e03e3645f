import Codecs
import Flipbook
import FlipbookTesting
import Foundation
import Raster
import Render
import Testing

/// Golden-image checks, swift-snapshot-testing style. `FLIPBOOK_RECORD` sets the record mode:
/// `never` (CI, always), `missing` (the default elsewhere: records only goldens that do not
/// exist yet), `failed` (re-records the ones that differ), `all`. A failure writes actual,
/// expected, diff and side-by-side PNGs and names their paths.
enum Golden {
    /// The users' record modes, read from the environment the same way.
    static var mode: RecordMode { .fromEnvironment }

    /// The Goldens folder in the source tree (so recording updates what is committed).
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
        .path

    /// Compares `actual` with the golden `name`.png; records per the mode.
    static func check(
        _ actual: Bitmap, named name: String, tolerance: Tolerance = .exact,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = "\(folder)/\(name).png"
        let exists = FileManager.default.fileExists(atPath: path)
        if mode == .all || (!exists && mode != .never) {
            try PNGCodec.write(actual, to: path)
            Issue.record("recorded golden \(path): look at it, then commit it", sourceLocation: sourceLocation)
            return
        }
        guard exists else {
            Issue.record(
                "no golden \(path) (FLIPBOOK_RECORD=missing records it; CI never records)",
                sourceLocation: sourceLocation)
            return
        }
        let expected = try PNGCodec.read(path: path)
        let difference = FrameComparison.compare(actual, expected, tolerance: tolerance)
        if difference.passes { return }
        if mode == .failed {
            try PNGCodec.write(actual, to: path)
            Issue.record("re-recorded golden \(path): look at it, then commit it", sourceLocation: sourceLocation)
            return
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-golden-failures").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FailureArtifacts.write(actual: actual, expected: expected, tolerance: tolerance, to: "\(out)/\(name)")
        let worst = difference.worstPixel.map { "(\($0.x), \($0.y))" } ?? "-"
        Issue.record(
            """
            \(name) differs from its golden: \(difference.differingPixels) pixels \
            (\(String(format: "%.4f", difference.differingFraction * 100))%), largest channel difference \(difference.maxChannelDelta) at \(worst)\
            \(difference.sizeMismatch ? ", and the sizes differ" : ""). Wrote \(out)/\(name).{actual,expected,diff,sheet}.png
            """, sourceLocation: sourceLocation)
    }
}
