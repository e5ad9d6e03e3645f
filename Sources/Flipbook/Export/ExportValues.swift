import Codecs
import Foundation

/// A file size: `5MB`, `800KB`, `1.5MiB` or plain bytes. Decimal units are powers of 1000 (as
/// GitHub and Slack state their limits), binary ones of 1024. It keeps its spelling, so a
/// request prints it as it was given.
public struct ByteSize: Sendable, Hashable, CustomStringConvertible {
    public let bytes: Int
    /// As given: `950kB`.
    public let description: String

    /// Reads `text`; nil unless it is a size of at least 1 KiB.
    public init?(_ text: String) {
        let units: [(String, Double)] = [
            ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824), ("kb", 1e3), ("mb", 1e6), ("gb", 1e9),
            ("k", 1e3), ("m", 1e6), ("g", 1e9), ("b", 1),
        ]
        let lower = text.trimmingCharacters(in: .whitespaces).lowercased()
        let (digits, factor) =
            units.first { lower.hasSuffix($0.0) }.map { (String(lower.dropLast($0.0.count)), $0.1) } ?? (lower, 1)
        guard let value = Double(digits.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0,
            value * factor < 1e12, Int((value * factor).rounded(.down)) >= 1024
        else { return nil }
        bytes = Int((value * factor).rounded(.down))
        description = text
    }

    /// What a bad size is told.
    public static let expected = "expected a size of at least 1 KiB, such as 5MB, 800KB or 1.5MiB"
}

/// `A-B` or `N`: 0-based frame numbers of a render, inclusive.
public struct FrameRange: Sendable, Hashable, CustomStringConvertible {
    public let range: ClosedRange<Int>

    public init(_ range: ClosedRange<Int>) { self.range = range }

    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        if parts.count == 1, let a = parts[0], a >= 0 {
            range = a...a
        } else if parts.count == 2, let a = parts[0], let b = parts[1], a >= 0, b >= a {
            range = a...b
        } else {
            return nil
        }
    }

    /// As given: `30-45`, or `7` for one frame.
    public var description: String {
        range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
    }

    /// What a bad range is told.
    public static let expected = "expected A-B (0-based, inclusive) or N"
}

/// How many times a GIF or a WebP plays.
public enum LoopCount: Sendable, Hashable, CustomStringConvertible {
    case forever
    case plays(Int)

    public init?(_ text: String) {
        if text == "forever" || text == "0" {
            self = .forever
        } else if let n = Int(text), GIFOptions.validPlays.contains(n) {
            self = .plays(n)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .forever: "forever"
        case .plays(let n): "\(n)"
        }
    }
}

/// What an export writes, told by its output path.
public enum ExportFormat: Sendable, Hashable {
    /// One animated file, in a registered format.
    case animation(AnimationFormat)
    /// A PNG of one moment.
    case still
    /// A folder of numbered PNG frames.
    case sequence

    /// The extension of a PNG still, a contact sheet and each frame of a sequence.
    public static let pngExtension = ".png"

    /// The extension a file of this format is named by; none for a folder.
    public var fileExtension: String? {
        switch self {
        case .animation(let format): format.extensions[0]
        case .still: Self.pngExtension
        case .sequence: nil
        }
    }

    /// The format `path` asks for: a folder (a path ending in `/`, or one without a file's
    /// extension that is a folder now), the format its extension names, and otherwise a GIF. A
    /// folder named like a file (`out.gif/`) stays that file's format, which the output rules
    /// refuse.
    public init(path: String) {
        let named =
            AnimationFormat.named(by: path).map(Self.animation)
            ?? (path.lowercased().hasSuffix(Self.pngExtension) ? .still : nil)
        if path.hasSuffix("/")
            || (named == nil
                && (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType)
                    == .typeDirectory)
        {
            self = .sequence
        } else {
            self = named ?? .animation(AnimationFormat.all[0])
        }
    }

    /// Whether it is one animated file, which a size budget can fit.
    public var isAnimated: Bool { animation != nil }

    /// The animated format, for one.
    public var animation: AnimationFormat? {
        if case .animation(let format) = self { return format }
        return nil
    }
}
