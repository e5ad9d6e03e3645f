/// An option of an export request, by the name `flipbook render` and a build manifest give it.
/// Errors and reports name options by this, and whoever presents them spells it: the CLI as a
/// flag (`--max-size`), a manifest or the studio as a key (`max-size`).
public enum ExportOption: String, Sendable, CaseIterable {
    case scene, storyboard, config
    case set
    case fps, scale, width
    case time, speed, frames
    case output, sheet, stats, overwrite, threads
    case dryRun = "dry-run"
    case maxSize = "max-size"
    case loop, quality, dither, colors
    case quantizerSpeed = "quantizer-speed"
    case paletteSteps = "palette-steps"
    case lossy

    /// Its name as a key: `max-size`, `output`.
    public var name: String { rawValue }

    /// Its flag on `flipbook render`'s command line: `--max-size`, `-o`.
    public var flag: String { self == .output ? "-o" : "--\(name)" }
}

/// Text that names export options, spelled when it is shown: `"\(.time) 3: expected …"`.
public struct ExportText: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public enum Piece: Sendable, Equatable {
        case text(String)
        case option(ExportOption)
    }

    public var pieces: [Piece]

    public init(stringLiteral value: String) { pieces = [.text(value)] }

    public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { pieces.append(.text(literal)) }
        public mutating func appendInterpolation(_ option: ExportOption) { pieces.append(.option(option)) }
        public mutating func appendInterpolation(_ text: ExportText) { pieces += text.pieces }
        public mutating func appendInterpolation<T>(_ value: T) { pieces.append(.text(String(describing: value))) }
    }

    /// The text with each option spelled by `spell`.
    public func spelled(_ spell: (ExportOption) -> String) -> String {
        pieces.map {
            switch $0 {
            case .text(let text): text
            case .option(let option): spell(option)
            }
        }.joined()
    }

    public static func + (a: ExportText, b: ExportText) -> ExportText {
        var joined = a
        joined.pieces += b.pieces
        return joined
    }

    /// The text with options spelled as keys.
    public var description: String { spelled(\.name) }
}

/// Why an export was refused or failed: the option at fault (with its value, as given) and
/// what is wrong, in text that names options for the presenter to spell.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The request asks for something it cannot have: a bad value, or options that
        /// contradict each other or the scene. Nothing was written.
        case invalid
        /// The work could not be done as asked (a folder missing, no budget setting fits).
        case failed
    }

    public var kind: Kind
    /// The option at fault, if one is.
    public var option: ExportOption?
    /// Its value as given.
    public var value: String?
    public var message: ExportText

    public init(_ kind: Kind, _ option: ExportOption?, value: String? = nil, _ message: ExportText) {
        self.kind = kind
        self.option = option
        self.value = value
        self.message = message
    }

    static func invalid(_ option: ExportOption?, value: String? = nil, _ message: ExportText) -> ExportError {
        ExportError(.invalid, option, value: value, message)
    }

    static func failed(_ option: ExportOption?, value: String? = nil, _ message: ExportText) -> ExportError {
        ExportError(.failed, option, value: value, message)
    }

    /// The request's `value` for `option` refused: "OPTION VALUE: why".
    static func refused(_ option: ExportOption, _ value: String, _ why: ExportText) -> ExportError {
        .invalid(option, value: value, "\(option) \(value): " + why)
    }

    public var description: String { message.description }
}
