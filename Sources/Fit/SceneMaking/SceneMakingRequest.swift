import Foundation
import Geometry

import Flipbook

import enum Planner.Curve

/// What to make a scene from: a recording of a transition, and the folder to write the scene
/// file and its screens' images into.
public struct SceneMakingRequest: Sendable {
    /// The recording: a GIF, WebP, APNG, MP4 or MOV, or a folder of PNG frames.
    public var recording: String
    /// Where the scene file (`NAME.yaml`) and its images go (made if missing).
    public var folder: String
    /// The scene's name, and its file's.
    public var name: String
    /// Seconds between the recording's frames, overriding the times it carries.
    public var frameInterval: Double?
    /// The part of each frame that is the screen (all of it by default).
    public var crop: Crop?
    /// The screen's width in points (by default an iPhone's, from the frames' width).
    public var pointWidth: Double?
    /// A GIF, WebP, MP4 or APNG to write: the recording and the made scene's render side by side.
    public var sideBySide: String?
    /// Screenshots (PNG, at any scale) of the screen the recording starts on and of the one it
    /// ends on, sharper than its frames: the made scene shows them for those screens.
    public var first: String?
    public var last: String?

    /// The widths in points a screen may have.
    public static let pointWidths = 100.0...2000.0

    /// A request named after the recording's file unless `name` is given.
    public init(
        recording: String, folder: String, name: String? = nil, frameInterval: Double? = nil, crop: Crop? = nil,
        pointWidth: Double? = nil
    ) {
        self.recording = recording
        self.folder = folder
        self.name = name ?? Self.name(for: recording)
        self.frameInterval = frameInterval
        self.crop = crop
        self.pointWidth = pointWidth
    }

