import Foundation

#if canImport(Testing)
    import Testing
#endif

/// The settings `assertFrames` uses where a call does not name them, scoped to a task and what
/// it calls (as swift-snapshot-testing's `withSnapshotTesting`): no global to set and forget,
/// and tests running in parallel each see their own.
public struct FrameTesting: Sendable {
    /// When references are recorded.
    public var record: RecordMode
    /// Where failure artefacts are written.
    public var artifacts: String

    /// The settings in effect: the innermost `withFrameTesting`, else the environment's
    /// (`FLIPBOOK_RECORD`, `CI`, `FLIPBOOK_ARTIFACTS`).
    public static var current: FrameTesting { scoped ?? .fromEnvironment }

    /// `RecordMode.fromEnvironment`, and `FLIPBOOK_ARTIFACTS` or `flipbook-failures` in the
    /// temporary folder.
    public static var fromEnvironment: FrameTesting {
        let folder = ProcessInfo.processInfo.environment["FLIPBOOK_ARTIFACTS"] ?? ""
        return FrameTesting(
            record: .fromEnvironment,
            artifacts: folder.isEmpty
                ? FileManager.default.temporaryDirectory.appendingPathComponent("flipbook-failures").path : folder)
    }

    @TaskLocal static var scoped: FrameTesting?
}

/// Runs `operation` with `assertFrames` defaulting to `record` and `artifacts` (those not given
/// stay as they were).
public func withFrameTesting<R>(
    record: RecordMode? = nil, artifacts: String? = nil, operation: () throws -> R
) rethrows -> R {
    var settings = FrameTesting.current
    if let record { settings.record = record }
    if let artifacts { settings.artifacts = artifacts }
    return try FrameTesting.$scoped.withValue(settings, operation: operation)
}

/// `withFrameTesting` for async work.
public func withFrameTesting<R>(
    record: RecordMode? = nil, artifacts: String? = nil, operation: () async throws -> R
) async rethrows -> R {
    var settings = FrameTesting.current
    if let record { settings.record = record }
    if let artifacts { settings.artifacts = artifacts }
    return try await FrameTesting.$scoped.withValue(settings, operation: operation)
}

#if canImport(Testing)
    /// A test or suite trait that scopes `assertFrames`' settings, as `withFrameTesting` does:
    /// `@Test(.frameTesting(record: .all))`.
    public struct FrameTestingTrait: TestTrait, SuiteTrait, TestScoping {
        let record: RecordMode?
        let artifacts: String?

        public var isRecursive: Bool { true }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            try await withFrameTesting(record: record, artifacts: artifacts, operation: function)
        }
    }

    extension Trait where Self == FrameTestingTrait {
        /// Scopes `assertFrames`' record mode and artefacts folder to this test or suite.
        public static func frameTesting(record: RecordMode? = nil, artifacts: String? = nil) -> Self {
            FrameTestingTrait(record: record, artifacts: artifacts)
        }
    }
#endif
