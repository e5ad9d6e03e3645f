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

    /// Reports every name (after its first declaration, in file order) declared as another
    /// kind of thing, naming both lines.
    static func clashes(_ model: SceneModel, params: Node.Mapping?, into problems: inout SceneProblems) {
        var seen: [String: Declaration] = [:]
        for d in declarations(model, params: params) {
            if let first = seen[d.name], first.kind != d.kind {
                let line = first.node.mark.map { " (line \($0.line))" } ?? ""
                problems.report(
                    d.node, d.path,
                    "'\(d.name)' names a \(d.kind) and a \(first.kind)\(line); one name means one thing in a file: rename one"
                )
            }
            if seen[d.name] == nil { seen[d.name] = d }
        }
    }

    /// The params' top-level keys, then the layers (through `children` and `for`), then the
    /// phases, each in the file's order.
    static func declarations(_ model: SceneModel, params: Node.Mapping?) -> [Declaration] {
        var out: [Declaration] = []
        for (k, _) in params ?? [:] {
            if let name = k.scalarText {
                out.append(Declaration(name: name, kind: "param", node: k, path: ["params", name]))
            }
        }
        func layers(_ entries: [SceneLayerEntry]) {
            for entry in entries {
                switch entry {
                case .loop(let loop): layers(loop.body)
                case .layer(let layer):
                    if !layer.name.contains("{") {
                        out.append(Declaration(name: layer.name, kind: "layer", node: layer.key, path: layer.path))
                    }
                    layers(layer.children ?? [])
                }
            }
        }
        layers(model.layers)
        for (name, phase) in model.phases.all {
            out.append(Declaration(name: name, kind: "phase", node: phase.key, path: ["phases", name]))
        }
        return out
    }
}
