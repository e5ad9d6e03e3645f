import Foundation
import Geometry
import Planner
import Synchronization
import Yams

/// A scene file, read and checked: its params as documented config fields with their
/// defaults, and its storyboards. `prepare` applies a config over the defaults and gives a
/// `PreparedScene`, whose plan `SceneInterpreter` builds from the same file.
public struct SceneFile {
    /// The file's path, as given.
    public let path: String
    /// The file's folder, absolute: relative paths in the file are read from here.
    public let folder: String
    /// The file's text, as written.
    public let text: String
    public let name: String
    public let summary: String
    public let storyboards: [String]
    let model: SceneModel
    let fields: [ConfigField<SceneParams>]
    let defaults: SceneParams
    let declarations: [ParamDeclaration]
    /// The sections that group params, in the file's order.
    public let sections: [SceneParamSection]

    /// Reads and checks the scene file at `path`. A file whose text is what it was when last
    /// read at this path is not checked again: a fit or a build makes a transition from it
    /// per trial or per output, and the check depends on nothing but the path and the text.
    public static func load(path: String) throws -> SceneFile {
        let text = try ConfigDocument.readText(file: path)
        // The path as given names the file in errors; the folder it resolves to, its images.
        let key = path + "\n" + URL(fileURLWithPath: path).standardizedFileURL.path
        if let known = lastRead.withLock({ $0[key] }), known.file.text == text { return known.file }
        let file = try SceneFile(text: text, path: path)
        lastRead.withLock { $0[key] = CheckedSceneFile(file) }
        return file
    }

    /// The file last read at each path, as given and as resolved.
    private static let lastRead = Mutex<[String: CheckedSceneFile]>([:])

    /// Checks `text`, the scene file at `path`: every key known, every param typed and
    /// documented, every default valid. Errors name the file, line and key path.
    public init(text: String, path: String) throws {
        self.path = path
        self.text = text
        folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        let cx = ConfigContext(file: path, folder: folder, path: [])
        let node = try ConfigDocument.compose(text, file: path)
        guard let root = node?.mapping else {
            throw ConfigError(
                file: path, line: node?.mark?.line, keyPath: "",
                message: "expected a scene: a mapping with \(SceneFormat.topLevel.map(\.name).joined(separator: ", "))")
        }
        // Every problem is gathered before any is reported: the shape's, the names', then the
        // header's and each param's.
        let parser = SceneParser(root, file: path)
        model = parser.model
        var problems = SceneCheck(parser.model, params: root["params"]?.mapping, problems: parser.problems).problems
            .list
        func collect<T>(_ fallback: T, _ body: () throws -> T) -> T {
            do { return try body() } catch let error as ConfigError {
                problems.append(error)
            } catch let error as ConfigProblems {
                problems += error.problems
            } catch {
                problems.append(ConfigError(file: path, line: nil, keyPath: "", message: "\(error)"))
            }
            return fallback
        }
        collect(()) {
            guard let v = root["version"], v.scalarText == String(SceneFormat.version) else {
                throw cx.at("version").error(
                    root["version"] ?? Node(""), "expected \(SceneFormat.version), the scene format this Flipbook reads"
                )
            }
        }
        name = collect("") {
            let name = try SceneFile.scalar(root, "name", cx)
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw cx.at("name").error(root["name"]!, "expected letters, digits and dashes, got '\(name)'")
            }
            return name
        }
        summary = collect("") { try SceneFile.scalar(root, "summary", cx) }
        storyboards = collect([]) {
            guard let boards = root["storyboards"]?.mapping, !boards.isEmpty else {
                throw cx.at("storyboards").error(
                    root["storyboards"] ?? Node(""), "expected a mapping of at least one storyboard: name: [steps]")
            }
            return boards.keys.compactMap(\.scalarText)
        }

