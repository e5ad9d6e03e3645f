import Codecs
import Geometry
import Video

/// The encoders' settings an export request carries: GIF's palette and LZW, WebP's quality,
/// MP4's quality, and the loop count. Unset ones follow `quality`'s preset.
public struct EncodingOptions: Sendable, Hashable {
    public var loop: LoopCount = .forever
    /// 1...100. GIF: libimagequant's palette target (default 100). WebP: lossy at this quality
    /// (default: lossless). MP4: x264's CRF = 51·(1 − quality/100) (default CRF 23).
    public var quality: Int?
    /// GIF dithering, 0...1.
    public var dither: Double?
    /// GIF palette colours per frame, 2...256.
    public var colors = 256
    /// libimagequant's speed, 1...10.
    public var quantizerSpeed: Int?
    /// K-means steps that fit each GIF frame's palette, 0...100.
    public var paletteSteps: Int?
    /// GIF lossy LZW, 0 (off) to 64; needs dithering 0.
    public var lossy = 0

    public init() {}

    /// Refuses a value out of its range, naming it.
    public func check() throws {
        if let quality, !GIFOptions.validQuality.contains(quality) {
            throw ExportError.refused(.quality, "\(quality)", "expected \(GIFOptions.validQuality)")
        }
        if let dither, !GIFOptions.validDithering.contains(dither) {
            throw ExportError.refused(.dither, "\(dither)", "expected a number in 0...1")
        }
        guard GIFOptions.validColors.contains(colors) else {
            throw ExportError.refused(.colors, "\(colors)", "expected \(GIFOptions.validColors)")
        }
        guard GIFOptions.validLossy.contains(lossy) else {
            throw ExportError.refused(.lossy, "\(lossy)", "expected \(GIFOptions.validLossy)")
        }
        if lossy > 0, let dither, dither > 0 {
            throw ExportError.invalid(
                .lossy, value: "\(lossy)", "\(.lossy) \(lossy) needs \(.dither) 0 (got \(dither))")
        }
        if let quantizerSpeed, !GIFOptions.validSpeed.contains(quantizerSpeed) {
            throw ExportError.refused(.quantizerSpeed, "\(quantizerSpeed)", "expected \(GIFOptions.validSpeed)")
        }
        if let paletteSteps, !GIFOptions.validRefineSteps.contains(paletteSteps) {
            throw ExportError.refused(.paletteSteps, "\(paletteSteps)", "expected \(GIFOptions.validRefineSteps)")
        }
    }

    /// Refuses, before any work, a setting that `format` would not use or could not hold,
    /// naming it: every setting a request gives does something.
    public func check(for format: ExportFormat) throws {
        switch format {
        case .animation(let animation):
            try animation.checkOptions(self)
        case .still, .sequence:
            if let option = gifOnlyOption ?? (quality != nil ? .quality : nil) ?? (loop != .forever ? .loop : nil) {
                throw ExportError.invalid(option, "\(option): PNG frames are exact and play once; leave \(option) out")
            }
        }
    }

    /// The first setting given that only a GIF has.
    var gifOnlyOption: ExportOption? {
        if dither != nil { return .dither }
        if colors != 256 { return .colors }
        if quantizerSpeed != nil { return .quantizerSpeed }
        if paletteSteps != nil { return .paletteSteps }
        if lossy != 0 { return .lossy }
        return nil
    }

    /// The GIF encoder's options.
    public var gif: GIFOptions {
        var o = GIFQualityPreset.options(quality: quality ?? GIFQualityPreset.defaultQuality)
        if case .plays(let n) = loop { o.plays = n }
        if let dither { o.dithering = dither }
        if let quantizerSpeed { o.speed = quantizerSpeed }
        if let paletteSteps { o.refineSteps = paletteSteps }
        o.colors = colors
        o.lossy = lossy
        return o
    }

    /// The WebP encoder's options: lossless unless a quality is given.
    public var webp: WebPOptions {
        var o = WebPOptions()
        o.quality = quality
        if case .plays(let n) = loop { o.plays = n }
        return o
    }

    /// The MP4 encoder's options.
    public var mp4: MP4Options {
        var o = MP4Options()
        if let quality { o.crf = MP4Options.crf(quality: quality) }
        return o
    }
}
