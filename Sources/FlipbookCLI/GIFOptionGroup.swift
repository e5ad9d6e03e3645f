import ArgumentParser
import Flipbook

/// The encoders' options, shared by every command that writes a GIF, a WebP or an MP4.
struct GIFOptionGroup: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How many times the GIF plays: forever (or 0), or a count, 1 playing it once.", valueName: "forever|N"))
    var loop: LoopCount = .forever

    @Option(
        help: ArgumentHelp(
            "Quality, 1...100. GIF: libimagequant's palette target (default 100: libimagequant + giflib's quality at a smaller size; 40 is about 25% smaller than ffmpeg's two-pass palette and still sharper). WebP: lossy at this quality (default: lossless). MP4: x264's CRF 51·(1 − N/100), so 55 is its default CRF 23 and 80 is CRF 10, near lossless and several times the size.",
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
        try presenting { try encoding.check() }
    }

    /// The settings these flags give.
    var encoding: EncodingOptions {
        var e = EncodingOptions()
        e.loop = loop
        e.quality = quality
        e.dither = dither
        e.colors = colors
        e.quantizerSpeed = quantizerSpeed
        e.paletteSteps = paletteSteps
        e.lossy = lossy
        return e
    }
}

extension LoopCount: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension FrameRange: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }

    /// For `@Option(transform:)`: a bad value's error says what was expected.
    static func parse(_ text: String) throws -> FrameRange {
        guard let range = FrameRange(text) else { throw ValidationError(FrameRange.expected) }
        return range
    }
}

extension ByteSize: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }

    /// For `@Option(transform:)`: a bad value's error says what was expected.
    static func parse(_ text: String) throws -> ByteSize {
        guard let size = ByteSize(text) else { throw ValidationError(ByteSize.expected) }
        return size
    }
}
