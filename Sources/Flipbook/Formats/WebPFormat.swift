import Codecs
import Foundation

extension AnimationFormat {
    /// Animated WebP through libwebp: lossless, or lossy at a `quality`.
    public static let webp = AnimationFormat(
        name: "webp", label: "WebP", noun: "a WebP", extensions: [".webp"], mediaType: "image/webp",
        summary: "animated WebP", frameRates: nil, mergesIdenticalFrames: true,
        encodeCost: { lossy in (0.004, lossy ? 4 : 0.8) },
        checkOptions: { options in
            if let option = options.gifOnlyOption {
                throw ExportError.invalid(
                    option,
                    "\(option): a GIF setting; a WebP takes \(.quality) (lossy; lossless without it) and \(.loop)")
            }
            // WebP's loop count is 16 bits.
            if case .plays(let n) = options.loop, n > 65535 {
                throw ExportError.refused(.loop, "\(n)", "a WebP plays at most 65535 times (or forever)")
            }
        },
        frameRateNote: { _ in nil },
        budgetQualities: { quality in
            (quality == nil ? [(nil, 0)] : [])
                + [95, 90, 85, 80, 75, 70, 60, 50, 40, 30].filter { $0 <= (quality ?? 100) }.map { ($0, 0) }
        },
        // A lossy WebP at quality 90 is far smaller than a lossless one: where most budgets land.
        budgetGuess: 90,
        open: { path, width, height, _, encoding in
            let encoder = try WebPEncoder(path: path, width: width, height: height, options: encoding.webp)
            return AnimationWriter(add: encoder.add) { end, inputFrames in
                let s = try encoder.finish(at: end)
                let kind = encoding.quality.map { "lossy at quality \($0)" } ?? "lossless"
                let merged = inputFrames - s.frames
                return AnimatedOutput.Written(
                    line:
                        "wrote \(path): \(ByteSize.text(s.bytes)), \(s.frames) frames from \(inputFrames)\(merged > 0 ? " (\(merged) identical merged)" : ""), \(String(format: "%.2f", Double(s.milliseconds) / 1000)) s, \(kind)",
                    bytes: s.bytes, gif: nil)
            }
        })
}
