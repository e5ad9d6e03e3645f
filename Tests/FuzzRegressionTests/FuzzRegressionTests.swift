import Foundation
import FuzzTargets
import Testing

/// Inputs the fuzzer (Scripts/fuzz) once crashed on, and the known bad inputs of the issues it
/// was written for, run through the same targets: each must now end in an error or a result.
@Suite("Fuzz regressions: every saved input runs without a crash")
struct FuzzRegressionTests {
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Inputs")
        .path

    static var cases: [(FuzzTarget, String)] {
        FuzzTarget.allCases.flatMap { target in
            ((try? FileManager.default.contentsOfDirectory(atPath: "\(inputs)/\(target.rawValue)")) ?? []).sorted().map
            { (target, $0) }
        }
    }

    @Test("A saved input runs to an error or a result", arguments: cases)
    func replay(target: FuzzTarget, name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.inputs)/\(target.rawValue)/\(name)")))
        target.run(bytes)
    }
}
