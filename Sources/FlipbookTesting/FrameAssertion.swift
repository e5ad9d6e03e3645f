@_exported import Flipbook
import Foundation
#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Checks a transition's frames against reference PNGs stored beside the test file, in
/// `__Frames__/FILE/NAME/t1.250.png`. With Swift Testing or XCTest alike, one line in a test:
///
/// ```swift
/// try assertFrames(of: Transition("expanding-cells"), at: [0.5, 1.2, 1.8])
/// ```
///
/// References are recorded per `record` (default `RecordMode.fromEnvironment`); a recording
/// fails the test, so that it is looked at before it is committed. A frame that differs past
/// the tolerance fails the test, naming the first and the worst frame, and its actual,
/// expected, diff and side-by-side PNGs are written to `artifacts` (default
/// `FLIPBOOK_ARTIFACTS`, or `flipbook-failures` in the temporary folder).
public func assertFrames(
    of transition: Transition, at times: [Double]? = nil, named name: String? = nil,
    tolerance: Tolerance = .exact, record: RecordMode? = nil, artifacts: String? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, function: String = #function,
    line: UInt = #line, column: UInt = #column
) throws {
    let times = times ?? keyTimes(of: transition)
    let frames = try transition.frames(at: times)
    try assertFrames(
        frames, named: name ?? testName(function), tolerance: tolerance, record: record, artifacts: artifacts,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Checks frames already in hand against reference PNGs stored beside the test file.
public func assertFrames(
    _ frames: [Frame], named name: String, tolerance: Tolerance = .exact, record: RecordMode? = nil,
    artifacts: String? = nil, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) throws {
    let mode = record ?? .fromEnvironment
    let file = URL(fileURLWithPath: "\(filePath)")
    let folder = file.deletingLastPathComponent().appendingPathComponent("__Frames__")
        .appendingPathComponent(file.deletingPathExtension().lastPathComponent).appendingPathComponent(name).path
    let failures = (artifacts ?? defaultArtifactsFolder) + "/" + name
    var recorded: [String] = []
    var differing: [(frame: Frame, difference: FrameDifference?, missing: Bool)] = []
    var written: [String] = []
    for frame in frames {
        let path = folder + "/" + String(format: "t%.3f.png", frame.time)
        let exists = FileManager.default.fileExists(atPath: path)
        if mode == .all || (!exists && mode != .never) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try frame.bitmap.writePNG(to: path)
            recorded.append(path)
            continue
        }
        guard exists else {
            differing.append((frame, nil, true))
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
        differing.append((frame, difference, false))
        written += try FailureArtifacts.write(
            actual: frame.bitmap, expected: expected, tolerance: tolerance,
            to: failures + "/" + String(format: "t%.3f", frame.time))
    }
    func seconds(_ t: Double) -> String { String(format: "%.3f s", t) }
    if !recorded.isEmpty {
        report(
            "recorded \(recorded.count) reference frame\(recorded.count == 1 ? "" : "s") of \(name) in \(folder): look at them, then commit them",
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
    guard !differing.isEmpty else { return }
    if let missing = differing.first(where: \.missing) {
        report(
            "\(name): no reference frame at \(seconds(missing.frame.time)) in \(folder) (FLIPBOOK_RECORD=missing records it; CI never records)",
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
    let compared = differing.filter { !$0.missing }
    guard let first = compared.first else { return }
    let worst = compared.max { $0.difference!.differingPixels < $1.difference!.differingPixels }!
    func describe(_ d: (frame: Frame, difference: FrameDifference?, missing: Bool)) -> String {
        let x = d.difference!
        if x.sizeMismatch { return "\(seconds(d.frame.time)) (the sizes differ)" }
        return "\(seconds(d.frame.time)) (\(x.differingPixels) pixels, "
            + String(format: "%.3f%%", x.differingFraction * 100)
            + ", largest channel difference \(x.maxChannelDelta)\(x.worstPixel.map { " at (\($0.x), \($0.y))" } ?? ""))"
    }
    report(
        """
        \(name): \(compared.count) of \(frames.count) frames differ from their references (\(tolerance.summary)); \
        first at \(describe(first)), worst at \(describe(worst)). Wrote actual, expected, diff and sheet PNGs to \(failures)
        """, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Eight moments spread over the storyboard, each at a frame's start: enough to catch a
/// change of motion, few enough to keep in a repository.
func keyTimes(of transition: Transition) -> [Double] {
    let all = transition.frameTimes
    guard all.count > 8 else { return all }
    return (0..<8).map { all[$0 * (all.count - 1) / 7] }
}

/// `inboxExpand()` → `inboxExpand`.
func testName(_ function: String) -> String {
    let base = function.split(separator: "(").first.map(String.init) ?? function
    return base.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
}

/// Records a failure in whichever framework runs the test.
func report(_ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt) {
    #if canImport(Testing)
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column)))
            return
        }
    #endif
    #if canImport(XCTest)
        XCTFail(message, file: filePath, line: line)
    #else
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    #endif
}
