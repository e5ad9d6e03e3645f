import ArgumentParser
import Flipbook
import Foundation

/// Options that pick and adjust a scene, shared by render and plan. Flags win over the
/// config file, which wins over the scene's defaults.
struct SceneOptionGroup: ParsableArguments {
    @Argument(help: SceneOptionGroup.sceneHelp, completion: SceneOptionGroup.sceneCompletion)
    var scene: String

    @OptionGroup var flags: ExportFlags<SceneFlags>

    func validate() throws {
        try SceneOptionGroup.validate(scene: scene)
        let request = try self.request()
        try FlipbookCLI.presenting {
            try ExportRequest.check(fps: request.fps, scale: request.scale, width: request.width)
        }
    }

    /// A request for the scene, with these flags set.
    func request() throws -> ExportRequest {
        var request = ExportRequest(scene: scene)
        try flags.apply(to: &request)
        return request
    }

    /// The help of a scene argument that takes a built-in's name or a scene file's path.
    static let sceneHelp = ArgumentHelp(
        "A built-in scene (\(SceneCatalog.names.joined(separator: ", "))), an example (\(SceneCatalog.examples.joined(separator: ", "))) or a scene file's path.",
        valueName: "scene")

    /// Completes a scene argument: the built-ins' names, then scene files and folders.
    static let sceneCompletion = CompletionKind.custom { _, _, prefix in sceneCandidates(prefix) }

    static func sceneCandidates(_ prefix: String) -> [String] {
        SceneCatalog.allNames.filter { $0.hasPrefix(prefix) } + sceneFiles(matching: prefix)
    }

    /// Completes a storyboard: those of the scene the command line names (a built-in's name or
    /// a scene file's path), or of every built-in when it names none yet.
    static let storyboardCompletion = CompletionKind.custom { words, _, prefix in
        storyboardCandidates(words: words, prefix: prefix)
    }

    static func storyboardCandidates(words: [String], prefix: String) -> [String] {
        let named = words.first {
            SceneCatalog.allNames.contains($0) || ($0.hasSuffix(".yaml") && SceneCatalog.isFile($0))
        }
        let scenes = named.map { [$0] } ?? SceneCatalog.names
        let boards = scenes.flatMap { (try? SceneCatalog.file(named: $0))?.storyboards ?? [] }
        var seen = Set<String>()
        return boards.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
    }

    /// The `.yaml` files and the folders whose paths start with `prefix`.
    static func sceneFiles(matching prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return entries.sorted().compactMap { name in
            let path = folder + name
            guard path.hasPrefix(prefix), !name.hasPrefix(".") else { return nil }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
            if isFolder.boolValue { return path + "/" }
            return name.hasSuffix(".yaml") ? path : nil
        }
    }

    /// A built-in scene's name or a scene file's path.
    static func validate(scene: String) throws {
        do { try SceneCatalog.check(scene: scene) } catch { throw ValidationError("\(error)") }
    }

    /// The scene, with the options applied.
    func prepare() throws -> PreparedScene {
        let request = try self.request()
        return try Self.presenting { try request.prepare() }
    }

    /// A bad `--set` or `--storyboard` is a bad option (exit 64), as any other.
    static func presenting<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as ConfigError where error.assignment != nil {
            throw ValidationError(error.onCommandLine.description)
        } catch let error as SceneError {
            if case .unknownStoryboard = error { throw ValidationError("--storyboard: \(error)") }
            // A width or scale given as a flag that makes frames too large is a bad option.
            if case .frameTooLarge(_, _, _, let setting) = error {
                if case .settingsScale = setting {} else { throw ValidationError(error.onCommandLine) }
            }
            throw error
        }
    }
}
