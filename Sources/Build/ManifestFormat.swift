import Flipbook
/// The build manifest's format, in one list: the keys an output, `defaults` and a variant's
/// value may set, what each takes and what it means. The loader checks against it, the
/// reference (`flipbook build --reference`) prints it, and each option key becomes the render
/// command's flag of the same name, so a manifest entry reads like the command line it runs.
public enum ManifestFormat {
    /// What a key's value is.
    public enum Kind: Sendable {
        /// A path pattern: the output file, with `{scene}`, `{storyboard}` and `{AXIS}` filled in.
        case pattern
        /// A scene: a built-in's name or a scene file, or a list of them (one output each).
        case scenes
        /// A storyboard's name, or a list of them (one output each).
        case storyboards
        /// A file, relative to the manifest's folder.
        case file
        /// A mapping of config key paths to values, as `--set` takes them.
        case assignments
        /// A list of variant axes' names.
        case axes
        /// A scalar given to the render command as is (it checks the value).
        case option
        /// true or false.
        case flag
        /// A name to pick outputs by (`flipbook build NAME`).
        case name
    }

    /// Where a key may appear.
    public struct Places: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let output = Places(rawValue: 1)
        public static let defaults = Places(rawValue: 2)
        public static let variant = Places(rawValue: 4)
        public static let everywhere: Places = [.output, .defaults, .variant]
    }

    /// One key.
    public struct Key: Sendable {
        public let name: String
        public let kind: Kind
        public let places: Places
        public let doc: String
    }

    /// Every key, in the order the reference lists them.
    public static let keys: [Key] =
        [
            Key(
                name: "path", kind: .pattern, places: .output,
                doc:
                    "The file to write: \(AnimationFormat.all.map { $0.extensions[0] + ", " }.joined())or .png (a still with `time`, or a contact sheet with `sheet: true`). {scene}, {storyboard} and each variant axis's {NAME} are filled in."
            ),
            Key(name: "name", kind: .name, places: .output, doc: "A name to build this entry's outputs by."),
            Key(
                name: "scene", kind: .scenes, places: [.output, .defaults],
                doc: "A built-in scene or a scene file; a list makes one output per scene."),
            Key(
                name: "storyboard", kind: .storyboards, places: .everywhere,
                doc: "Which storyboard to play; a list makes one output per storyboard."),
            Key(
                name: "variants", kind: .axes, places: .output,
                doc: "Variant axes to multiply this entry by (each defined under `variants:`)."),
            Key(name: "config", kind: .file, places: .everywhere, doc: "A YAML config over the scene's defaults."),
            Key(
                name: "set", kind: .assignments, places: .everywhere,
                doc: "Config values by key path (as --set); merged with the ones before, the later winning."),
            Key(
                name: "sheet", kind: .flag, places: .everywhere,
                doc: "The .png is a contact sheet of the whole storyboard (render --sheet)."),
        ]
        // Each render option a manifest offers, as the export options' table declares it.
        + ExportOption.table.filter { $0.offered.contains(.manifest) }.map {
            Key(name: $0.option.name, kind: .option, places: .everywhere, doc: $0.summary)
        }

    /// The top-level keys.
    public static let sections: [(name: String, doc: String)] = [
        ("version", "The manifest format's version: 1."),
        ("defaults", "Keys every output starts from."),
        (
            "variants",
            "Named axes, each a mapping of values to the keys they set: `theme: {light: {}, dark: {set: …}}`."
        ),
        ("outputs", "The outputs: a list of entries, each made once per scene, storyboard and variant value."),
    ]

    /// The key called `name`, if there is one.
    public static func key(_ name: String) -> Key? { keys.first { $0.name == name } }

    /// The reference: every section and key with its doc, as `flipbook build --reference` prints it.
    public static var reference: String {
        var out = "# flipbook.yaml: the previews `flipbook build` keeps fresh. Paths are from this file's folder.\n"
        for section in sections { out += "\(section.name): \(section.doc)\n" }
        out += "\nKeys of an output (o), of `defaults` (d) and of a variant's value (v):\n"
        for key in keys {
            let places =
                (key.places.contains(.output) ? "o" : "-") + (key.places.contains(.defaults) ? "d" : "-")
                + (key.places.contains(.variant) ? "v" : "-")
            out += "  \(key.name) [\(places)]: \(key.doc)\n"
        }
        return out
    }
}
