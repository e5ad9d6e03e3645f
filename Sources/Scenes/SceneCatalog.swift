import Foundation
import Geometry
import Planner

/// A scene ready to plan: its config read, overrides applied, images located.
public struct PreparedScene: Sendable {
    public let name: String
    /// The scene file it was read from.
    public let file: String
    public let settings: SceneSettings
    public let images: [SceneImage]
    public let storyboards: [String]
    /// The params the scene declares, and the sections that group them.
    public let params: [SceneParamInfo]
    public let sections: [SceneParamSection]
    /// The effective values: defaults, then the config, then the assignments.
    public let values: SceneParams
    let makePlan: @Sendable (ImageSizes) throws -> ScenePlan
    let makeSetting: @Sendable ([String]) throws -> PreparedScene
    let renderConfig: @Sendable (_ unread: Set<String>) -> String

    /// The effective config, as YAML: printed when asked (a fit's trials make thousands of
    /// scenes and print none).
    public var configYAML: String { renderConfig([]) }

    /// The effective config as YAML, each param in `unread` marked as one the chosen
    /// storyboard does not read.
    public func configYAML(marking unread: Set<String>) -> String { renderConfig(unread) }

    /// The plan, given the images' pixel sizes.
    public func plan(sizes: ImageSizes) throws -> Plan { try makePlan(sizes).plan }

    /// The plan with the params it reads and its phases, given the images' pixel sizes.
    public func scenePlan(sizes: ImageSizes) throws -> ScenePlan { try makePlan(sizes) }

    /// The scene with `assignments` (`"present.duration=0.7"`) made over these values: what
    /// it would do with a value changed, without reading the file again.
    public func setting(_ assignments: [String]) throws -> PreparedScene { try makeSetting(assignments) }
}

/// Command-line settings that win over the config file.
public struct SceneOverrides: Sendable {
    public var storyboard: String?
    public var fps: Double?
    public var scale: Int?
    /// Output width in pixels, instead of a scale.
    public var width: Int?

    public init(storyboard: String? = nil, fps: Double? = nil, scale: Int? = nil, width: Int? = nil) {
        self.storyboard = storyboard
        self.fps = fps
        self.scale = scale
        self.width = width
    }
}

/// The built-in scenes, each a scene file under `Assets/NAME/NAME.yaml` beside its images;
/// any other scene file is named by its path.
public enum SceneCatalog {
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        public let storyboards: [String]
    }

    /// The built-in scenes' names, in the order `flipbook list` shows them.
    public static let names = ["expanding-cells", "sliding-panels", "expanding-view", "app-store-card"]

    /// The example scenes shipped beside them (`Assets/examples/NAME/NAME.yaml`): named like
    /// the built-ins, listed apart, and as read-only.
    public static let examples = ["nav-push"]

    /// A config shipped as an example (`Assets/examples/NAME/SCENE.yaml`, with the images it
    /// names beside it): a built-in played on another app's screenshots.
    public struct ExampleConfig: Sendable {
        public let name: String
        /// The built-in scene it configures.
        public let scene: String

        /// Its folder in the installation.
        public var folder: String { (installRoot as NSString).appendingPathComponent("Assets/examples/\(name)") }
        /// The config file, named after its scene.
        public var path: String { (folder as NSString).appendingPathComponent("\(scene).yaml") }
    }

    /// The example configs, by name.
    public static let exampleConfigs = [ExampleConfig(name: "byo-notes", scene: "expanding-cells")]

    /// The example config named `name`, if one is.
    public static func exampleConfig(named name: String) -> ExampleConfig? {
        exampleConfigs.first { $0.name == name }
    }

    /// Every scene a name gives: the built-ins, then the examples.
    public static var allNames: [String] { names + examples }

    /// Every built-in scene, read from its file.
    public static var entries: [Entry] { entries(of: names) }

    /// Every example scene, read from its file.
    public static var exampleEntries: [Entry] { entries(of: examples) }

    private static func entries(of names: [String]) -> [Entry] {
        names.compactMap { try? file(named: $0) }.map {
            Entry(name: $0.name, summary: $0.summary, storyboards: $0.storyboards)
        }
    }

    /// Whether `scene` names a scene file rather than a built-in scene.
    public static func isFile(_ scene: String) -> Bool {
        scene.hasSuffix(".yaml") || scene.hasSuffix(".yml") || scene.contains("/")
    }

    /// The path of a built-in or example scene's file.
    public static func path(of name: String) -> String {
        let folder = examples.contains(name) ? "Assets/examples" : "Assets"
        return (installRoot as NSString).appendingPathComponent("\(folder)/\(name)/\(name).yaml")
    }

    /// A built-in scene (by name) or a scene file (by path), read and checked.
    public static func file(named scene: String) throws -> SceneFile {
        try check(scene: scene)
        return try SceneFile.load(path: isFile(scene) ? scene : path(of: scene))
    }

    /// Throws unless `scene` names a built-in or looks like a scene file's path; the file
    /// itself is read later.
    public static func check(scene: String) throws {
        guard isFile(scene) || allNames.contains(scene) else { throw SceneError.unknownScene(scene, known: allNames) }
    }

    /// Reads `configFile` (if any) over the scene's defaults, then each `--set` assignment, then
    /// `overrides`: flags over the file over defaults.
    public static func prepare(
        _ scene: String, configFile: String? = nil, assignments: [String] = [],
        overrides: SceneOverrides = SceneOverrides()
    ) throws -> PreparedScene {
        try file(named: scene).prepare(configFile: configFile, assignments: assignments, overrides: overrides)
    }

    static func apply(_ o: SceneOverrides, to s: SceneSettings) -> SceneSettings {
        var s = s
        if let storyboard = o.storyboard { s.storyboard = storyboard }
        if let fps = o.fps { s.fps = fps }
        if let scale = o.scale { s.scale = scale }
        if let width = o.width { s.width = width }
        return s
    }

    /// A relative image path as given, when it exists from here; otherwise under Flipbook's
    /// own folder, so that configs printed by earlier versions (`Assets/…` paths) still work.
    static func locate(_ image: SceneImage) -> SceneImage {
        var image = image
        if !image.path.hasPrefix("/") && !FileManager.default.fileExists(atPath: image.path) {
            let builtin = (installRoot as NSString).appendingPathComponent(image.path)
            if FileManager.default.fileExists(atPath: builtin) { image.path = builtin }
        }
        return image
    }

    /// The folder that holds Flipbook's `Assets`: `FLIPBOOK_ROOT` if set; else, for an
    /// installed `flipbook` (`Scripts/install PREFIX`), `PREFIX/share/flipbook` beside its
    /// `bin`; else the source tree this file was compiled in (a build in its checkout). Found
    /// once: the process's environment and executable stay as they started.
    public static let installRoot: String = {
        if let root = ProcessInfo.processInfo.environment["FLIPBOOK_ROOT"], !root.isEmpty { return root }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let share = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "share/flipbook")
            if FileManager.default.fileExists(atPath: share.appendingPathComponent("Assets").path) { return share.path }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }()
}