    /// A scene name from a file's: its stem in lower case, runs of other characters as one `-`.
    static func name(for path: String) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
        let words = stem.split { !($0.isLetter || $0.isNumber) }
        return words.isEmpty ? "recording" : words.joined(separator: "-")
    }

    /// Refuses a request that cannot run before anything is read.
    public func check() throws {
        if let frameInterval, !FitRequest.frameIntervals.contains(frameInterval) {
            throw SceneMakingError.frameInterval(frameInterval)
        }
        if let pointWidth, !Self.pointWidths.contains(pointWidth) {
            throw SceneMakingError.pointWidth(pointWidth)
        }
        if let sideBySide, AnimationFormat.named(by: sideBySide) == nil {
            throw SceneMakingError.sideBySide(sideBySide)
        }
        try OutputRules(
            outputs: [.init(option: "--to", path: folder, isFolder: true)]
                + (sideBySide.map { [.init(option: "--side-by-side", path: $0)] } ?? []),
            inputs: [.init(what: "the recording", path: recording)]
                + screenshots.map { .init(what: "--\($0.end.rawValue) \($0.path)", path: $0.path) }
        ).check()
    }

    /// Reads the recording, makes the scene, checks that it loads and renders, scores its
    /// render against the recording, and writes the file and its images into `folder`; writes
    /// nothing when any of that fails.
    public func run(
        progress: @escaping @Sendable (String) -> Void = { _ in }, _ events: MeasureEvents = MeasureEvents()
    )
        throws -> SceneMakingReport
    {
        try check()
        let source = RecordingSource(path: recording, events: events, measuring: "the scene's times are")
        var (made, staging, file, check) = try checked(
            SceneMaker.make(self, source: source, progress: progress), progress: progress)
        defer { staging.remove() }
        if let unlike = Self.unlike(made.text.changes, check) {
            let k = check.changes.firstIndex { $0.seconds == unlike.seconds }
            let refusal = SceneMakingError.unlike(
                seconds: unlike.seconds,
                region: k.flatMap { made.outline.region(of: made.outline.changes[$0], width: made.text.canvas.width) },
                rms: unlike.rms,
                offset: k.flatMap { made.text.changes[$0].kind.movesWhole }.flatMap { part in
                    unlike.offset.map { (part, $0.rms) }
                },
                letGoShort: k.map { made.text.changes[$0] }.flatMap {
                    $0.returns ? ScreenChange.goingBack(pulled: ScreenChange.pulledOver.contains($0.kind)) : nil
                })
            // A change whose motion, nearly stopped, jumps may be two moves: made again, split
            // there (once); where that comes no nearer, this is the answer.
            guard let k, made.outline.splits.isEmpty, case let jumps = made.outline.jumps(in: k), !jumps.isEmpty
            else { throw refusal }
            progress(SceneMaker.splitting(k, at: jumps, outline: made.outline))
            let split = try? checked(
                SceneMaker.make(self, source: source, progress: progress, splits: jumps, known: made.fitted),
                progress: progress)
            guard let split, Self.unlike(split.made.text.changes, split.check) == nil else {
                split?.staging.remove()
                throw refusal
            }
            staging.remove()
            (made, staging, file, check) = split
        }
        let pixelsPerPoint = Double(made.crop.width) / made.text.canvas.width
        if !made.screenshots.isEmpty {
            for (screen, image) in made.screenshots {
                try Self.stage(image, screen: screen, in: staging)
            }
            check = try MadeSceneCheck(
                scene: file, outline: made.outline, changes: made.text.changes, pixelsPerPoint: pixelsPerPoint)
        }
        let transition = try Transition(file)
        let code = zip(made.text.changes, made.text.paramNames).flatMap { change, names in
            // A launched system spring's speed is a number beside its param, which its code starts at.
            let motion =
                if case .launched(let v) = change.curve {
                    try? Motion(spec: Curve.system.with(velocity: v).description)
                } else { transition.motion(of: names.animation) }
            // A size on a curve of its own is its own block.
            let size = names.params["Size"].flatMap { key in transition.motion(of: key).map { (key, $0.code) } }
            return change.kind == .cut ? [] : [motion.map { (names.animation, $0.code) }, size].compactMap { $0 }
        }
        let written = try SceneFile.load(path: file).copy(to: folder)
        if let sideBySide {
            progress("writing the side by side")
            try writeSideBySide(made, scene: file, source: source, to: sideBySide)
        }
        return SceneMakingReport(
            changes: made.text.changes, check: check, code: code, written: written, foundScreen: made.foundScreen,
            screenshots: screenshots.map { end, path in (made.outline.screen(at: end) + 1, path) },
            request: self)
    }

    /// `made`'s file and images staged in a folder of their own, and its render scored against
    /// the recording. The moves are judged with the recording's own screens: a screenshot's
    /// colours (another profile, a codec's shift) are no fault of a move's.
    private func checked(_ made: SceneMaker.Made, progress: @Sendable (String) -> Void) throws -> (
        made: SceneMaker.Made, staging: TemporaryFolder, file: String, check: MadeSceneCheck
    ) {
        let staging = try TemporaryFolder()
        do {
            let file = (staging.path as NSString).appendingPathComponent("\(name).yaml")
            try made.text.text.write(toFile: file, atomically: true, encoding: .utf8)
            for (i, image) in made.images.enumerated() { try Self.stage(image, screen: i, in: staging) }
            progress("rendering the scene and comparing it with the recording")
            let check = try MadeSceneCheck(
                scene: file, outline: made.outline, changes: made.text.changes,
                pixelsPerPoint: Double(made.crop.width) / made.text.canvas.width)
            return (made, staging, file, check)
        } catch {
            staging.remove()
            throw error
        }
    }

    /// Screen `index`'s image (from 0), staged beside the scene file in `staging`.
    private static func stage(_ image: Bitmap, screen index: Int, in staging: TemporaryFolder) throws {
        try image.writePNG(to: (staging.path as NSString).appendingPathComponent(MadeSceneText.imageFile(index + 1)))
    }
}

