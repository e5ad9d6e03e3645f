import ArgumentParser
import Flipbook

/// The encoders' options, shared by every command that writes a GIF, a WebP or an MP4.
struct GIFOptionGroup: ParsableArguments {
    @Option(help: ExportOption.loop.argumentHelp)
    var loop: LoopCount = .forever

    @Option(help: ExportOption.quality.argumentHelp)
    var quality: Int?

    @Option(help: ExportOption.dither.argumentHelp)
    var dither: Double?

    @Option(help: ExportOption.colors.argumentHelp)
    var colors: Int = 256

    @Option(help: ExportOption.quantizerSpeed.argumentHelp)
    var quantizerSpeed: Int?

    @Option(help: ExportOption.paletteSteps.argumentHelp)
    var paletteSteps: Int?

    @Option(help: ExportOption.lossy.argumentHelp)
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

extension ExportOption {
    /// The option's help as the export options' table gives it (`ExportOption.table`).
    var argumentHelp: ArgumentHelp {
        guard let row else { return ArgumentHelp() }
        return ArgumentHelp(row.help, valueName: row.valueName)
    }
}
