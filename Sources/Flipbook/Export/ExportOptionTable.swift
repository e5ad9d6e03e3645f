import Codecs

/// The front ends that offer an export option: `flipbook render`'s flags, a build manifest's
/// keys, and the studio's export (its API, and a control on its page where the row has a label).
public struct ExportFrontEnds: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let render = ExportFrontEnds(rawValue: 1)
    public static let manifest = ExportFrontEnds(rawValue: 2)
    public static let studio = ExportFrontEnds(rawValue: 4)
}

/// The part of an export an option sets, by which a front end groups its options: the scene as
/// it is prepared (what `flipbook plan` takes too), the run and its output, or the encoder.
public enum ExportOptionPart: Sendable, Hashable {
    case scene, run, encoder
}

/// One row of the export options' table, as FFmpeg's `AVOption` rows are: what every front end
/// says and offers of an option. Where a value lands in the request is `ExportRequest.set`.
public struct ExportOptionRow: Sendable {
    public let option: ExportOption
    /// The value's name in help (`fps`, `1|2|3`); nil for a flag.
    public let valueName: String?
    /// The command line's help: the whole story.
    public let help: String
    /// One line: a manifest key's reference, the studio control's tooltip.
    public let summary: String
    public let offered: ExportFrontEnds
    public let part: ExportOptionPart
    /// Whether it may be given more than once, each value adding to the others (`set`).
    public let isRepeatable: Bool
    /// The numbers it takes, for a numeric option, and whether only whole ones.
    public let range: ClosedRange<Double>?
    public let isInteger: Bool
    /// The studio's control: its label and what it shows empty; nil where the page has none.
    public let control: (label: String, placeholder: String)?

    init(
        _ option: ExportOption, _ valueName: String?, help: String, summary: String? = nil,
        offered: ExportFrontEnds = [.render, .manifest], range: ClosedRange<Double>? = nil, isInteger: Bool = false,
        control: (label: String, placeholder: String)? = nil, part: ExportOptionPart = .run, isRepeatable: Bool = false
    ) {
        (self.option, self.valueName, self.help, self.summary) = (option, valueName, help, summary ?? help)
        (self.offered, self.part, self.isRepeatable) = (offered, part, isRepeatable)
        (self.range, self.isInteger, self.control) = (range, isInteger, control)
    }
}