extension SceneMakingRequest {
    /// The first move whose render stays far from the recording (past `SceneMaker.mostUnlike`),
    /// or, led by a finger, draws what it moves whole (a sliding screen or panel, a band's
    /// pages) further than `SceneMaker.mostOffset` from where the recording shows it, however
    /// near its levels (a finger's part, read frame by frame, is there to put it where the
    /// frames do): not explained, whichever move it is. A cut is explained whenever it falls: it
    /// is off only by when within its frame. A screen that slides (or a band's pages that
    /// scroll) is explained too where it is drawn within `mostOffset` of where the recording
    /// shows it and the frames, with it there, come within `mostUnlike`: a screen of text a few
    /// pixels off differs by many levels.
    static func unlike(_ changes: [MadeChange], _ check: MadeSceneCheck) -> MadeSceneCheck.Stretch? {
        zip(changes, check.changes).first { change, stretch in
            guard change.kind != .cut else { return false }
            if change.drag != nil, let offset = stretch.offset, offset.rms > SceneMaker.mostOffset { return true }
            let inPlace = stretch.offset.map {
                $0.rms <= SceneMaker.mostOffset && $0.inPlace <= SceneMaker.mostUnlike
            }
            return stretch.rms > SceneMaker.mostUnlike && inPlace != true
        }?.1
    }

    /// The screenshots given, by the end of the recording each shows.
    var screenshots: [(end: RecordingOutline.End, path: String)] {
        [(RecordingOutline.End.first, first), (.last, last)].compactMap { end, path in path.map { (end, $0) } }
    }

    /// The screenshot at `path` of the screen at `end` of `outline`: a screen of the shape of
    /// `crop`, and not the screen the other screenshot shows.
    func screenshot(_ end: RecordingOutline.End, _ path: String, outline: RecordingOutline, crop: Crop) throws
        -> Bitmap
    {
        if end == .last, first != nil, outline.screen(at: .first) == outline.screen(at: .last) {
            throw SceneMakingError.sameScreen(path)
        }
        let image = try Bitmap(png: path)
        let (w, h) = (Double(image.width), Double(image.height))
        let (sw, sh) = (Double(crop.width), Double(crop.height))
        // Within a hundredth, or two pixels of a small screen's height: past the rounding of its size.
        guard abs(w / h - sw / sh) <= max(0.01, 2 / sh) * (sw / sh) else {
            throw SceneMakingError.screenshotShape(
                option: "--\(end.rawValue)", path: path, size: (image.width, image.height),
                screen: (crop.width, crop.height))
        }
        return image
    }

    /// The recording's screen left and the made scene's render right, at the recording's size,
    /// frame for frame at its usual interval.
    func writeSideBySide(_ made: SceneMaker.Made, scene: String, source: RecordingSource, to path: String) throws {
        let outline = made.outline, crop = made.crop
        let render = try Transition(scene, width: crop.width)
        let reader = RecordingRereader(try source.open())
        let count = max(1, Int((outline.duration / outline.interval).rounded()))
        _ = try SideBySide.write(count: count, interval: outline.interval, to: path) { i in
            let t = Double(i) * outline.interval
            let k = FrameSequence.index(atMoment: t, starts: outline.starts, duration: outline.duration) ?? 0
            let recorded = try reader.frame(k).cropped(
                to: PixelRect(x: crop.x, y: crop.y, width: crop.width, height: crop.height))
            return SideBySide.frame(
                recorded, render.frame(at: t).bitmap, labels: (String(format: "recording %.2f s", t), "made scene"))
        }
    }
}

/// What a scene made from a recording holds and how close its render comes.
public struct SceneMakingReport: Sendable {
    public var changes: [MadeChange]
    public var check: MadeSceneCheck
    /// Per change's animation param, the UIKit code that makes its curve.
    public var code: [(key: String, lines: [String])]
    /// The scene file, then its images.
    public var written: [String]
    /// The screen found inside larger frames, where no crop was given.
    public var foundScreen: Crop?
    /// The screens shown from screenshots (from 1), and their files.
    public var screenshots: [(screen: Int, path: String)] = []
    let request: SceneMakingRequest

