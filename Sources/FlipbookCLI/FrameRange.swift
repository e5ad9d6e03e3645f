import ArgumentParser

/// `--frames A-B` or `--frames N`: 0-based frame numbers of a render, inclusive.
struct FrameRange: ExpressibleByArgument, Equatable, CustomStringConvertible {
    let range: ClosedRange<Int>

    init(_ range: ClosedRange<Int>) { self.range = range }

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        if parts.count == 1, let a = parts[0], a >= 0 {
            range = a...a
        } else if parts.count == 2, let a = parts[0], let b = parts[1], a >= 0, b >= a {
            range = a...b
        } else {
            return nil
        }
    }

    /// As given: `30-45`, or `7` for one frame.
    var description: String { range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)" }

    static var defaultValueDescription: String { "A-B or N" }

    /// For `@Option(transform:)`: a bad value's error says what was expected.
    static func parse(_ text: String) throws -> FrameRange {
        guard let range = FrameRange(argument: text) else {
            throw ValidationError("expected A-B (0-based, inclusive) or N")
        }
        return range
    }
}
