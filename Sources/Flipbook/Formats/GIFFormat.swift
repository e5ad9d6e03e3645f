import Codecs

extension AnimationFormat {
    /// GIF: libimagequant's palettes and giflib's LZW, every option of `EncodingOptions`.
    public static let gif = AnimationFormat(
        name: "gif", label: "GIF", noun: "a GIF", extensions: [".gif"], mediaType: "image/gif", summary: nil,
        frameRates: nil, mergesIdenticalFrames: true,
        encodeCost: { _ in (0.004, 0.025) },
        checkOptions: { _ in },
        frameRateNote: { fps in
            fps > 50
                ? "\(fps.plainText) fps asks for GIF delays under 2 cs; frames are dropped to keep 2 cs and the exact duration"
                : nil
        },
        budgetQualities: { quality in
            var rungs: [(Int?, Int)] = [100, 95, 90, 85, 80, 70, 60, 50, 40, 30, 25].filter { $0 <= (quality ?? 100) }
                .map { ($0, 0) }
            // Then lossy LZW, with dithering off, at the lowest quality.
            let last = rungs.last?.0 ?? quality ?? 25
            rungs += [8, 16, 32].map { (last, $0) }
            return rungs
        },
        budgetGuess: nil,
        open: { path, width, height, _, encoding in
            let encoder = try GIFEncoder(path: path, width: width, height: height, options: encoding.gif)
            return AnimationWriter(add: encoder.add) { end, inputFrames in
                let s = try encoder.finish(at: end)
                return AnimatedOutput.Written(
                    line: AnimatedOutput.describe(s, inputFrames: inputFrames), bytes: s.bytes, gif: s)
            }
        })
}
