import Foundation
import Geometry
import Scenes

/// One export: a scene, how to play it, and where and how to write it. `flipbook render`
/// parses its flags into one, the studio and `flipbook build` make one directly, and
/// ``run(_:)`` renders and writes it, to any format, within a size budget if it has one.
public struct ExportRequest: Sendable, Hashable {
    /// A built-in scene's name or a scene file's path.
    public var scene: String
    public var storyboard: String?
    /// A YAML config over the scene's defaults.
    public var config: String?
    /// Config values over the config, `key.path=value`.
    public var assignments: [String] = []
    /// Frames per second, 1...120.
    public var fps: Double?
    /// Output pixels per point, 1...3.
    public var scale: Int?
    /// Output width in pixels, instead of a scale.
    public var width: Int?
    /// For a PNG still: the moment, in seconds.
    public var time: Double?
    /// Playback speed: 2 plays twice as fast.
    public var speed: Double = 1
    /// Only these frames of the storyboard.
    public var frames: FrameRange?
    /// The file or folder to write; nil renders every frame and writes nothing (a dry run).
    public var output: String?
    /// A contact sheet to write too: about 40 frames, each with its time.
    public var sheet: String?
    /// Where the time went, as JSON.
    public var stats: String?
    /// For a folder of frames: remove an earlier render's frames there first.
    public var overwrite = false
    /// Threads to render on (default: every core); the output is the same for any count.
    public var threads: Int?
    /// The largest file to write: the best-looking setting that fits is chosen.
    public var maxSize: ByteSize?
    public var encoding = EncodingOptions()

    public init(scene: String) { self.scene = scene }

    /// The most frames one render makes: an hour at 30 fps, far past any preview.
    public static let maximumFrames = 108_000

    /// What it writes; nil for a dry run.
    public var format: ExportFormat? { output.map(ExportFormat.init(path:)) }

    /// Refuses a request that asks for something it cannot have, before any work: values out
    /// of range, and options that would do nothing for this output.
    public func check() throws {
        do { try SceneCatalog.check(scene: scene) } catch {
            throw ExportError.invalid(.scene, value: scene, "\(error)")
        }
        try Self.check(fps: fps, scale: scale, width: width)
        if let threads, !(1...256).contains(threads) {
            throw ExportError.refused(.threads, "\(threads)", "expected 1...256")
        }
        guard speed >= 0.01 && speed <= 100 else {
            throw ExportError.refused(.speed, "\(speed)", "expected a factor in 0.01...100")
        }
        try encoding.check()
        if let output, let format {
            try checkOutput(output, format)
        } else if time != nil {
            throw ExportError.invalid(.time, "\(.time): \(.dryRun) renders every frame; leave \(.time) out")
        }
        if overwrite && format != .sequence {
            throw ExportError.invalid(
                .overwrite, "\(.overwrite): only a folder of frames (\(.output) folder/) is overwritten; leave it out")
        }
        if let maxSize {
            guard format?.isAnimated == true else {
                throw ExportError.invalid(
                    .maxSize, value: maxSize.description,
                    "\(.maxSize) \(maxSize.bytes) B: fits \(AnimationFormat.listed(\.noun)); frames or a still have no size to fit"
                )
            }
            // A budget runs several encodes; these options describe one.
            if let frames {
                throw ExportError.refused(
                    .frames, "\(frames)", "\(.maxSize) fits the whole storyboard; leave \(.frames) out")
            }
            if let sheet {
                throw ExportError.refused(
                    .sheet, sheet,
                    "\(.maxSize) runs several encodes; make the sheet with a render of the setting it chose"
                )
            }
            if let stats {
                throw ExportError.refused(
                    .stats, stats,
                    "\(.maxSize) runs several encodes; time the setting it chose with a render of its own"
                )
            }
        }
    }

