import Foundation
import Synchronization

import struct Flipbook.FrameSequence
import class Flipbook.ImageCache
import struct Flipbook.Transition

/// One change of a recording fitted as each move and curve tried: a scene of its two screens,
/// its params searched by fit's own search against the change's frames.
struct ChangeFit: Sendable {
    /// A try's answer, where its fit found one: the change and its residual.
    typealias Attempt = (change: MadeChange, score: Double)?

    /// The made scene with no changes, of the change's length.
    let base: MadeSceneText
    /// The change's frames, from its window's first.
    let recording: FrameSequence
    /// Seconds the storyboard holds before it moves, and the window's start in the recording.
    let hold: Double
    let origin: Double
    /// The recording's frames' size.
    let frame: Crop
    let from: Int
    let to: Int
    let seconds: ClosedRange<Double>
    /// Where each try's scene file is written (`PATH-N.yaml`), beside the screens' images.
    let folder: String
    let images: ImageCache

    /// The change `kind` with `curve` (after a finger's part, with `drag`), starting after the
    /// hold, with the rectangle the recording shows where the move has one; nil where it shows
    /// none.
    func change(_ kind: ScreenChange, _ curve: MadeChange.Curve, drag: (Double, Double)?) -> MadeChange? {
        var change = MadeChange(
            kind: kind, from: from, to: to, start: hold, curve: curve, drag: drag, seconds: seconds)
        if kind.hasRect {
            guard let rect = rect(kind) else { return nil }
            change.rect = rect
        }
        return change
    }

    /// The rectangle a screen grows out of (where its first moving frames differ from the still
    /// before) or shrinks into (where its last ones differ from the still after), in points; nil
    /// where that region is a sliver or most of the screen.
    func rect(_ kind: ScreenChange) -> [Double]? {
        let frames = recording.frames
        guard let first = frames.firstIndex(where: { $0.start + origin >= seconds.lowerBound - 1e-9 }),
            let last = frames.lastIndex(where: { $0.start + origin <= seconds.upperBound + 1e-9 }),
            first >= 1, last - first >= 2
        else { return nil }
        let (a, b) = kind == .grow ? (first - 1, first + 1) : (last, last - 2)
        let width = frame.width, height = frame.height
        let pa = LumaImage(frames[a].bitmap, width: width, height: height)
        let pb = LumaImage(frames[b].bitmap, width: width, height: height)
        guard let box = pb.changedBox(from: pa, by: 20) else { return nil }
        let (minX, minY, maxX, maxY) = (box.x.lowerBound, box.y.lowerBound, box.x.upperBound, box.y.upperBound)
        let area = Double((maxX - minX + 1) * (maxY - minY + 1)) / Double(width * height)
        guard area > 0.01, area < 0.8 else { return nil }
        let k = base.canvas.width / Double(width)
        return [Double(minX), Double(minY), Double(maxX - minX + 1), Double(maxY - minY + 1)].map {
            ($0 * k).rounded()
        }
    }

    /// The move that looks likeliest, drawn at every tenth of its way with its params' defaults
    /// against the change's frames a quarter, half and three quarters through it (no time, so no
    /// fit), with the next likeliest where it looks nearly as likely.
    func likeliest(_ kinds: [ScreenChange]) throws -> [ScreenChange] {
        let moving = recording.frames.filter { seconds.contains($0.start + origin) }
        guard moving.count >= 3 else { return Array(kinds.prefix(2)) }
        let width = SceneMaker.outlineWidth
        let height = max(1, Int((Double(width) * Double(frame.height) / Double(frame.width)).rounded()))
        let samples = [1, 2, 3].map { LumaImage(moving[moving.count * $0 / 4].bitmap, width: width, height: height) }
        var differences: [ScreenChange: Double] = [:]
        for (i, kind) in kinds.enumerated() {
            guard var change = change(kind, .bezier("linear", duration: 1), drag: nil) else { continue }
            change.start = 0
            var scene = base
            scene.changes = [change]
            scene.length = 1
            let path = "\(folder)-ranked-\(i).yaml"
            try scene.text.write(toFile: path, atomically: true, encoding: .utf8)
            let transition = try Transition(path, width: width, images: images)
            let renders = stride(from: 0.0, through: 1.0, by: 0.1).map {
                LumaImage(transition.frame(at: $0).bitmap, width: width, height: height)
            }
            differences[kind] = samples.map { sample in renders.map { $0.meanDifference(sample) }.min()! }.reduce(0, +)
        }
        let sorted = kinds.filter { differences[$0] != nil }.sorted { differences[$0]! < differences[$1]! }
        guard !sorted.isEmpty else { return [] }
        // A second move looks nearly as likely, or the first does not stand out: both are fitted.
        return sorted.count > 1 && differences[sorted[0]]! > Self.decisive * differences[sorted[1]]!
            ? Array(sorted.prefix(2)) : [sorted[0]]
    }

