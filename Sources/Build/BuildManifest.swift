import FileInput
import Flipbook
import Foundation
import Yams

/// A build manifest (`flipbook.yaml`), read and checked whole, and its outputs expanded: every
/// entry of `outputs` once per scene, storyboard and value of each variant axis it names.
///
/// Checking follows the scene files' rule: parse, check every key of every entry and variant,
/// and report every problem at once, each with its line, before anything renders.
public struct BuildManifest: Sendable {
    /// The manifest file, as given.
    public let file: String
    /// Its folder: every relative path in it is read from here.
    public let folder: String
    /// Every output, in the manifest's order.
    public let outputs: [BuildOutput]

    /// The manifest format's version this Flipbook reads.
    public static let version = 1

    /// The most outputs a manifest expands to: far past any set of previews, and bounded, so
    /// that axes multiplied together cannot take the machine's memory.
    public static let maximumOutputs = 10_000
    /// The most keys one `set:` mapping holds.
    public static let maximumAssignments = 1_000

    /// Reads and checks the manifest at `path`.
    public init(contentsOf path: String) throws {
        let text: String
        do {
            text = try YAMLInput.readText(file: path)
        } catch let error as ConfigError {
            throw BuildError.manifest([ManifestProblem(file: path, line: nil, keyPath: "", message: error.message)])
        }
        try self.init(text: text, file: path)
    }

    /// Checks `text`, the manifest at `file`.
    public init(text: String, file: String) throws {
        self.file = file
        let folder = parentFolder(of: file)
        self.folder = folder.isEmpty ? "." : folder
        var reader = ManifestReader(file: file)
        let root: Node?
        do {
            root = try YAMLInput.compose(text, file: file)
        } catch let error as ConfigError {
            throw BuildError.manifest([
                ManifestProblem(file: file, line: error.line, keyPath: "", message: error.message)
            ])
        }
        let outputs = reader.read(root)
        guard reader.problems.isEmpty else {
            throw BuildError.manifest(reader.problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
        }
        self.outputs = outputs
    }
}

/// Keys merged from `defaults`, an entry and its variants' values.
struct OutputSettings {
    var scenes: [String]?
    var storyboards: [String]?
    var config: String?
    var assignments: [String: String] = [:]
    var sheet = false
    var options: [String: String] = [:]

    /// `other` over this: its keys win, its `set` values merge in.
    func merged(with other: OutputSettings) -> OutputSettings {
        var m = self
        if let s = other.scenes { m.scenes = s }
        if let s = other.storyboards { m.storyboards = s }
        if let c = other.config { m.config = c }
        m.assignments.merge(other.assignments) { $1 }
        m.sheet = m.sheet || other.sheet
        m.options.merge(other.options) { $1 }
        return m
    }
}

/// The walk over the YAML that collects every problem rather than stopping at the first.
struct ManifestReader {
    let file: String
    var problems: [ManifestProblem] = []
    /// Outputs the entries read so far expand to.
    var expanded = 0

    mutating func problem(_ node: Node?, _ keyPath: String, _ message: String) {
        let p = ManifestProblem(file: file, line: node?.mark?.line, keyPath: keyPath, message: message)
        // One entry made for many variants says a thing once.
        if !problems.contains(p) { problems.append(p) }
    }