        var defaults = SceneParams(
            settings: SceneSettings(canvas: Size(width: 375, height: 667), storyboard: storyboards.first ?? ""))
        let names = storyboards
        let settingsFields = SceneSettings.fields(\SceneParams.settings, storyboards: { _ in names })
        if let settings = root["settings"] {
            collect(()) {
                guard let m = settings.mapping else {
                    throw cx.at("settings").error(
                        settings, "expected a mapping of \(settingsFields.map(\.key).joined(separator: ", "))")
                }
                try ConfigDocument.apply(m, fields: settingsFields, to: &defaults, context: cx.at("settings"))
            }
        }
        var declarations: [ParamDeclaration] = []
        var sections: [SceneParamSection] = []
        var paramFields: [ConfigField<SceneParams>] = []
        if let params = root["params"] {
            if let m = params.mapping {
                paramFields = SceneFile.readParams(
                    m, prefix: [], cx: cx.at("params"), defaults: &defaults, declarations: &declarations,
                    sections: &sections, problems: &problems)
                if let clash = paramFields.first(where: { f in settingsFields.contains { $0.key == f.key } }) {
                    problems.append(
                        cx.at("params", clash.key).error(
                            params, "'\(clash.key)' is a setting every scene has; choose another name"))
                }
            } else {
                problems.append(cx.at("params").error(params, "expected a mapping of params and sections"))
            }
        }
        guard problems.isEmpty else { throw ConfigProblems(problems) }
        fields = settingsFields + paramFields
        self.defaults = defaults
        self.declarations = declarations
        self.sections = sections
    }

    /// Reads a config file (if any) over the defaults, then each `--set`, then the flags.
    public func prepare(
        configFile: String? = nil, assignments: [String] = [], overrides: SceneOverrides = SceneOverrides()
    ) throws -> PreparedScene {
        var p = defaults
        if let configFile { p = try ConfigDocument.read(file: configFile, over: p, fields: fields) }
        for a in assignments { p = try ConfigDocument.read(assignment: a, over: p, fields: fields) }
        if let board = overrides.storyboard { _ = try storyboard(named: board) }
        p.settings = SceneCatalog.apply(overrides, to: p.settings)
        return try CheckedSceneFile(self).prepared(p, overrides: overrides)
    }

    /// The scene with the values `p` (defaults, config, assignments and flags made).
    fileprivate func prepared(_ p: SceneParams, overrides: SceneOverrides, file: CheckedSceneFile) throws
        -> PreparedScene
    {
        try SceneSettings.checkOutputSize(p.settings, overrides: overrides)
        let images = declarations.filter { $0.shape != nil }.map {
            SceneCatalog.locate(SceneImage(name: $0.key, path: p[text: $0.key], key: $0.key))
        }
        let params = p
        let title = "\(name): \(summary)"
        // A printed config names Flipbook's own images from its folder (`Assets/…`), which
        // reads from anywhere and survives the installation moving; never its absolute path.
        var named = p
        let root = SceneCatalog.installRoot + "/"
        for image in images where image.path.hasPrefix(root) {
            named[text: image.key] = String(image.path.dropFirst(root.count))
        }
        let printed = named
        return PreparedScene(
            name: name, file: path, settings: p.settings, images: images, storyboards: storyboards,
            params: self.params, sections: sections, values: p,
            makePlan: { sizes in try SceneInterpreter(file.file, params: params, sizes: sizes).plan() },
            makeSetting: { assignments in
                var changed = params
                for a in assignments {
                    changed = try ConfigDocument.read(assignment: a, over: changed, fields: file.file.fields)
                }
                return try file.prepared(changed, overrides: overrides)
            },
            renderConfig: { unread in
                ConfigDocument.render(
                    printed, fields: file.file.fields, title: title, unread: unread,
                    storyboard: params.settings.storyboard)
            })
    }

    /// The storyboard called `name`, or an error that lists the scene's storyboards.
    func storyboard(named name: String) throws -> SceneStoryboard {
        guard let board = model.storyboards[name] else {
            throw SceneError.unknownStoryboard(name, scene: self.name, known: storyboards)
        }
        return board
    }

    // MARK: Params

    /// Every param and section under `m`; a param that is wrong is added to `problems` and
    /// left out, so that one load reports them all.
    private static func readParams(
        _ m: Node.Mapping, prefix: [String], cx: ConfigContext, defaults: inout SceneParams,
        declarations: inout [ParamDeclaration], sections: inout [SceneParamSection], problems: inout [ConfigError]
    ) -> [ConfigField<SceneParams>] {
        var fields: [ConfigField<SceneParams>] = []
        for (keyNode, value) in m {
            do {
                try readParam(
                    keyNode, value, prefix: prefix, cx: cx, defaults: &defaults, declarations: &declarations,
                    sections: &sections, problems: &problems, into: &fields)
            } catch let error as ConfigError {
                problems.append(error)
            } catch {
                problems.append(cx.error(keyNode, "\(error)"))
            }
        }
        return fields
    }

    /// In a `{…}` mapping an unquoted comma ends a value, and the rest becomes a key with no
    /// value (`doc: the bar, which stays` gives `which stays`): that key, and how to quote it.
    static func cutAtComma(_ m: Node.Mapping) -> (node: Node, message: String)? {
        let pairs = Array(m)
        for (i, (k, v)) in pairs.enumerated() where i > 0 {
            guard let key = k.scalarText, key.contains(" "),
                v.scalar?.tag == Tag(.null) || v.scalarText == "" || v.scalarText == "null",
                let before = pairs[i - 1].key.scalarText, let value = pairs[i - 1].value.scalarText
            else { continue }
            return (
                k,
                "'\(key)' reads as a key: in a {…} mapping an unquoted comma ends a value; quote it: \(before): \"\(value), \(key)\""
            )
        }
        return nil
    }

    private static func readParam(
        _ keyNode: Node, _ value: Node, prefix: [String], cx: ConfigContext, defaults: inout SceneParams,
        declarations: inout [ParamDeclaration], sections: inout [SceneParamSection], problems: inout [ConfigError],
        into fields: inout [ConfigField<SceneParams>]
    ) throws {
        do {
            guard let k = keyNode.scalarText, !k.isEmpty, k.allSatisfy({ $0.isLetter || $0.isNumber }) else {
                throw cx.error(keyNode, "a param's name is letters and digits, got \(keyNode.summary)")
            }
            if k == "doc" { return }
            let c = cx.at(k)
            guard let vm = value.mapping else {
                // Most often a type misspelt in a param, which then reads as a section.
                let hint = Suggestion.hint(for: k, in: SceneFormat.paramTypes.map(\.name))
                throw c.error(
                    value,
                    "expected a param such as {number: 1, doc: …}, or a section: a mapping with a doc and params; got \(value.summary)\(hint)"
                )
            }
            // A param has one type key (holding its default) and options; anything else is a
            // section, whose params may well be called `color` or `rect`.
            let keys = vm.keys.compactMap(\.scalarText)
            let types = keys.filter { t in SceneFormat.paramTypes.contains { $0.name == t } }
            if types.count == 1, let stray = SceneFile.cutAtComma(vm) {
                throw c.error(stray.node, stray.message)
            }
            let isParam =
                types.count == 1
                && keys.allSatisfy { k in k == types[0] || SceneFormat.paramOptions.contains { $0.name == k } }
                && (vm[types[0]]!.mapping == nil || types[0] == "animation")
            guard isParam, let type = types.first else {
                guard let doc = vm["doc"]?.scalarText else {
                    let known = SceneFormat.paramTypes.map(\.name)
                    let options = SceneFormat.paramOptions.map(\.name)
                    let typo = keys.first { key in !known.contains(key) && !options.contains(key) }
                    let hint = typo.map { Suggestion.hint(for: $0, in: known) } ?? ""
                    throw c.error(
                        value,
                        "expected a param with one of the types \(known.joined(separator: ", ")), or a section with a doc\(hint)"
                    )
                }
                sections.append(SceneParamSection(key: (prefix + [k]).joined(separator: "."), doc: doc))
                fields.append(
                    .section(
                        k, doc,
                        readParams(
                            vm, prefix: prefix + [k], cx: c, defaults: &defaults, declarations: &declarations,
                            sections: &sections, problems: &problems)))
                return
            }
            let field = try readParam(
                k, type: type, vm, prefix: prefix, cx: c, defaults: &defaults, declarations: &declarations)
            try field.apply(vm[type]!, to: &defaults, context: c)
            fields.append(field)
        }
    }

    private static func readParam(
        _ k: String, type: String, _ vm: Node.Mapping, prefix: [String], cx: ConfigContext,
        defaults: inout SceneParams, declarations: inout [ParamDeclaration]
    ) throws -> ConfigField<SceneParams> {
        let key = (prefix + [k]).joined(separator: ".")
        // The caller found `type` among the kinds' names.
        let kind = SceneParamKind(rawValue: type)!
        for (optionNode, _) in vm {
            let o = optionNode.scalarText ?? ""
            guard o == type || o == "doc" || kind.options.contains(o) else {
                throw cx.error(
                    optionNode,
                    "'\(o)' is not an option of a \(type) param; expected \((["doc"] + kind.options).joined(separator: ", "))"
                )
            }
        }
        guard let doc = vm["doc"]?.scalarText, !doc.isEmpty else {
            throw cx.error(vm[type]!, "every param needs a doc: one line on what it does")
        }
        var declaration = ParamDeclaration(
            key: key, kind: kind, doc: doc, line: vm[type]?.mark?.line)
        func range(_ typeRange: ClosedRange<Double>) throws -> ClosedRange<Double> {
            guard let node = vm["range"] else {
                declaration.range = typeRange
                return typeRange
            }
            guard let list = node.sequence else {
                throw cx.at("range").error(node, "expected [low, high], got \(node.summary)")
            }
            guard list.count == 2 else {
                throw cx.at("range").error(node, "expected [low, high], got a list of \(list.count)")
            }
            let items = list.map { $0.scalarText.flatMap(Double.init) }
            if let i = items.firstIndex(where: { $0?.isFinite != true }) {
                throw cx.at("range").error(
                    node, "expected [low, high] of finite numbers, got \(list[i].summary) as \(i == 0 ? "low" : "high")"
                )
            }
            let low = items[0]!, high = items[1]!
            guard low <= high else {
                throw cx.at("range").error(
                    node, "expected [low, high] with low ≤ high, got [\(low.plainText), \(high.plainText)]")
            }
            declaration.range = low...high
            declaration.declaresRange = true
            return low...high
        }
        defer { declarations.append(declaration) }
        switch kind {
        case .number: return .number(k, \SceneParams[number: key], try range(-1e9...1e9), doc)
        case .seconds: return .seconds(k, \SceneParams[number: key], try range(0...60), doc)
        case .integer:
            let r = try range(-1e9...1e9)
            return .integer(k, \SceneParams[integer: key], Int(r.lowerBound)...Int(r.upperBound), doc)
        case .flag: return .flag(k, \SceneParams[flag: key], doc)
        case .color: return .color(k, \SceneParams[color: key], doc)
        case .rect:
            if let inside = vm["inside"] {
                guard inside.scalarText == "canvas" else {
                    throw cx.at("inside").error(inside, "expected canvas, got \(inside.summary)")
                }
                declaration.check = .insideCanvas
            }
            return .rect(k, \SceneParams[rect: key], doc)
        case .point: return .point(k, \SceneParams[point: key], doc)
        case .animation:
            defaults[animation: key] = AnimationSetting(duration: 0.5)
            return .animation(k, \SceneParams[animation: key], doc)
        case .curve: return .curve(k, \SceneParams[text: key], doc)
        case .image:
            guard let shape = vm["shape"] else {
                throw cx.error(vm[type]!, "an image needs a shape: screen, [width, height] in points, or free")
            }
            switch shape.scalarText {
            case "screen": declaration.shape = .screen
            case "free":
                let ppp = vm["pixelsPerPoint"].flatMap { $0.scalarText.flatMap(Double.init) } ?? 1
                guard ppp > 0, ppp.isFinite else {
                    throw cx.at("pixelsPerPoint").error(vm["pixelsPerPoint"]!, "expected a number more than 0")
                }
                declaration.shape = .free(pixelsPerPoint: ppp)
            default:
                guard let items = shape.sequence?.compactMap(\.scalarText), items.count == 2 else {
                    throw cx.at("shape").error(
                        shape, "expected screen, [width, height] in points, or free; got \(shape.summary)")
                }
                declaration.shape = .points(width: items[0], height: items[1])
            }
            return .path(k, \SceneParams[text: key], doc)
        case .path: return .path(k, \SceneParams[text: key], doc)
        case .choice:
            guard let names = vm["of"]?.sequence?.compactMap(\.scalarText), !names.isEmpty else {
                throw cx.error(vm[type]!, "a choice needs `of: [name, …]`")
            }
            declaration.choices = names
            return .choice(k, \SceneParams[text: key], { _ in names }, doc)
        }
    }

    // MARK: Helpers

    private static func scalar(_ m: Node.Mapping, _ key: String, _ cx: ConfigContext) throws -> String {
        guard let node = m[key], let text = node.scalarText, !text.isEmpty else {
            throw cx.at(key).error(m[key] ?? Node(""), "expected one line of text")
        }
        return text
    }
}

extension ConfigContext {
    /// The same context one key deeper.
    func at(_ keys: String...) -> ConfigContext {
        var c = self
        c.path += keys
        return c
    }
}

/// A checked scene file handed to the closures of a prepared scene, which may run on any
/// thread. Nothing in it changes after the check: its lets hold the YAML's value-type nodes and
/// fields whose closures read and write only the values passed to them.
private struct CheckedSceneFile: @unchecked Sendable {
    let file: SceneFile
    init(_ file: SceneFile) { self.file = file }

    /// The scene with the values `p`.
    func prepared(_ p: SceneParams, overrides: SceneOverrides) throws -> PreparedScene {
        try file.prepared(p, overrides: overrides, file: self)
    }
}
