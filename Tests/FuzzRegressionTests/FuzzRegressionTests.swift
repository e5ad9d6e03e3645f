import Foundation
import FuzzTargets
import Testing

/// Inputs the fuzzer (Scripts/fuzz) once crashed on, and the known bad inputs of the issues it
/// was written for, run through the same targets: each must now end in an error or a result.
@Suite("Fuzz regressions: every saved input runs without a crash")
struct FuzzRegressionTests {
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Inputs")
        .path

    /// Every saved input, by target; a folder that is missing reads as none, which the test
    /// below refuses, so that a moved folder cannot pass with nothing run.
    static var cases: [(FuzzTarget, String)] {
        FuzzTarget.allCases.flatMap { target in
            ((try? FileManager.default.contentsOfDirectory(atPath: "\(inputs)/\(target.rawValue)")) ?? []).sorted().map
            { (target, $0) }
        }
    }

    @Test("Every target has saved inputs to replay: a missing folder fails rather than passing on none")
    func everyTargetHasInputs() {
        let counts = Dictionary(grouping: Self.cases, by: \.0).mapValues(\.count)
        for target in FuzzTarget.allCases {
            #expect((counts[target] ?? 0) >= 1, "no saved inputs for \(target.rawValue) in \(Self.inputs)")
        }
        #expect(Self.cases.count >= 30, "\(Self.cases.count) saved inputs")
    }

    @Test("A saved input runs to an error or a result", arguments: cases)
    func replay(target: FuzzTarget, name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.inputs)/\(target.rawValue)/\(name)")))
        target.run(bytes)
    }
}
