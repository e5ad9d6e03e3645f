import Foundation
import Geometry
import Planner
import Yams

/// The layer tree of a scene file: layers, `for` loops and template instances.
extension SceneInterpreter {
    func addLayers(_ m: Node.Mapping, parent: LayerID?, prefix: String, _ cx: ConfigContext) throws {
        for (keyNode, value) in m {
            guard let key = keyNode.scalarText else { throw cx.error(keyNode, "a layer's name is text") }
            if key.hasPrefix("for ") {
                let (variable, values) = try loop(key, keyNode, cx)
                guard let body = value.mapping else {
                    throw cx.at(key).error(value, "expected a mapping of layers to repeat")
                }
                for v in values {
                    scopes.append([variable: .number(v)])
                    defer { scopes.removeLast() }
                    try addLayers(body, parent: parent, prefix: prefix, cx.at(key))
                }
                continue
            }
            let name = prefix + (try interpolating(key, keyNode, cx))
            try addLayer(name, value, parent: parent, prefix: prefix, cx.at(key))
        }
    }

    /// `for NAME in A...B`: the name and its whole-number values.
    func loop(_ key: String, _ node: Node, _ cx: ConfigContext) throws -> (String, [Double]) {
        let parts = key.dropFirst(4).components(separatedBy: " in ")
        let bounds = parts.count == 2 ? parts[1].components(separatedBy: "...") : []
        guard parts.count == 2, isName(parts[0].trimmingCharacters(in: .whitespaces)), bounds.count == 2 else {
            throw cx.error(node, "expected 'for NAME in FIRST...LAST', got '\(key)'")
        }
        let ends = try bounds.map { text -> Double in
            let v = try value(scalarNode(text, at: node.mark), cx.at(key)) { try $0.number() }
            guard v == v.rounded() else { throw cx.error(node, "'\(text)' = \(v.plainText) is not a whole number") }
            return v
        }
        guard ends[0] <= ends[1], ends[1] - ends[0] < 1000 else {
            throw cx.error(
                node, "\(ends[0].plainText)...\(ends[1].plainText): expected FIRST ≤ LAST, at most 1000 times")
        }
        return (
            parts[0].trimmingCharacters(in: .whitespaces), stride(from: ends[0], through: ends[1], by: 1).map { $0 }
        )
    }

