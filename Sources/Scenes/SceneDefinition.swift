import Planner

/// What every built-in scene provides: its name, its documented config, its images and its
/// choreography on the shared planner.
public protocol SceneDefinition: SendableMetatype {
    associatedtype Config: Sendable
    static var name: String { get }
    static var summary: String { get }
    static var storyboardNames: [String] { get }
    static var defaultConfig: Config { get }
    /// Where the config keeps the settings every scene has.
    static var settingsPath: WritableKeyPath<Config, SceneSettings> { get }
    /// The config's fields, documented; they read files and print `flipbook config`.
    static var fields: [ConfigField<Config>] { get }
    /// The images the scene draws from.
    static func images(_ config: Config) -> [SceneImage]
    /// The plan for the config's storyboard, given the images' pixel sizes.
    static func plan(_ config: Config, sizes: ImageSizes) throws -> Plan
}