    mutating func read(_ root: Node?) -> [BuildOutput] {
        guard let root, let top = root.mapping else {
            problem(
                root, "",
                "expected a mapping with `outputs:` (and `defaults:`, `variants:`), got \(root?.summary ?? "an empty file")"
            )
            return []
        }
        var defaults = OutputSettings()
        var variants: [(name: String, values: [(name: String, settings: OutputSettings)])] = []
        var entries: [Node] = []
        var sawOutputs = false
        for (keyNode, value) in top {
            let key = keyNode.scalarText ?? ""
            switch key {
            case "version":
                if value.scalarText != String(BuildManifest.version) {
                    problem(value, "version", "expected \(BuildManifest.version), got \(value.summary)")
                }
            case "defaults":
                defaults = settings(value, place: .defaults, at: "defaults")
            case "variants":
                guard let axes = value.mapping else {
                    problem(
                        value, "variants",
                        "expected a mapping of axes (theme: {light: {}, dark: {…}}), got \(value.summary)")
                    continue
                }
                for (axisNode, axisValues) in axes {
                    let axis = axisNode.scalarText ?? ""
                    guard isName(axis) else {
                        problem(axisNode, "variants", "'\(axis)': an axis name is letters, digits, - and _")
                        continue
                    }
                    guard let values = axisValues.mapping, values.count > 0 else {
                        problem(
                            axisValues, "variants.\(axis)",
                            "expected a mapping of values to their keys, got \(axisValues.summary)")
                        continue
                    }
                    var list: [(name: String, settings: OutputSettings)] = []
                    for (valueNode, body) in values {
                        let name = valueNode.scalarText ?? ""
                        guard isName(name) else {
                            problem(
                                valueNode, "variants.\(axis)", "'\(name)': a value's name is letters, digits, - and _")
                            continue
                        }
                        list.append((name, settings(body, place: .variant, at: "variants.\(axis).\(name)")))
                    }
                    variants.append((axis, list))
                }
            case "outputs":
                sawOutputs = true
                guard let list = value.sequence, list.count > 0 else {
                    problem(
                        value, "outputs", "expected a list of outputs (- path: previews/x.gif …), got \(value.summary)")
                    continue
                }
                entries = Array(list)
            default:
                let known = ManifestFormat.sections.map(\.name)
                let hint = YAMLInput.closest(to: key, in: known).map { "; did you mean \($0)?" } ?? ""
                problem(keyNode, key, "unknown key\(hint) (expected \(known.joined(separator: ", ")))")
            }
        }
        if !sawOutputs { problem(root, "outputs", "missing: a manifest lists its outputs under `outputs:`") }
        var outputs: [BuildOutput] = []
        var seen: [String: (Int, Int?)] = [:]
        for (index, entry) in entries.enumerated() {
            for output in expand(entry, index: index, defaults: defaults, variants: variants) {
                if let (other, line) = seen[output.path] {
                    let unused = output.variant.map(\.key).filter {
                        !(entry.mapping?["path"]?.scalarText ?? "").contains("{\($0)}")
                    }
                    problem(
                        entry, "outputs[\(index)].path",
                        other == index
                            ? "\(output.path) is made more than once: the path needs \(unused.map { "{\($0)}" }.joined(separator: " and ")) to tell the variants apart"
                            : "\(output.path) is also made by outputs[\(other)] (line \(line.map(String.init) ?? "?"))")
                } else {
                    seen[output.path] = (index, output.line)
                    outputs.append(output)
                }
            }
        }
        return outputs
    }