    func addLayer(_ name: String, _ node: Node, parent: LayerID?, prefix: String, _ cx: ConfigContext) throws {
        guard var m = node.mapping else {
            throw cx.error(
                node, "expected a layer: a mapping of \(SceneFormat.layerKeys.map(\.name).joined(separator: ", "))")
        }
        try SceneFile.checkKeys(m, allowed: SceneFormat.layerKeys.map(\.name), cx)
        guard let use = m["use"] else { return try addLayer(name, m, parent: parent, prefix: prefix, cx) }

        guard let templateName = use.scalarText, let template = file.root["templates"]?.mapping?[templateName]?.mapping
        else {
            let known = file.root["templates"]?.mapping?.keys.compactMap(\.scalarText) ?? []
            throw cx.at("use").error(
                use, "no template \(use.summary); templates: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
        }
        let tcx = top.at("templates", templateName)
        try SceneFile.checkKeys(
            template, allowed: ["args"] + SceneFormat.layerKeys.map(\.name).filter { $0 != "use" && $0 != "with" }, tcx)
        let args = try arguments(
            declared: template["args"], given: m["with"], of: "template \(templateName)", cx.at("with"))
        // The instance's own keys win over the template's.
        var pairs = template.filter { $0.key.scalarText != "args" && m[$0.key] == nil }.map { ($0.key, $0.value) }
        pairs += m.filter { $0.key.scalarText != "use" && $0.key.scalarText != "with" }.map { ($0.key, $0.value) }
        m = Node.Mapping(pairs)
        try expand("template \(templateName)", scope: args, cx, at: use) {
            try addLayer(name, m, parent: parent, prefix: name + "-", cx)
        }
    }

    private func addLayer(_ name: String, _ m: Node.Mapping, parent: LayerID?, prefix: String, _ cx: ConfigContext)
        throws
    {
        var content = LayerContent.none
        if m["image"] != nil && m["color"] != nil {
            throw cx.error(m["color"]!, "a layer shows an image or a colour, not both")
        }
        if let imageNode = m["image"] {
            content = .snapshot(try snapshot(imageNode, source: m["source"], mode: m["mode"], cx))
        } else if let color = m["color"] {
            content = .color(try value(color, cx.at("color")) { try $0.color() })
        }
        let frame =
            try m["frame"].map { try value($0, cx.at("frame")) { try $0.rect() } }
            ?? Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        var s = LayerState(frame: frame)
        if let n = m["center"] { s.position = try value(n, cx.at("center")) { try $0.point() } }
        if let n = m["scale"] { s.scale = try number(n, cx.at("scale")) }
        if let n = m["alpha"] { s.alpha = try number(n, cx.at("alpha")) }
        if let n = m["cornerRadius"] { s.cornerRadius = max(0, try number(n, cx.at("cornerRadius"))) }
        if let n = m["clip"] { s.clipsToBounds = try value(n, cx.at("clip")) { try $0.flag() } }
        if let n = m["background"] {
            let c = try value(n, cx.at("background")) { try $0.color() }
            s.backgroundColor = c.a == 0 ? nil : c
        }
        if let n = m["z"] { s.zIndex = try number(n, cx.at("z")) }
        if let n = m["hidden"] { s.isHidden = try value(n, cx.at("hidden")) { try $0.flag() } }
        if let n = m["contentOffset"] { s.contentOffset = try value(n, cx.at("contentOffset")) { try $0.point() } }
        guard layerIDs.count < SceneInterpreter.maximumLayers else {
            throw cx.error(
                m.keys.first ?? Node(""),
                "more than \(SceneInterpreter.maximumLayers) layers; loops and templates multiply")
        }
        guard layerIDs[name] == nil else {
            throw cx.error(m.keys.first ?? Node(""), "a second layer named '\(name)'; layer names are unique")
        }
        let id = try builder.addLayer(name, content: content, initial: s, parent: parent)
        layerIDs[name] = id
        if let children = m["children"] {
            guard let cm = children.mapping else {
                throw cx.at("children").error(children, "expected a mapping of layers")
            }
            try addLayers(cm, parent: id, prefix: prefix, cx.at("children"))
        }
    }

    private func snapshot(_ imageNode: Node, source: Node?, mode: Node?, _ cx: ConfigContext) throws -> Snapshot {
        let key = try interpolating(imageNode.scalarText ?? "", imageNode, cx)
        guard let declaration = file.declarations.first(where: { $0.key == key && $0.shape != nil }),
            let shape = declaration.shape
        else {
            let images = file.declarations.filter { $0.shape != nil }.map(\.key)
            throw cx.at("image").error(
                imageNode,
                "no image param '\(key)'; images: \(images.isEmpty ? "none" : images.joined(separator: ", "))")
        }
        let image = SceneImage(name: key, path: params[text: key], key: key)
        noteRead(key)
        let k: Double, natural: Size
        switch shape {
        case .screen:
            k = try screenScale(image, sizes, canvas: canvas)
            natural = canvas
        case .points(let w, let h):
            let size = Size(width: try shapeSide(w, imageNode, cx), height: try shapeSide(h, imageNode, cx))
            k = try imageScale(image, sizes, size: size)
            natural = size
        case .free(let ppp):
            k = ppp
            let px = sizes[key] ?? .zero
            natural = Size(width: px.width / ppp, height: px.height / ppp)
        }
        let rect =
            try source.map { try value($0, cx.at("source")) { try $0.rect() } } ?? Rect(origin: .zero, size: natural)
        var contentMode = ContentMode.scaleToFill
        if let mode {
            guard let m = mode.scalarText.flatMap(ContentMode.init(rawValue:)) else {
                throw cx.at("mode").error(
                    mode,
                    "expected one of \(ContentMode.allCases.map(\.rawValue).joined(separator: ", ")), got \(mode.summary)"
                )
            }
            contentMode = m
        }
        return Snapshot(image: key, source: rect.scaled(by: k), pixelsPerPoint: k, mode: contentMode)
    }

    private func shapeSide(_ text: String, _ node: Node, _ cx: ConfigContext) throws -> Double {
        let v = try value(scalarNode(text, at: node.mark), cx.at("shape")) { try $0.number() }
        guard v > 0 else {
            throw cx.error(node, "the image's shape has a side of \(v.plainText) points; expected more than 0")
        }
        return v
    }
}

/// A scalar node of expression text, placed at `mark` for errors.
func scalarNode(_ text: String, at mark: Mark?) -> Node {
    .scalar(Node.Scalar(text, .implicit, .plain, mark))
}