    /// Refuses an output path of no format, and options that would do nothing for `format`.
    func checkOutput(_ output: String, _ format: ExportFormat) throws {
        if format.isAnimated && AnimationFormat.named(by: output) == nil {
            throw ExportError.refused(
                .output, output,
                "expected \(AnimationFormat.all.map(\.example).joined(separator: ", ")), out.png with \(.time), or a folder ending in /"
            )
        }
        if format == .still {
            guard let time else {
                throw ExportError.refused(.output, output, "a PNG still needs \(.time) SECONDS")
            }
            guard time >= 0 else {
                throw ExportError.refused(.time, "\(time)", "expected seconds, 0 or more")
            }
            // An option that would do nothing in this mode is a mistake worth saying.
            if speed != 1 {
                throw ExportError.invalid(
                    .speed, "\(.speed): a PNG still is one moment (\(.time)); leave \(.speed) out")
            }
            if let frames {
                throw ExportError.refused(
                    .frames, "\(frames)", "a PNG still is one moment (\(.time)); leave \(.frames) out")
            }
            if let sheet {
                throw ExportError.refused(.sheet, sheet, "a PNG still is one frame; leave \(.sheet) out")
            }
        } else if time != nil {
            throw ExportError.invalid(
                .time,
                "\(.time): only a PNG still (\(.output) out.png) is one moment; a GIF or a folder is the whole storyboard"
            )
        }
        try encoding.check(for: format)
    }

    /// Refuses a frame rate, scale or width out of range, or a width with a scale.
    public static func check(fps: Double?, scale: Int?, width: Int?) throws {
        if let fps, !ExportOption.fps.row!.range!.contains(fps) {
            throw ExportError.refused(.fps, "\(fps)", "expected a number in \(ExportOption.fps.rangeText!)")
        }
        if let scale, !ExportOption.scale.row!.range!.contains(Double(scale)) {
            throw ExportError.refused(.scale, "\(scale)", "expected 1, 2 or 3")
        }
        if let width, !ExportOption.width.row!.range!.contains(Double(width)) {
            throw ExportError.refused(.width, "\(width)", "expected \(ExportOption.width.rangeText!) pixels")
        }
        if width != nil && scale != nil {
            throw ExportError.invalid(.width, "\(.width) and \(.scale): give one; \(.width) sets the scale")
        }
    }

    /// The scene, with the request's storyboard, config, values and view: at its own frame
    /// rate and width, or at others (a size budget's smaller settings).
    public func prepare(fps: Double? = nil, width: Int? = nil) throws -> PreparedScene {
        let width = width ?? self.width
        return try SceneCatalog.prepare(
            scene, configFile: config, assignments: assignments,
            overrides: SceneOverrides(
                storyboard: storyboard, fps: fps ?? self.fps, scale: width == nil ? scale : nil, width: width))
    }
}

extension ExportRequest {
    /// Sets `option` from its text, as a manifest or a command line spells it: `max-size: 5MB`,
    /// `loop: forever`, `frames: 3-5`. A flag (`overwrite`) takes `true` or `false`.
    public mutating func set(_ option: ExportOption, to text: String) throws {
        func number<T: LosslessStringConvertible>(_: T.Type, _ expected: String) throws -> T {
            guard let value = T(text) else {
                throw ExportError.refused(option, text, "expected \(expected)")
            }
            return value
        }
        func double() throws -> Double {
            let value = try number(Double.self, "a number")
            guard value.isFinite else {
                throw ExportError.refused(option, text, "expected a number")
            }
            return value
        }
        switch option {
        case .scene: scene = text
        case .storyboard: storyboard = text
        case .config: config = text
        case .set: assignments.append(text)
        case .fps: fps = try double()
        case .scale: scale = try number(Int.self, "1, 2 or 3")
        case .width: width = try number(Int.self, "a width in pixels")
        case .time: time = try double()
        case .speed: speed = try double()
        case .frames:
            guard let range = FrameRange(text) else {
                throw ExportError.refused(option, text, "\(FrameRange.expected)")
            }
            frames = range
        case .output: output = text
        case .sheet: sheet = text
        case .stats: stats = text
        case .overwrite: overwrite = try number(Bool.self, "true or false")
        case .dryRun: if try number(Bool.self, "true or false") { output = nil }
        case .threads: threads = try number(Int.self, "1...256")
        case .maxSize:
            guard let size = ByteSize(text) else {
                throw ExportError.refused(option, text, "\(ByteSize.expected)")
            }
            maxSize = size
        case .loop:
            guard let loop = LoopCount(text) else {
                throw ExportError.refused(option, text, "expected forever (or 0), or a count")
            }
            encoding.loop = loop
        case .quality: encoding.quality = try number(Int.self, "1...100")
        case .dither: encoding.dither = try double()
        case .colors: encoding.colors = try number(Int.self, "2...256")
        case .quantizerSpeed: encoding.quantizerSpeed = try number(Int.self, "1...10")
        case .paletteSteps: encoding.paletteSteps = try number(Int.self, "0...100")
        case .lossy: encoding.lossy = try number(Int.self, "0...64")
        }
    }

