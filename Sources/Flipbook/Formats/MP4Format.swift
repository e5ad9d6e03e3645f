import Codecs
import Foundation
import Video

extension AnimationFormat {
    /// H.264 in MP4 through FFmpeg's libavcodec (x264): a `quality` sets the CRF.
    public static let mp4 = AnimationFormat(
        name: "mp4", label: "MP4", noun: "an MP4", extensions: [".mp4"], mediaType: "video/mp4", summary: "H.264",
        frameRates: 1...120, mergesIdenticalFrames: false,
        encodeCost: { _ in (0.002, 0.012) },
        checkOptions: { options in
            if let option = options.gifOnlyOption {
                throw ExportError.invalid(
                    option,
                    "\(option): a GIF setting; an MP4 takes \(.quality) (x264's CRF = 51·(1 − quality/100); default CRF 23)"
                )
            }
            if case .plays = options.loop {
                throw ExportError.invalid(
                    .loop, "\(.loop): an MP4 has no loop count (players loop it or not); leave \(.loop) out")
            }
        },
        frameRateNote: { _ in nil },
        // x264's CRF 18, 20, 23 (its default), 26, 29, 32, 35 and 38.
        budgetQualities: { quality in [65, 61, 55, 49, 43, 37, 31, 25].filter { $0 <= (quality ?? 65) }.map { ($0, 0) }
        },
        budgetGuess: nil,
        open: { path, width, height, fps, encoding in
            let mp4 = encoding.mp4
            let encoder = try MP4Encoder(path: path, width: width, height: height, fps: fps, options: mp4)
            return AnimationWriter(add: encoder.add) { end, _ in
                let s = try encoder.finish(at: end)
                return AnimatedOutput.Written(
                    line:
                        "wrote \(path): \(ByteSize.text(s.bytes)), \(s.frames) frames, \(String(format: "%.2f", s.seconds)) s, H.264, CRF \(mp4.crf)",
                    bytes: s.bytes, gif: nil)
            }
        })
}
