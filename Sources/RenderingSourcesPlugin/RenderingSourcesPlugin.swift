import Foundation
import PackagePlugin

/// Writes the digest of the sources that decide an output's bytes into the target it is applied
/// to (`renderingSourcesDigest`), so that a build key names the code its pixels came from: a
/// changed line of raster, planner, scene or encoder code makes every output stale, while a
/// change to a comment, the layout, an error's or a warning's words (`KeyedSource`), the CLI or
/// the studio's page does not.
@main
struct RenderingSourcesPlugin: BuildToolPlugin {
    /// The modules whose code decides what a render or an export writes, byte for byte. Build's
    /// own stamp has a version of its recipe instead (`BuildPlan.keyVersion`), so that a change
    /// to how manifests are read stales nothing.
    static let modules: Set<String> = [
        "Geometry", "Planner", "Scenes", "Raster", "Render", "GIFCore", "Codecs", "Video", "Flipbook",
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let inputs = context.package.targets
            .filter { Self.modules.contains($0.name) }
            .compactMap { $0 as? SourceModuleTarget }
            .flatMap { $0.sourceFiles.map(\.url).filter { $0.pathExtension == "swift" } }
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "RenderingSources.swift")
        // Each file's keyed text (source-key: no comments, no layout, no error or warning
        // text), named by its path in the package, then the digest of them all: a file moved,
        // added or removed counts as well as one changed.
        let root = context.package.directoryURL.path
        let tool = try context.tool(named: "source-key").url
        let script = """
            out="$1" && shift && "$@" > "$out.keyed" && \
            digest=$( (sha256sum 2>/dev/null || shasum -a 256) < "$out.keyed" | cut -c1-64) && \
            printf '/// The digest of the sources that decide an output'"'"'s bytes, written at build time.\\nlet renderingSourcesDigest = "%s"\\n' "$digest" > "$out"
            """
        return [
            .buildCommand(
                displayName: "Digesting the rendering sources of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", output.path, tool.path, root] + inputs.map(\.path),
                inputFiles: inputs + [tool],
                outputFiles: [output])
        ]
    }
}
