import Fit
import Flipbook
import Foundation

/// The page's picture of the session, as JSON: the scene, the version on screen, its phases,
/// and every param with its value, the file's value and whether the storyboard reads it.
struct StudioState: Encodable {
    var scene: String
    var file: String
    var savesTo: String
    var storyboards: [String]
    var storyboard: String
    var scale: Int
    var fps: Double
    var width: Int
    var height: Int
    var version: Int
    var savedVersion: Int
    var duration: Double
    var frames: Int
    var phases: [Phase]
    var sections: [Section]
    var params: [Param]
    var edits: [String: String]
    var error: String?
    var errorKey: String?
    /// The file changed on disk under unsaved edits: what changed, and the conflicts.
    var diskChange: StudioSession.DiskChange?
    var command: String
    /// The formats a download can be (`AnimationFormat.all`), each with its button's label.
    var exportFormats: [ExportFormatEntry]
    /// The export options the page has a control for, as the export options' table gives them.
    var exportControls = ExportOption.table.compactMap(ExportControl.init)
    var against: Against?
    /// The curves one click away in the curve editor.
    var curvePresets = MotionControls.presets.map { PresetGroup(group: $0.group, presets: $0.presets) }

    struct ExportFormatEntry: Encodable {
        var name: String
        var label: String
    }

    /// A control of the page's export row: the option's key, its label, what it shows empty, its
    /// summary, and for a number its range and step.
    struct ExportControl: Encodable {
        var name: String
        var label: String
        var placeholder: String
        var doc: String
        var min: Double?
        var max: Double?
        var step: Double?

        init?(_ row: ExportOptionRow) {
            guard let control = row.control else { return nil }
            (name, label, placeholder, doc) = (row.option.name, control.label, control.placeholder, row.summary)
            (min, max) = (row.range?.lowerBound, row.range?.upperBound)
            step = row.range == nil ? nil : row.isInteger ? 1 : nil
        }
    }

    struct Phase: Encodable {
        var name: String
        var start: Double
        var end: Double
    }

    struct Section: Encodable {
        var key: String
        var doc: String
    }

    struct Param: Encodable {
        var key: String
        var kind: String
        var doc: String
        var section: String?
        var line: Int?
        var isRead: Bool
        var fields: [Field]
        var motion: MotionJSON?
        var savedMotion: MotionJSON?
        /// For an animation: the fields its curve reads and the curve editor's handles.
        var controls: MotionControls?
        /// Words a search finds it by besides its key and doc: its kind, its fields, its curve,
        /// its choices, and what its curve's handles set (`bounce`).
        var terms: [String]
    }

    /// The curves one click away in the curve editor, by group.
    struct PresetGroup: Encodable {
        var group: String
        var presets: [MotionControls.Preset]
    }

    /// One value the page edits: a param, or one part of an animation param.
    struct Field: Encodable {
        var key: String
        var label: String
        var kind: String
        var range: [Double]?
        var declaresRange: Bool
        var choices: [String]
        var value: String
        var saved: String
        var editable: Bool
    }

    struct MotionJSON: Encodable {
        var duration: Double
        var overshoot: Double
        var spec: String
        var code: [String]
        var samples: [[Double]]

        init(_ m: Motion) {
            duration = m.duration
            overshoot = m.overshoot
            spec = m.spec
            code = m.code
            samples = m.samples.map { [($0.time * 1e4).rounded() / 1e4, ($0.progress * 1e4).rounded() / 1e4] }
        }
    }

    struct Against: Encodable {
        var path: String
        var frames: Int
        var duration: Double
        var width: Int
        var height: Int
        /// The features file each version is scored by (`/api/score`), if any.
        var features: String?
        var featureNames: [String]
        /// Its frame interval and start as given (nil: the file's times; found), what the
        /// file's times suggest the capture's interval was, and the intervals a capture can have.
        var frameInterval: Double?
        var start: Double?
        var suspectedInterval: Double?
        var intervalRange: [Double]
    }

