import Foundation

/// When reference frames are written instead of compared, as swift-snapshot-testing's record
/// modes: set by `FLIPBOOK_RECORD`, by `withFrameTesting(record:)` for a scope, or per call.
/// CI (any `CI` variable) never records unless a scope or a call says so.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Compare only; a missing reference is a failure.
    case never
    /// Record references that do not exist yet; compare the rest (the default off CI).
    case missing
    /// Re-record references that differ.
    case failed
    /// Record every reference, and remove those no longer asked for.
    case all

    /// `FLIPBOOK_RECORD`, or `missing`; always `never` when `CI` is set.
    public static var fromEnvironment: RecordMode {
        let environment = ProcessInfo.processInfo.environment
        if environment["CI"] != nil { return .never }
        return environment["FLIPBOOK_RECORD"].flatMap(RecordMode.init(rawValue:)) ?? .missing
    }
}
