import Yams

/// One name, one meaning: a scene file's params (their top-level keys), layers and phases
/// share one namespace, so that `present` in a step, a `--set` or a fit names one thing. Layer
/// names made inside `for` loops or by templates carry their loop value or instance name and
/// are not checked here.
enum SceneNames {
    /// What a name is, and where it is declared.
    struct Declaration {
        let name: String
        let kind: String
        let node: Node
        let path: [String]
    }

    /// Every name (after its first declaration, in file order) declared as another kind of
    /// thing, naming both lines.
    static func clashes(_ root: Node.Mapping, file: String) -> [ConfigError] {
        var seen: [String: Declaration] = [:]
        var out: [ConfigError] = []
        for d in declarations(root) {
            if let first = seen[d.name], first.kind != d.kind {
                let line = first.node.mark.map { " (line \($0.line))" } ?? ""
                out.append(
                    ConfigError(
                        file: file, line: d.node.mark?.line, keyPath: d.path.joined(separator: "."),
                        message:
                            "'\(d.name)' names a \(d.kind) and a \(first.kind)\(line); one name means one thing in a file: rename one",
                        column: d.node.mark?.column))
            }
            if seen[d.name] == nil { seen[d.name] = d }
        }
        return out
    }

    /// The params' top-level keys, then the layers (through `children` and `for`), then the
    /// phases.
    static func declarations(_ root: Node.Mapping) -> [Declaration] {
        var out: [Declaration] = []
        for (k, _) in root["params"]?.mapping ?? [:] {
            if let name = k.scalarText {
                out.append(Declaration(name: name, kind: "param", node: k, path: ["params", name]))
            }
        }
        func layers(_ m: Node.Mapping, _ path: [String]) {
            for (k, v) in m {
                guard let name = k.scalarText else { continue }
                if name.hasPrefix("for ") {
                    if let inner = v.mapping { layers(inner, path + [name]) }
                    continue
                }
                if !name.contains("{") {
                    out.append(Declaration(name: name, kind: "layer", node: k, path: path + [name]))
                }
                if let children = v.mapping?["children"]?.mapping { layers(children, path + [name, "children"]) }
            }
        }
        layers(root["layers"]?.mapping ?? [:], ["layers"])
        for (k, _) in root["phases"]?.mapping ?? [:] {
            if let name = k.scalarText {
                out.append(Declaration(name: name, kind: "phase", node: k, path: ["phases", name]))
            }
        }
        return out
    }
}