    init(session: StudioSession) {
        let s = session.snapshot
        let current = s.current!, saved = s.saved!
        let t = current.transition
        scene = t.name
        file = session.scene
        savesTo = session.savesTo
        storyboards = t.storyboards
        storyboard = t.storyboard
        scale = s.scale
        fps = t.fps
        (width, height) = t.pixelSize
        version = current.version
        savedVersion = saved.version
        duration = t.duration
        frames = t.frameTimes.count
        phases = t.phases.map { Phase(name: $0.name, start: $0.start.rounded6, end: $0.end.rounded6) }
        sections = t.sections.map { Section(key: $0.key, doc: $0.doc) }
        let savedValues = Self.editableValues(saved.transition.parameters)
        params = t.parameters.map { p in
            let fields =
                p.animation.map { a in
                    Self.animationParts.map { part in
                        let key = "\(p.key).\(part.name)", value = part.value(a)
                        return Field(
                            key: key, label: part.name, kind: part.kind,
                            range: part.range.map { [$0.lowerBound, $0.upperBound] },
                            declaresRange: part.name == Transition.Animation.Part.dampingRatio.name, choices: [],
                            value: value,
                            saved: savedValues[key] ?? value, editable: true)
                    }
                } ?? [
                    Field(
                        key: p.key, label: String(p.key.split(separator: ".").last ?? ""), kind: p.kind.rawValue,
                        range: p.range.map { [$0.lowerBound, $0.upperBound] }, declaresRange: p.declaresRange,
                        choices: p.choices, value: p.value, saved: savedValues[p.key] ?? p.value,
                        editable: p.kind != .image && p.kind != .path)
                ]
            // Each param's motion and controls once: a state is made on every edit.
            let motion = t.motion(of: p.key)
            let controls = motion.flatMap { t.motionControls(of: p.key, motion: $0) }
            return Param(
                key: p.key, kind: p.kind.rawValue, doc: p.doc, section: p.section, line: p.line, isRead: p.isRead,
                fields: fields, motion: motion.map { MotionJSON($0) },
                savedMotion: saved.transition.motion(of: p.key).map { MotionJSON($0) },
                controls: controls, terms: Self.terms(p, fields: fields, controls: controls))
        }
        edits = s.edits
        error = s.error
        errorKey = s.errorKey
        diskChange = s.diskChange
        var export = Self.exportRequest(
            scene: session.scene, storyboard: t.storyboard, config: session.options.config, scale: s.scale,
            edits: s.edits)
        export.output = "\(t.name)-\(t.storyboard).gif"
        command = export.commandLine
        exportFormats = AnimationFormat.all.map { ExportFormatEntry(name: $0.name, label: $0.label) }
        let timing = session.timing
        against = session.recording.map {
            let f = $0.frames.frames.first?.bitmap
            return Against(
                path: $0.path, frames: $0.frames.frames.count, duration: $0.frames.duration, width: f?.width ?? 0,
                height: f?.height ?? 0, features: session.scores?.featuresPath,
                featureNames: session.scores?.features.features.map(\.name) ?? [],
                frameInterval: timing.frameInterval, start: timing.start,
                suspectedInterval: $0.suspectedInterval,
                intervalRange: [FitRequest.frameIntervals.lowerBound, FitRequest.frameIntervals.upperBound])
        }
    }

    /// The parts of an animation param the page edits: name, kind, range and value.
    static let animationParts:
        [(name: String, kind: String, range: ClosedRange<Double>?, value: @Sendable (Transition.Animation) -> String)] =
            Transition.Animation.Part.allCases.map { part in
                let value: @Sendable (Transition.Animation) -> String = { $0.value(of: part).plainText }
                return (part.name, part == .duration ? "seconds" : "number", part.range, value)
            } + [(Transition.Animation.Part.curve, "curve", nil, { @Sendable in $0.curve })]

    /// The words a search finds `p` by besides its key and doc.
    static func terms(_ p: Transition.Parameter, fields: [Field], controls: MotionControls?) -> [String] {
        var words = [p.kind.rawValue] + fields.map(\.label) + p.choices
        if let a = p.animation { words.append(a.curve) }
        if let controls { words += [controls.kind.rawValue] + controls.handles.keys.sorted() }
        var seen = Set<String>()
        return words.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Every value a save can write, by its `--set` key: each param's, and each part of an animation's.
    static func editableValues(_ parameters: [Transition.Parameter]) -> [String: String] {
        var values: [String: String] = [:]
        for p in parameters {
            guard let a = p.animation else {
                values[p.key] = p.value
                continue
            }
            for part in animationParts { values["\(p.key).\(part.name)"] = part.value(a) }
        }
        return values
    }

    /// `--set` arguments for `edits`, in key order.
    static func assignments(_ edits: [String: String]) -> [String] {
        edits.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// The export of what the studio shows, without an output.
    static func exportRequest(
        scene: String, storyboard: String, config: String?, scale: Int, edits: [String: String]
    ) -> ExportRequest {
        var request = ExportRequest(scene: scene)
        request.storyboard = storyboard
        if let config, FileManager.default.fileExists(atPath: config) { request.config = config }
        if scale != 1 { request.scale = scale }
        request.assignments = assignments(edits)
        return request
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// A recording shown beside the render, frame by frame at the same instants.
struct Recording: Sendable {
    var path: String
    /// The frames at the file's own times, as a score reads them.
    var stored: FrameSequence
    /// The frames at their real times (`--frame-interval`), as the page shows them.
    var frames: FrameSequence
    /// The interval a capture likely had, where the file's own times misstate it.
    var suspectedInterval: Double?

    /// The frame showing at the moment a render's frame starts at `t` seconds (a centisecond's
    /// rounding in the recording's container is the same moment).
    func frame(atMoment t: Double) -> Bitmap? { frames.frame(atMoment: t)?.bitmap }
}

extension Double {
    /// To a microsecond: sums of step durations print as 2.2, not 2.1999999999999997.
    var rounded6: Double { (self * 1e6).rounded() / 1e6 }

}