    /// The outputs of one entry of `outputs`.
    mutating func expand(
        _ entry: Node, index: Int, defaults: OutputSettings,
        variants: [(name: String, values: [(name: String, settings: OutputSettings)])]
    ) -> [BuildOutput] {
        let at = "outputs[\(index)]"
        guard let mapping = entry.mapping else {
            problem(entry, at, "expected a mapping (path:, scene:, …), got \(entry.summary)")
            return []
        }
        let own = settings(entry, place: .output, at: at)
        let merged = defaults.merged(with: own)
        guard let pathNode = mapping["path"], let pattern = pathNode.scalarText, !pattern.isEmpty else {
            problem(entry, "\(at).path", "missing: every output names the file it writes")
            return []
        }
        let name = mapping["name"]?.scalarText
        var axes: [(name: String, values: [(name: String, settings: OutputSettings)])] = []
        if let list = mapping["variants"] {
            let names = list.sequence.map { $0.compactMap(\.scalarText) } ?? list.scalarText.map { [$0] } ?? []
            for axis in names {
                if let found = variants.first(where: { $0.name == axis }) {
                    axes.append(found)
                } else {
                    let hint =
                        YAMLInput.closest(to: axis, in: variants.map(\.name)).map { "; did you mean \($0)?" } ?? ""
                    problem(list, "\(at).variants", "'\(axis)': no such axis under `variants:`\(hint)")
                }
            }
        }
        guard let scenes = merged.scenes, !scenes.isEmpty else {
            problem(entry, "\(at).scene", "missing: a built-in scene or a scene file (here or in `defaults`)")
            return []
        }
        let kind = outputKind(pattern, merged, node: pathNode, at: at)
        // Counted before anything is made: axes multiply, and a manifest from anywhere must not
        // expand past what any preview set needs.
        var count = scenes.count * max(1, merged.storyboards?.count ?? 1)
        for axis in axes {
            let (product, overflow) = count.multipliedReportingOverflow(by: max(1, axis.values.count))
            count = overflow ? .max : min(product, .max / 2)
        }
        guard count <= BuildManifest.maximumOutputs - expanded else {
            problem(
                entry, at,
                "expands to \(count == .max ? "more than \(Int32.max)" : "\(count)") outputs (\(axes.map { "\($0.values.count) \($0.name)" }.joined(separator: " × ")), with \(expanded) before it); a manifest makes at most \(BuildManifest.maximumOutputs)"
            )
            return []
        }
        expanded += count
        // Every combination of one value per axis.
        var combinations: [[(axis: String, value: String, settings: OutputSettings)]] = [[]]
        for axis in axes {
            combinations = combinations.flatMap { prefix in
                axis.values.map { prefix + [(axis.name, $0.name, $0.settings)] }
            }
        }
        var outputs: [BuildOutput] = []
        for scene in scenes {
            for storyboard in merged.storyboards.map({ $0.map(Optional.some) }) ?? [nil] {
                for combination in combinations {
                    var s = merged
                    s.storyboards = storyboard.map { [$0] }
                    for choice in combination { s = s.merged(with: choice.settings) }
                    let chosenStoryboard = s.storyboards?.first
                    var fills = ["scene": BuildOutput.sceneName(scene)]
                    if let chosenStoryboard { fills["storyboard"] = chosenStoryboard }
                    for choice in combination { fills[choice.axis] = choice.value }
                    guard let path = fill(pattern, fills, node: pathNode, at: "\(at).path"), let kind else { continue }
                    outputs.append(
                        BuildOutput(
                            path: path, kind: kind, name: name, entry: index, line: entry.mark?.line, scene: scene,
                            storyboard: chosenStoryboard, config: s.config,
                            assignments: s.assignments.keys.sorted().map { "\($0)=\(s.assignments[$0]!)" },
                            options: ManifestFormat.keys.compactMap { key in
                                s.options[key.name].map { BuildOutput.Option(key: key.name, value: $0) }
                            },
                            variant: combination.map { BuildOutput.Option(key: $0.axis, value: $0.value) }))
                }
            }
        }
        return outputs
    }

    /// What the path's extension and the keys say the output is.
    mutating func outputKind(_ pattern: String, _ s: OutputSettings, node: Node, at: String) -> BuildOutput.Kind? {
        let ext = (pattern as NSString).pathExtension.lowercased()
        let hasTime = s.options["time"] != nil
        if let format = AnimationFormat.named(by: pattern) {
            if s.sheet { problem(node, "\(at).sheet", "a contact sheet is a .png; \(pattern) is an animation") }
            if hasTime { problem(node, "\(at).time", "a still is a .png; \(pattern) is an animation") }
            return .animation(format)
        }
        switch ext {
        case "png":
            if s.sheet && hasTime {
                problem(
                    node, "\(at).time", "a .png is a contact sheet (sheet: true) or a still (time: SECONDS), not both")
                return nil
            }
            if !s.sheet && !hasTime {
                problem(
                    node, "\(at).path", "a .png is a still (time: SECONDS) or a contact sheet (sheet: true); give one")
                return nil
            }
            return s.sheet ? .sheet : .still
        default:
            problem(
                node, "\(at).path",
                "\(pattern): expected a \(AnimationFormat.sentence(AnimationFormat.all.map { $0.extensions[0] } + [ExportFormat.pngExtension])) file (a folder of frames is not a preview)"
            )
            return nil
        }
    }