    /// The likeliest move is fitted alone when its least difference is at most this share of
    /// the next one's.
    static let decisive = 0.7

    /// Each try fitted, two at a time: the moves' fits are independent.
    func attempts(_ tries: [(ScreenChange, MadeChange.Curve, (Double, Double)?)]) throws -> [Attempt] {
        let results = Mutex([Result<Attempt, Error>?](repeating: nil, count: tries.count))
        DispatchQueue.concurrentPerform(iterations: tries.count) { i in
            let (kind, curve, drag) = tries[i]
            let result = Result { try attempt(kind, curve, drag: drag, path: "\(folder)-\(i).yaml") }
            results.withLock { $0[i] = result }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }

    /// The change found, with the ranges of its curve's values and a finger's part: its values
    /// are not searched again, only probed around (the winner's alone, since each value probed
    /// costs its pairs with all the others).
    func ranged(_ found: MadeChange) throws -> Attempt {
        try attempt(
            found.kind, found.curve, drag: found.drag.map { ($0.duration, $0.progress) }, path: "\(folder)-ranged.yaml",
            from: found)
    }

    /// The change as `kind` by `curve` (after a finger's part, with `drag`), fitted; or, where
    /// `found` is given, `found` with its values' ranges.
    func attempt(
        _ kind: ScreenChange, _ curve: MadeChange.Curve, drag: (Double, Double)?, path: String,
        from found: MadeChange? = nil
    ) throws -> Attempt {
        guard var candidate = change(kind, curve, drag: drag) else { return nil }
        if let found {
            // Its own values and start (in the window's time), so that only their ranges are
            // worked out.
            (candidate.numbers, candidate.rect) = (found.numbers, found.rect ?? candidate.rect)
            candidate.start = found.start - origin
        }
        var scene = base
        scene.changes = [candidate]
        let names = scene.paramNames[0]
        var keys = curve.parts.map { names.animation + "." + $0.part }
        var ranges = Dictionary(uniqueKeysWithValues: zip(keys, curve.parts.map(\.range)))
        for number in kind.numbers {
            keys.append(names.params[number.suffix]!)
            ranges[names.params[number.suffix]!] = number.range
        }
        if kind.hasRect { keys += ScreenChange.rect.map { names.params[$0]! } }
        if let drag = names.drag {
            keys += [drag.animation + ".duration", drag.progress]
            ranges[drag.animation + ".duration"] = 0.05...2
            ranges[drag.progress] = 0.05...0.95
        }
        // The ranges are those of the values handed back to UIKit, the move's own numbers held.
        if found != nil {
            let finger = names.drag.map { [$0.animation + ".duration", $0.progress] } ?? []
            keys = keys.filter { $0.hasPrefix(names.animation + ".") || finger.contains($0) }
            ranges = ranges.filter { keys.contains($0.key) }
        }
        guard !keys.isEmpty else { return nil }
        try scene.text.write(toFile: path, atomically: true, encoding: .utf8)
        let fit: FitResult
        do {
            var request = FitRequest(scene: path, storyboard: "recording", keys: keys, ranges: ranges, crop: frame)
            // Tries run side by side, each on a core; only their values are kept.
            (request.determinesRanges, request.searches, request.renderThreads) = (found != nil, found == nil, 1)
            fit = try Fitter.fit(request, recording: recording, images: images)
        } catch is FitError {
            return nil
        }
        if var ranged = found {
            ranged.ranges = fit.values.map { ($0.key, $0.determined) }
            return (ranged, fit.residuals.first?.rmsAfter ?? .infinity)
        }
        let values = Dictionary(uniqueKeysWithValues: fit.values.map { ($0.key, $0.after) })
        candidate.curve = curve.with(curve.parts.map { values[names.animation + "." + $0.part]! })
        for number in kind.numbers { candidate.numbers[number.suffix] = values[names.params[number.suffix]!] }
        if kind.hasRect { candidate.rect = ScreenChange.rect.map { values[names.params[$0]!]! } }
        candidate.drag = names.drag.map { (values[$0.animation + ".duration"]!, values[$0.progress]!) }
        candidate.start = origin + hold - fit.offsetAfter
        candidate.residual = fit.residuals.first?.rmsAfter
        candidate.explained = fit.explainedMotion
        return (candidate, fit.residuals.first?.rmsAfter ?? .infinity)
    }
}
