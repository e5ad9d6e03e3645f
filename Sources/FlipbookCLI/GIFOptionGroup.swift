import ArgumentParser
import Codecs

/// How many times a GIF plays.
enum LoopCount: ExpressibleByArgument, Equatable {
    case forever
    case plays(Int)

    init?(argument: String) {
        if argument == "forever" || argument == "0" {
            self = .forever
        } else if let n = Int(argument), GIFOptions.validPlays.contains(n) {
            self = .plays(n)
        } else {
            return nil
        }
    }

    static var defaultValueDescription: String { "forever" }
}

/// The encoders' options, shared by every command that writes a GIF or a WebP.
struct GIFOptionGroup: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How many times the GIF plays: forever (or 0), or a count, 1 playing it once.", valueName: "forever|N"))
    var loop: LoopCount = .forever

    @Option(
        help: ArgumentHelp(
            "Quality, 1...100. GIF: libimagequant's palette target (default 100: libimagequant + giflib's quality at a smaller size; 40 is about 25% smaller than ffmpeg's two-pass palette and still sharper). WebP: lossy at this quality (default: lossless).",
            valueName: "1...100"))
    var quality: Int?

    @Option(
        help: ArgumentHelp(
            "Dithering, 0 (none, flat colours) to 1 (full Floyd–Steinberg). Default: set by --quality.",
            valueName: "0...1"))
    var dither: Double?

    @Option(help: ArgumentHelp("Palette colours per frame, 2...256.", valueName: "2...256"))
    var colors: Int = 256

    @Option(
        help: ArgumentHelp(
            "libimagequant's speed, 1 (slow, best palettes) to 10 (fast). Default: set by --quality.",
            valueName: "1...10"))
    var quantizerSpeed: Int?

    @Option(
        help: ArgumentHelp(
            "K-means steps that fit each frame's palette to all its changed pixels, 0 (libimagequant's palette as is) to 100: sharper, a little slower. Default: set by --quality.",
            valueName: "0...100"))
    var paletteSteps: Int?

    @Option(
        help: ArgumentHelp(
            "Lossy LZW, 0 (off) to 64: a changed pixel may be written up to this many RGB levels from its source when that makes the LZW data shorter. Needs --dither 0.",
            valueName: "0...64"))
    var lossy: Int = 0

    func validate() throws {
        if let quality, !GIFOptions.validQuality.contains(quality) {
            throw ValidationError("--quality \(quality): expected \(GIFOptions.validQuality)")
        }
        if let dither, !GIFOptions.validDithering.contains(dither) {
            throw ValidationError("--dither \(dither): expected a number in 0...1")
        }
        guard GIFOptions.validColors.contains(colors) else {
            throw ValidationError("--colors \(colors): expected \(GIFOptions.validColors)")
        }
        guard GIFOptions.validLossy.contains(lossy) else {
            throw ValidationError("--lossy \(lossy): expected \(GIFOptions.validLossy)")
        }
        if lossy > 0, let dither, dither > 0 {
            throw ValidationError("--lossy \(lossy) needs --dither 0 (got \(dither))")
        }
        if let quantizerSpeed, !GIFOptions.validSpeed.contains(quantizerSpeed) {
            throw ValidationError("--quantizer-speed \(quantizerSpeed): expected \(GIFOptions.validSpeed)")
        }
        if let paletteSteps, !GIFOptions.validRefineSteps.contains(paletteSteps) {
            throw ValidationError("--palette-steps \(paletteSteps): expected \(GIFOptions.validRefineSteps)")
        }
    }

    /// The encoder options these flags describe.
    var options: GIFOptions {
        var o = GIFQualityPreset.options(quality: quality ?? GIFQualityPreset.defaultQuality)
        if case .plays(let n) = loop { o.plays = n }
        if let dither { o.dithering = dither }
        if let quantizerSpeed { o.speed = quantizerSpeed }
        if let paletteSteps { o.refineSteps = paletteSteps }
        o.colors = colors
        o.lossy = lossy
        return o
    }

    /// The first option given that only a GIF has, for refusing it with a WebP.
    /// What an output is, for the options it takes.
    enum OutputKind { case gif, webp, mp4, png }

    /// Refuses, before any work, an option that `kind` of output would not use or could not
    /// hold, naming it: every option a command is given does something.
    func check(_ kind: OutputKind) throws {
        switch kind {
        case .gif:
            break
        case .webp:
            if let option = gifOnlyOption {
                throw ValidationError(
                    "\(option): a GIF setting; a WebP takes --quality (lossy; lossless without it) and --loop")
            }
            // WebP's loop count is 16 bits.
            if case .plays(let n) = loop, n > 65535 {
                throw ValidationError("--loop \(n): a WebP plays at most 65535 times (or forever)")
            }
        case .mp4:
            if let option = gifOnlyOption {
                throw ValidationError(
                    "\(option): a GIF setting; an MP4 takes --quality (x264's CRF = 51·(1 − quality/100); default CRF 23)"
                )
            }
            if case .plays = loop {
                throw ValidationError("--loop: an MP4 has no loop count (players loop it or not); leave --loop out")
            }
        case .png:
            if let option = gifOnlyOption ?? (quality != nil ? "--quality" : nil) ?? (loop != .forever ? "--loop" : nil)
            {
                throw ValidationError("\(option): PNG frames are exact and play once; leave \(option) out")
            }
        }
    }

    var gifOnlyOption: String? {
        if dither != nil { return "--dither" }
        if colors != 256 { return "--colors" }
        if quantizerSpeed != nil { return "--quantizer-speed" }
        if paletteSteps != nil { return "--palette-steps" }
        if lossy != 0 { return "--lossy" }
        return nil
    }

    /// The WebP encoder options these flags describe: lossless unless --quality is given.
    var webpOptions: WebPOptions {
        var o = WebPOptions()
        o.quality = quality
        if case .plays(let n) = loop { o.plays = n }
        return o
    }
}
