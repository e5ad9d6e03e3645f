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
/// Beside the PNGs, `references.json` records what they were taken of: the scene, the
/// storyboard and its length, the moments, the frame size and the scale. When any of those
/// changes, the assertion fails saying what changed, whatever the record mode but `all`, so a
/// timing change never passes as a first recording.
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
    let taken = ReferenceRecord(
        scene: transition.name, storyboard: transition.storyboard, length: transition.duration, frames: frames,
        scale: transition.scale)
    try assertFrames(
        frames, taken: taken, named: name ?? testName(function), tolerance: tolerance, record: record,
        artifacts: artifacts, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Checks frames already in hand against reference PNGs stored beside the test file; their
/// moments and size are recorded beside them, as `assertFrames(of:)` records its transition's.
public func assertFrames(
    _ frames: [Frame], named name: String, tolerance: Tolerance = .exact, record: RecordMode? = nil,
    artifacts: String? = nil, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) throws {
    try assertFrames(
        frames, taken: ReferenceRecord(frames: frames), named: name, tolerance: tolerance, record: record,
        artifacts: artifacts, fileID: fileID, filePath: filePath, line: line, column: column)
}

func assertFrames(
    _ frames: [Frame], taken: ReferenceRecord, named name: String, tolerance: Tolerance, record: RecordMode?,
    artifacts: String?, fileID: String, filePath: StaticString, line: UInt, column: UInt
) throws {
    let file = URL(fileURLWithPath: "\(filePath)")
    let folder = file.deletingLastPathComponent().appendingPathComponent("__Frames__")
        .appendingPathComponent(file.deletingPathExtension().lastPathComponent).appendingPathComponent(name).path
    let check = try ReferenceCheck(
        frames, taken: taken, name: name, folder: folder, tolerance: tolerance,
        mode: record ?? FrameTesting.current.record, artifacts: artifacts ?? FrameTesting.current.artifacts)
    for message in check.messages {
        report(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
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