    /// The request's value of `option` as text, as `set(_:to:)` reads it: none where it is
    /// unset, one for each `set` assignment, `true` for a flag that is on.
    public func values(of option: ExportOption) -> [String] {
        if option == .set { return assignments }
        let value: (any CustomStringConvertible)? =
            switch option {
            case .scene: scene
            case .storyboard: storyboard
            case .config: config
            case .set: nil
            case .fps: fps?.plainText
            case .scale: scale
            case .width: width
            case .time: time?.plainText
            case .speed: speed.plainText
            case .frames: frames
            case .output: output
            case .sheet: sheet
            case .stats: stats
            case .overwrite: overwrite ? true : nil
            case .dryRun: output == nil ? true : nil
            case .threads: threads
            case .maxSize: maxSize
            case .loop: encoding.loop
            case .quality: encoding.quality
            case .dither: encoding.dither?.plainText
            case .colors: encoding.colors
            case .quantizerSpeed: encoding.quantizerSpeed
            case .paletteSteps: encoding.paletteSteps
            case .lossy: encoding.lossy
            }
        return value.map { [$0.description] } ?? []
    }

    /// The order of ``settings``: a build key covers them in it.
    private static let settingsOrder: [ExportOption] = [
        .storyboard, .config, .set, .time, .fps, .scale, .width, .speed, .frames, .loop, .quality, .dither, .colors,
        .quantizerSpeed, .paletteSteps, .lossy, .maxSize, .threads, .stats, .overwrite, .output, .dryRun, .sheet,
    ]

    /// The options the request gives, those that differ from a new request's, each with its value
    /// as text (empty for a flag): what its command line says, and what a build key covers. It
    /// gives its output, or that it is a dry run.
    public var settings: [(option: ExportOption, value: String)] {
        let defaults = ExportRequest(scene: scene)
        return Self.settingsOrder.flatMap { option -> [(option: ExportOption, value: String)] in
            let values = values(of: option)
            if option != .dryRun && values == defaults.values(of: option) { return [] }
            let isFlag = option.row.map { $0.valueName == nil } ?? false
            return values.map { (option, isFlag ? "" : $0) }
        }
    }

    /// The words after `flipbook render` that make the same export: its settings as flags. A
    /// value that starts with "-" is joined to its flag, so that it does not read as an option.
    public var arguments: [String] { [scene] + arguments(of: Set(ExportOption.allCases)) }

    /// The flags of `options` alone, as ``arguments`` spells them: `--set key=value` for the
    /// values a note hands back.
    public func arguments(of options: Set<ExportOption>) -> [String] {
        settings.filter { options.contains($0.option) }.flatMap { option, value -> [String] in
            value.isEmpty
                ? [option.flag] : value.hasPrefix("-") ? ["\(option.flag)=\(value)"] : [option.flag, value]
        }
    }

    /// The shell command that makes the same export.
    public var commandLine: String { ShellQuoting.line(["flipbook", "render"] + arguments) }
}