    /// `pattern` with each `{NAME}` filled in from `fills`.
    mutating func fill(_ pattern: String, _ fills: [String: String], node: Node, at: String) -> String? {
        var out = "", rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                problem(node, at, "\(pattern): a { with no }")
                return nil
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard let value = fills[name] else {
                let known = fills.keys.sorted().map { "{\($0)}" }.joined(separator: ", ")
                let why = name == "storyboard" ? " (no storyboard is given)" : ""
                problem(node, at, "\(pattern): {\(name)} is not known here\(why); this entry knows \(known)")
                return nil
            }
            out += value
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The keys of a mapping at `place`, checked against the format.
    mutating func settings(_ node: Node, place: ManifestFormat.Places, at: String) -> OutputSettings {
        var s = OutputSettings()
        guard let mapping = node.mapping else {
            problem(node, at, "expected a mapping of keys, got \(node.summary)")
            return s
        }
        let allowed = ManifestFormat.keys.filter { $0.places.contains(place) }
        for (keyNode, value) in mapping {
            let name = keyNode.scalarText ?? ""
            let path = "\(at).\(name)"
            guard let key = allowed.first(where: { $0.name == name }) else {
                if ManifestFormat.key(name) != nil {
                    problem(keyNode, path, "not allowed here")
                } else {
                    let hint =
                        YAMLInput.closest(to: name, in: allowed.map(\.name)).map { "; did you mean \($0)?" } ?? ""
                    problem(keyNode, path, "unknown key\(hint)")
                }
                continue
            }
            switch key.kind {
            case .pattern, .name, .axes:
                if key.kind != .axes && value.scalarText == nil {
                    problem(value, path, "expected text, got \(value.summary)")
                }
            case .scenes:
                s.scenes = texts(value, path)
                for scene in s.scenes ?? []
                where !Transition.isSceneFile(scene) {
                    if !Transition.shippedScenes.contains(scene) {
                        let hint =
                            YAMLInput.closest(to: scene, in: Transition.shippedScenes).map { "did you mean \($0)? " }
                            ?? ""
                        problem(
                            value, path,
                            "'\(scene)': no built-in or example scene of that name; \(hint)a scene file's path ends in .yaml"
                        )
                    }
                }
            case .storyboards:
                s.storyboards = texts(value, path)
            case .file:
                s.config = scalar(value, path)
            case .assignments:
                guard let m = value.mapping else {
                    problem(
                        value, path,
                        "expected a mapping of key paths to values ({present.duration: 0.9}), got \(value.summary)")
                    continue
                }
                guard m.count <= BuildManifest.maximumAssignments else {
                    problem(
                        value, path,
                        "\(m.count) keys: at most \(BuildManifest.maximumAssignments) (a scene declares tens; is this the right mapping?)"
                    )
                    continue
                }
                for (k, v) in m {
                    guard let keyPath = k.scalarText, let text = v.scalarText ?? flowText(v) else {
                        problem(k, path, "expected key.path: value")
                        continue
                    }
                    s.assignments[keyPath] = text
                }
            case .flag:
                guard let text = value.scalarText, let flag = Bool(text) else {
                    problem(value, path, "expected true or false, got \(value.summary)")
                    continue
                }
                s.sheet = flag
            case .option:
                if let text = scalar(value, path) { s.options[name] = text }
            }
        }
        return s
    }

    /// A list value's text (a sequence in flow form, as `[0, 99, 375, 70]`), for `set`.
    func flowText(_ node: Node) -> String? {
        guard let items = node.sequence else { return nil }
        let texts = items.compactMap(\.scalarText)
        guard texts.count == items.count else { return nil }
        return "[" + texts.joined(separator: ", ") + "]"
    }

    mutating func scalar(_ node: Node, _ path: String) -> String? {
        guard let text = node.scalarText, !text.isEmpty else {
            problem(node, path, "expected a value, got \(node.summary)")
            return nil
        }
        return text
    }

    /// One text or a list of them.
    mutating func texts(_ node: Node, _ path: String) -> [String]? {
        if let one = node.scalarText, !one.isEmpty { return [one] }
        if let list = node.sequence, list.count > 0, list.allSatisfy({ $0.scalarText?.isEmpty == false }) {
            return list.compactMap(\.scalarText)
        }
        problem(node, path, "expected a name or a list of names, got \(node.summary)")
        return nil
    }

    func isName(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }
}