extension ExportOption {
    /// The table: a row an option that a front end offers, in the order references and help list them.
    public static let table: [ExportOptionRow] = [
        ExportOptionRow(
            .config, "file.yaml", help: "A YAML config over the scene's defaults (see `flipbook config SCENE`).",
            offered: .render, part: .scene),
        ExportOptionRow(
            .storyboard, "name", help: "Which storyboard to play (see `flipbook list`).", offered: .render, part: .scene
        ),
        ExportOptionRow(
            .fps, "fps", help: "Frames per second, 1...120.", offered: [.render, .manifest, .studio], range: 1...120,
            control: ("fps", "scene's"), part: .scene),
        ExportOptionRow(
            .scale, "1|2|3", help: "Output pixels per point: 1, 2 or 3.", range: 1...3, isInteger: true, part: .scene),
        ExportOptionRow(
            .width, "px",
            help:
                "Output width in pixels, instead of --scale (height follows the canvas; snapshots are sampled at that size).",
            summary: "Output width in pixels, instead of scale.", offered: [.render, .manifest, .studio],
            range: 16...8192, isInteger: true, control: ("width", "as shown"), part: .scene),
        ExportOptionRow(
            .set, "key.path=value",
            help:
                "Any config key, e.g. --set assets.list=mine.png --set layout.tappedRow=[0,99,375,70] (repeatable; wins over --config).",
            offered: .render, part: .scene, isRepeatable: true),
        ExportOptionRow(
            .output, "path",
            help: "\(AnimationFormat.examples), out.png (with --time), or a folder/ for PNG frames.", offered: .render),
        ExportOptionRow(
            .dryRun, nil,
            help:
                "Render every frame and write nothing: checks a config, and with --stats times planning and raster alone.",
            offered: .render),
        ExportOptionRow(
            .time, "seconds", help: "For a PNG still: the moment to render, in seconds.",
            summary: "The .png is a still at this moment, in seconds."),
        ExportOptionRow(
            .speed, "factor", help: "Playback speed: 2 plays twice as fast, 0.5 in slow motion.",
            summary: "Playback speed: 2 plays twice as fast.", offered: [.render, .manifest, .studio],
            range: 0.01...100),
        ExportOptionRow(
            .frames, "A-B", help: "Only frames A through B (0-based, inclusive), or one frame N.",
            summary: "Only frames A-B (0-based, inclusive)."),
        ExportOptionRow(
            .sheet, "sheet.png", help: "Also write a contact sheet: every frame with its time.", offered: .render),
        ExportOptionRow(
            .overwrite, nil,
            help:
                "With -o folder/: remove the numbered frames of an earlier render there first (without it, they are an error).",
            offered: .render),
        ExportOptionRow(
            .threads, "N",
            help: "Render on this many threads (default: every core). The output is the same for any count.",
            offered: .render, range: 1...256, isInteger: true),
        ExportOptionRow(
            .stats, "stats.json", help: "Write where the time went (planning, raster, quantize, write) as JSON here.",
            offered: .render),
        ExportOptionRow(
            .loop, "forever|N",
            help: "How many times the GIF plays: forever (or 0), or a count, 1 playing it once.",
            summary: "How many times a GIF or WebP plays: forever or N.", offered: [.render, .manifest, .studio],
            part: .encoder),
        ExportOptionRow(
            .quality, "1...100",
            help:
                "Quality, 1...100. GIF: libimagequant's palette target (default 100: libimagequant + giflib's quality at a smaller size; 40 is about 25% smaller than ffmpeg's two-pass palette and still sharper). WebP: lossy at this quality (default: lossless). MP4: x264's CRF 51·(1 − N/100), so 55 is its default CRF 23 and 80 is CRF 10, near lossless and several times the size.",
            summary: "1...100: the GIF's palette target, a lossy WebP's quality (lossless without it), the MP4's.",
            offered: [.render, .manifest, .studio], range: bounds(GIFOptions.validQuality), isInteger: true,
            control: ("quality", "WebP, MP4"), part: .encoder),
        ExportOptionRow(
            .dither, "0...1",
            help: "Dithering, 0 (none, flat colours) to 1 (full Floyd–Steinberg). Default: set by --quality.",
            summary: "GIF dithering, 0...1.", offered: [.render, .manifest, .studio], range: GIFOptions.validDithering,
            part: .encoder),
        ExportOptionRow(
            .colors, "2...256", help: "Palette colours per frame, 2...256.",
            summary: "GIF palette colours per frame, 2...256.", offered: [.render, .manifest, .studio],
            range: bounds(GIFOptions.validColors), isInteger: true, control: ("colours", "GIF: 256"), part: .encoder),
        ExportOptionRow(
            .quantizerSpeed, "1...10",
            help: "libimagequant's speed, 1 (slow, best palettes) to 10 (fast). Default: set by --quality.",
            summary: "libimagequant's speed, 1...10.", range: bounds(GIFOptions.validSpeed), isInteger: true,
            part: .encoder),
        ExportOptionRow(
            .paletteSteps, "0...100",
            help:
                "K-means steps that fit each frame's palette to all its changed pixels, 0 (libimagequant's palette as is) to 100: sharper, a little slower. Default: set by --quality.",
            summary: "GIF palette refinement steps, 0...100.", range: bounds(GIFOptions.validRefineSteps),
            isInteger: true, part: .encoder),
        ExportOptionRow(
            .lossy, "0...64",
            help:
                "Lossy LZW, 0 (off) to 64: a changed pixel may be written up to this many RGB levels from its source when that makes the LZW data shorter. Needs --dither 0.",
            summary: "GIF lossy LZW, 0...64 (needs dither 0).", offered: [.render, .manifest, .studio],
            range: bounds(GIFOptions.validLossy), isInteger: true, part: .encoder),
        ExportOptionRow(
            .maxSize, "size",
            help:
                "For \(AnimationFormat.listed(\.noun)): the largest file to write, e.g. 5MB (GitHub's image proxy) or 10MB. Tries quality, then GIF's lossy LZW, then fewer fps, then a smaller width, by bisection, and writes the best-looking setting that fits.",
            summary: "The largest file to write, e.g. 5MB: the best-looking setting that fits.",
            offered: [.render, .manifest, .studio], control: ("at most", "e.g. 5MB")),
    ]

    /// This option's row; every option a front end offers has one.
    public var row: ExportOptionRow? { Self.table.first { $0.option == self } }

    /// The options `frontEnd` offers, in the table's order.
    public static func offered(by frontEnd: ExportFrontEnds) -> [ExportOption] {
        table.filter { $0.offered.contains(frontEnd) }.map(\.option)
    }

    /// The range as messages and help spell it: `1...120`.
    public var rangeText: String? {
        row?.range.map { "\($0.lowerBound.plainText)...\($0.upperBound.plainText)" }
    }

    private static func bounds(_ r: ClosedRange<Int>) -> ClosedRange<Double> {
        Double(r.lowerBound)...Double(r.upperBound)
    }
}
