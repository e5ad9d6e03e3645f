import Flipbook

/// What a build key says of the tool that makes the pixels: a digest of the code that decides an
/// output's bytes (taken when the tool was built), and the versions of the C libraries that
/// encode them, as they run. A change to either makes every output stale, with no version to
/// bump; a new version whose rendering code is the same, or a change to the tool's words, its
/// studio or its docs, does not.
public struct ToolIdentity: Sendable, Equatable, CustomStringConvertible {
    public var version: String
    /// The digest of the rendering code's sources, written by the build.
    public var sources: String
    /// Each C library's name and version.
    public var libraries: [String]

    public init(version: String, sources: String, libraries: [String]) {
        self.version = version
        self.sources = sources
        self.libraries = libraries
    }

    /// This tool, as it runs.
    public static func current(version: String) -> ToolIdentity {
        ToolIdentity(
            version: version, sources: renderingSourcesDigest,
            libraries: EncoderLibraries.versions)
    }

    /// What an output's key holds of the tool: all but its version.
    var keyed: String { (["rendering code \(sources)"] + libraries).joined(separator: ", ") }

    /// One line: `flipbook 0.2.0, rendering code 1a2b3c4d5e6f, libpng 10639, …`.
    public var description: String {
        (["flipbook \(version)", "rendering code \(sources.prefix(12))"] + libraries).joined(separator: ", ")
    }
}
