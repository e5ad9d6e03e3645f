import Foundation

/// One assertion's frames checked against its folder of references: what was recorded, what
/// was removed, and the failures, each said once. Pure of any test framework, so that
/// `assertFrames` only reports what this finds.
struct ReferenceCheck {
    /// Every message to report, failures and recordings alike (each fails the test).
    private(set) var messages: [String] = []
    /// The PNGs (and record) written.
    private(set) var recorded: [String] = []
    /// The PNGs removed because no moment asks for them any more.
    private(set) var removed: [String] = []

    init(
        _ frames: [Frame], taken: ReferenceRecord, name: String, folder: String, tolerance: Tolerance,
        mode: RecordMode, artifacts: String
    ) throws {
        let old = try ReferenceRecord.read(in: folder)
        if mode != .all, let old {
            let changes = taken.changes(since: old)
            guard changes.isEmpty else {
                messages.append(
                    """
                    \(name): the references in \(folder) were taken of something else: \(changes.joined(separator: "; ")). \
                    If the change is meant, look at the new frames and re-record with FLIPBOOK_RECORD=all, which also \
                    removes references no longer asked for
                    """)
                return
            }
        }
        let failures = artifacts + "/" + name
        var differing: [(frame: Frame, difference: FrameDifference?)] = []
        var missing: [Frame] = []
        for frame in frames {
            let path = folder + "/" + ReferenceRecord.pngName(frame.time)
            let exists = FileManager.default.fileExists(atPath: path)
            if mode == .all || (!exists && mode != .never) {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try frame.bitmap.writePNG(to: path)
                recorded.append(path)
                continue
            }
            guard exists else {
                missing.append(frame)
                continue
            }
            let expected = try Bitmap(png: path)
            let difference = FrameComparison.compare(frame.bitmap, expected, tolerance: tolerance)
            if difference.passes { continue }
            if mode == .failed {
                try frame.bitmap.writePNG(to: path)
                recorded.append(path)
                continue
            }
            differing.append((frame, difference))
            try FailureArtifacts.write(
                actual: frame.bitmap, expected: expected, tolerance: tolerance,
                to: failures + "/" + String(format: "t%.3f", frame.time))
        }
        if mode == .all { try removeUnasked(in: folder, keeping: Set(frames.map { ReferenceRecord.pngName($0.time) })) }
        if old == nil && mode == .never {
            messages.append(
                "\(name): no \(ReferenceRecord.fileName) in \(folder) says what its references were taken of (FLIPBOOK_RECORD=missing records it; CI never records)"
            )
        } else if old != taken, mode != .never {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try taken.write(in: folder)
            recorded.append(folder + "/" + ReferenceRecord.fileName)
        }
        report(
            name: name, folder: folder, frames: frames.count, missing: missing, differing: differing,
            tolerance: tolerance, failures: failures)
    }

    private mutating func removeUnasked(in folder: String, keeping asked: Set<String>) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for file in names.sorted() where file.hasPrefix("t") && file.hasSuffix(".png") && !asked.contains(file) {
            try FileManager.default.removeItem(atPath: folder + "/" + file)
            removed.append(file)
        }
    }

    private mutating func report(
        name: String, folder: String, frames: Int, missing: [Frame],
        differing: [(frame: Frame, difference: FrameDifference?)],
        tolerance: Tolerance, failures: String
    ) {
        func seconds(_ t: Double) -> String { String(format: "%.3f s", t) }
        let pngs = recorded.filter { $0.hasSuffix(".png") }.count
        if pngs > 0 {
            messages.append(
                "recorded \(pngs) reference frame\(pngs == 1 ? "" : "s") of \(name) in \(folder): look at them, then commit them"
            )
        } else if !recorded.isEmpty {
            messages.append(
                "recorded what the references of \(name) were taken of, in \(recorded[0]): look at it, then commit it")
        }
        if !removed.isEmpty {
            messages.append(
                "removed \(removed.count) reference\(removed.count == 1 ? "" : "s") of \(name) no longer asked for: \(removed.joined(separator: ", "))"
            )
        }
        if let first = missing.first {
            messages.append(
                "\(name): no reference frame at \(seconds(first.time)) in \(folder) (FLIPBOOK_RECORD=missing records it; CI never records)"
            )
        }
        guard let first = differing.first else { return }
        let worst = differing.max { $0.difference!.differingPixels < $1.difference!.differingPixels }!
        func describe(_ d: (frame: Frame, difference: FrameDifference?)) -> String {
            let x = d.difference!
            if x.sizeMismatch { return "\(seconds(d.frame.time)) (the sizes differ: \(x.sizes))" }
            return "\(seconds(d.frame.time)) (\(x.differingPixels) pixels, "
                + String(format: "%.3f%%", x.differingFraction * 100)
                + ", largest channel difference \(x.maxChannelDelta)\(x.worstPixel.map { " at (\($0.x), \($0.y))" } ?? ""))"
        }
        messages.append(
            """
            \(name): \(differing.count) of \(frames) frames differ from their references (\(tolerance.summary)); \
            first at \(describe(first)), worst at \(describe(worst)). Wrote actual, expected, diff and sheet PNGs to \(failures)
            """)
    }
}
