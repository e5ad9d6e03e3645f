import Foundation

/// A small deterministic generator (SplitMix64), so random test cases are the same on every run.
public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `0..<n`.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// A fresh empty folder for one test.
public func temporaryFolder(_ name: String = #function) -> String {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-\(safe)-\(UUID().uuidString)")
        .path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