    /// The report: each change, how its render compares, and how to use the scene.
    public var text: String {
        var lines = [
            "made \(request.name) from \(request.recording): \(written.count - 1) screens, \(changes.count) change\(changes.count == 1 ? "" : "s")"
        ]
        if let s = foundScreen {
            lines.append("  found the screen at \(s.x),\(s.y),\(s.width),\(s.height) of each frame (--crop gives it)")
        }
        for (screen, path) in screenshots { lines.append("  screen \(screen) from \(path)") }
        for (i, change) in changes.enumerated() {
            var line = String(
                format: "  %d. %.3f s  screen %d → %d: %@", i + 1, change.start, change.from, change.shown,
                change.kind.rawValue)
            if let drag = change.drag {
                line +=
                    ", \(change.finger.led) for \(FitResult.text(drag.duration)) s to \(FitResult.text(drag.progress)) of the way"
                    + (change.fingerPath == nil ? "" : " along its own path")
                    + (change.returns ? " over screen \(change.to), let go short" : "")
            }
            if change.kind != .cut {
                line += (change.drag == nil ? ", " : ", then ") + change.curve.text + (change.returns ? " back" : "")
            }
            if let size = change.size { line += ", its size \(size.text)" }
            if let shift = change.numbers[ScreenChange.Number.parallax.suffix] {
                line += ", shifting the screen underneath by \(FitResult.text(shift))"
            }
            if let rect = change.rect {
                let box = "[\(rect.map(FitResult.text).joined(separator: ", "))]"
                if change.kind.slidesPanel {
                    let lower = change.travel.map { "\(FitResult.text($0)) pt lower" }
                    line +=
                        change.kind == .panelUp
                        ? ", to \(box) from \(lower ?? "below the screen")"
                        : ", from \(box) " + (lower.map { "to \($0)" } ?? "out of the screen")
                } else {
                    line += ", \(change.kind.endsInRect ? "into" : "from") \(box)"
                }
            }
            if let shift = change.shift {
                line += ", by [\(shift.map(FitResult.text).joined(separator: ", "))]"
            }
            if let fade = change.fade {
                line += ", in \(change.color ?? ""), then the next screen fades in over \(FitResult.text(fade)) s"
            }
            if let pull = change.pull {
                line += ", from screen \(pull.screen) pulled \(FitResult.text(pull.gap)) pt down under its bar"
            }
            if let bar = change.statusBar {
                line += ", under a status bar \(FitResult.text(bar)) pt tall that stays"
            }
            lines.append(line)
            let c = check.changes[i]
            lines.append(
                String(
                    format:
                        "     render against the recording at %.2f-%.2f s: %.2f levels RMS, worst %.2f at %.3f s, lag %@",
                    c.seconds.lowerBound, c.seconds.upperBound, c.rms, c.worst, c.worstAt,
                    c.lag == 0 ? "0" : String(format: "%+d frame%@", c.lag, abs(c.lag) == 1 ? "" : "s")))
            if let offset = c.offset {
                lines.append(
                    String(
                        format:
                            "     %@ against the recording's: %.2f px RMS off, worst %.2f at %.3f s; in place, %.2f levels RMS",
                        change.kind.movesWhole ?? "", offset.rms, offset.worst, offset.worstAt, offset.inPlace))
            }
        }
        lines.append(
            String(
                format:
                    "  the whole recording: %.2f levels RMS, worst %.2f at %.3f s (mean difference per frame, of 255)",
                check.rms, check.worst, check.worstAt))
        for (key, code) in code {
            lines.append("  \(key) in UIKit:")
            lines += code.map { "    " + $0 }
        }
        lines.append("wrote \(written[0]) and its \(written.count - 1) images; render it, or open it in the studio:")
        lines.append("  flipbook render \(written[0]) -o \(request.name).gif")
        if let sideBySide = request.sideBySide {
            lines.insert("wrote \(sideBySide): the recording left, the made scene's render right", at: lines.count - 2)
        }
        lines.append("  flipbook studio \(written[0])")
        return lines.joined(separator: "\n")
    }
}
