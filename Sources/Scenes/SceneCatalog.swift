import Foundation
import Geometry
import Planner

/// A scene ready to plan: its config read, overrides applied, images located.
public struct PreparedScene: Sendable {
    public let name: String
    public let settings: SceneSettings
    public let images: [SceneImage]
    public let storyboards: [String]
    /// The effective config, as YAML.
    public let configYAML: String
    let makePlan: @Sendable (ImageSizes) throws -> Plan

    /// The plan, given the images' pixel sizes.
    public func plan(sizes: ImageSizes) throws -> Plan { try makePlan(sizes) }
}

/// Command-line settings that win over the config file.
public struct SceneOverrides: Sendable {
    public var storyboard: String?
    public var fps: Double?
    public var scale: Int?

    public init(storyboard: String? = nil, fps: Double? = nil, scale: Int? = nil) {
        self.storyboard = storyboard
        self.fps = fps
        self.scale = scale
    }
}

/// The built-in scenes, by name.
public enum SceneCatalog {
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        public let storyboards: [String]
    }

    /// Every built-in scene.
    static var definitions: [any SceneDefinition.Type] { [ExpandingCells.self, SlidingPanels.self, ExpandingView.self, AppStoreCard.self] }

    public static var entries: [Entry] {
        definitions.map { Entry(name: $0.name, summary: $0.summary, storyboards: $0.storyboardNames) }
    }

    public static var names: [String] { definitions.map { $0.name } }

    /// Reads `configFile` (if any) over the scene's defaults, then each `--set` assignment, then
    /// `overrides`: flags over the file over defaults.
    public static func prepare(_ name: String, configFile: String? = nil, assignments: [String] = [],
                               overrides: SceneOverrides = SceneOverrides()) throws -> PreparedScene {
        if isFile(name) {
            return try SceneFile.load(path: name).prepare(configFile: configFile, assignments: assignments, overrides: overrides)
        }
        guard let definition = definitions.first(where: { $0.name == name }) else {
            throw SceneError.unknownScene(name, known: names)
        }
        return try prepare(definition, configFile: configFile, assignments: assignments, overrides: overrides)
    }

    /// Whether `scene` names a scene file rather than a built-in scene.
    public static func isFile(_ scene: String) -> Bool {
        scene.hasSuffix(".yaml") || scene.hasSuffix(".yml") || scene.contains("/")
    }

    static func prepare<S: SceneDefinition>(_ scene: S.Type, configFile: String?, assignments: [String],
                                            overrides: SceneOverrides) throws -> PreparedScene {
        var c = S.defaultConfig
        if let configFile { c = try ConfigDocument.read(file: configFile, over: c, fields: S.fields) }
        for a in assignments { c = try ConfigDocument.read(assignment: a, over: c, fields: S.fields) }
        c[keyPath: S.settingsPath] = try apply(overrides, to: c[keyPath: S.settingsPath], scene: S.name, storyboards: S.storyboardNames)
        let config = c
        return PreparedScene(
            name: S.name, settings: c[keyPath: S.settingsPath], images: S.images(c).map(locate), storyboards: S.storyboardNames,
            configYAML: ConfigDocument.render(c, fields: S.fields, title: "\(S.name): \(S.summary)"),
            makePlan: { try S.plan(config, sizes: $0) })
    }

    static func apply(_ o: SceneOverrides, to s: SceneSettings, scene: String, storyboards: [String]) throws -> SceneSettings {
        var s = s
        if let storyboard = o.storyboard {
            guard storyboards.contains(storyboard) else { throw SceneError.unknownStoryboard(storyboard, scene: scene, known: storyboards) }
            s.storyboard = storyboard
        }
        if let fps = o.fps { s.fps = fps }
        if let scale = o.scale { s.scale = scale }
        return s
    }

    /// A relative image path as given, when it exists from here; otherwise under Flipbook's
    /// own folder (the built-in assets), so the defaults work from any working directory.
    static func locate(_ image: SceneImage) -> SceneImage {
        var image = image
        if !image.path.hasPrefix("/") && !FileManager.default.fileExists(atPath: image.path) {
            let builtin = (installRoot as NSString).appendingPathComponent(image.path)
            if FileManager.default.fileExists(atPath: builtin) { image.path = builtin }
        }
        return image
    }

    /// Flipbook's source folder: `FLIPBOOK_ROOT`, or where this file was compiled from.
    public static var installRoot: String {
        if let root = ProcessInfo.processInfo.environment["FLIPBOOK_ROOT"], !root.isEmpty { return root }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
