import Foundation
import Geometry

import Flipbook

/// What a score shows a person: the recording and the render side by side, and a sheet of
/// every frame of motion, both rows labelled, each frame marked where the two differ most.
struct ScorePictures {
    let recorded: RecordedSide
    let rendered: RenderedSide
    let tracks: [(RecordingFeature, [Double?], [Double?])]
    let result: ScoreResult
    /// Where the recording is read again, a frame at a time, for the pictures.
    let source: RecordingSource

    /// A frame's marks are drawn where its features differ by more than this many pixels.
    static let markedError = 2.0

    /// Frame `i`'s marks on each side: the feature that differs most there, where each side
    /// has it, when it differs by more than `markedError`.
    func marks(_ i: Int) -> (recording: [PixelRect], render: [PixelRect]) {
        var worst: (RecordingFeature, Double, Double)?
        for (feature, a, b) in tracks where i < a.count && i < b.count {
            guard let p = a[i], let o = b[i], abs(o - p) > Self.markedError else { continue }
            if worst == nil || abs(o - p) > abs(worst!.2 - worst!.1) { worst = (feature, p, o) }
        }
        guard let (feature, p, o) = worst else { return ([], []) }
        return ([feature.mark(at: p)], [feature.mark(at: o)])
    }

    func seconds(_ i: Int) -> String { String(format: "%.2f s", Double(i) * recorded.interval) }

    /// The recording's frame `i`, whole, read again in order.
    func recording(_ i: Int, _ reader: RecordingRereader) throws -> ScoreImage {
        ScoreImage(try reader.frame(recorded.stored[i]))
    }

    func writeSideBySide(to path: String) throws -> String {
        let reader = RecordingRereader(try source.open())
        let written = try SideBySide.write(count: recorded.count, interval: recorded.interval, to: path) { i in
            let m = marks(i)
            let ours = i < rendered.frames.count ? try rendered.picture(i).bitmap(marks: m.render) : nil
            return SideBySide.frame(
                try recording(i, reader).bitmap(marks: m.recording), ours,
                labels: ("recording \(seconds(i))", "Flipbook"))
        }
        return written.line + "; the recording left, ours right, marked where they differ by more than 2 px"
    }

    /// Every frame in a stretch of motion (evenly thinned past 96), twelve to a row pair.
    func writeSheet(to path: String) throws -> String {
        let count = recorded.count
        var picks = Set(
            result.features.flatMap { $0.stretches }.flatMap { s in
                Int((s.start / recorded.interval).rounded())...Int((s.end / recorded.interval).rounded())
            }
        ).filter { $0 < count }.sorted()
        if picks.isEmpty { picks = Array(0..<count) }
        if picks.count > 96 { picks = (0..<96).map { picks[$0 * (picks.count - 1) / 95] } }
        let columns = min(12, picks.count)
        var sheet = ContactSheet(columns: columns, cellWidth: 150)
        let blank = Bitmap(
            width: recorded.size.width, height: recorded.size.height, fill: .init(r: 229, g: 229, b: 234, a: 255))
        let reader = RecordingRereader(try source.open())
        for start in stride(from: 0, to: picks.count, by: columns) {
            let row = Array(picks[start..<min(picks.count, start + columns)])
            let padded = row + [Int](repeating: -1, count: columns - row.count)
            for i in padded {
                sheet.add(
                    i < 0 ? blank : try recording(i, reader).bitmap(marks: marks(i).recording),
                    label: i < 0 ? "" : "rec \(seconds(i))")
            }
            for i in padded {
                let ours =
                    i >= 0 && i < rendered.frames.count ? try rendered.picture(i).bitmap(marks: marks(i).render) : blank
                sheet.add(ours, label: i < 0 ? "" : "ours \(seconds(i))")
            }
        }
        try sheet.render().writePNG(to: path)
        return
            "wrote \(path): \(picks.count) frames of motion, the recording's row above ours, marked where they differ by more than 2 px"
    }
}
