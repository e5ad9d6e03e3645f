import Foundation
import Geometry
import Planner
import Yams

/// The layer tree of a scene file: layers, `for` loops and template instances.
extension SceneInterpreter {
    func addLayers(_ entries: [SceneLayerEntry], parent: LayerID?, prefix: String) throws {
        for entry in entries {
            switch entry {
            case .loop(let loop):
                for v in try values(of: loop) {
                    scopes.append([loop.variable: .number(v)])
                    defer { scopes.removeLast() }
                    try addLayers(loop.body, parent: parent, prefix: prefix)
                }
            case .layer(let layer):
                let name = prefix + (try interpolating(layer.name, layer.key, layer.path))
                try addLayer(name, layer, parent: parent, prefix: prefix)
            }
        }
    }

    /// A loop's whole-number values, FIRST through LAST.
    func values(of loop: SceneLoop) throws -> [Double] {
        let ends = try loop.bounds.map { text -> Double in
            let v = try number(SceneExpr(node: scalarNode(text, at: loop.key.mark), path: loop.path))
            guard v == v.rounded() else {
                throw error(loop.key, loop.path, "'\(text)' = \(v.plainText) is not a whole number")
            }
            return v
        }
        guard ends[0] <= ends[1], ends[1] - ends[0] < 1000 else {
            throw error(
                loop.key, loop.path,
                "\(ends[0].plainText)...\(ends[1].plainText): expected FIRST ≤ LAST, at most 1000 times")
        }
        return stride(from: ends[0], through: ends[1], by: 1).map { $0 }
    }

    func addLayer(_ name: String, _ layer: SceneLayer, parent: LayerID?, prefix: String) throws {
        guard let use = layer.use else { return try addInstance(name, layer, parent: parent, prefix: prefix) }
        guard let template = model.templates[use.name] else {
            throw error(
                use.node, layer.path + ["use"],
                "no template \(use.node.summary); templates: \(model.templates.isEmpty ? "none" : model.templates.names.joined(separator: ", "))"
            )
        }
        let what = "template \(use.name)"
        let args = try arguments(template.parameters, given: layer.with, of: what, at: use.node, layer.path + ["with"])
        // The instance's own keys win over the template's.
        var instance = layer
        instance.use = nil
        instance.values = template.body.values.merging(layer.values) { _, own in own }
        instance.children = layer.children ?? template.body.children
        try expand(what, scope: args, at: use.node, layer.path) {
            try addInstance(name, instance, parent: parent, prefix: name + "-")
        }
    }

    /// A layer whose template, if any, is merged into it.
    private func addInstance(_ name: String, _ layer: SceneLayer, parent: LayerID?, prefix: String) throws {
        let m = layer.values
        // Each part may be right on its own and the merge not: a template's colour and an
        // instance's image.
        if let color = m["color"], m["image"] != nil {
            throw error(color, "a layer shows an image or a colour, not both")
        }
        var content = LayerContent.none
        if let image = m["image"] {
            content = .snapshot(try snapshot(image, source: m["source"], mode: m["mode"]))
        } else if let color = m["color"] {
            content = .color(try value(color) { try $0.color() })
        }
        let frame =
            try m["frame"].map { try value($0) { try $0.rect() } }
            ?? Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        var s = LayerState(frame: frame)
        if let n = m["center"] { s.position = try value(n) { try $0.point() } }
        if let n = m["scale"] { s.scale = try number(n) }
        if let n = m["alpha"] { s.alpha = try number(n) }
        if let n = m["cornerRadius"] { s.cornerRadius = max(0, try number(n)) }
        if let n = m["clip"] { s.clipsToBounds = try value(n) { try $0.flag() } }
        if let n = m["background"] {
            let c = try value(n) { try $0.color() }
            s.backgroundColor = c.a == 0 ? nil : c
        }
        if let n = m["z"] { s.zIndex = try number(n) }
        if let n = m["hidden"] { s.isHidden = try value(n) { try $0.flag() } }
        if let n = m["contentOffset"] { s.contentOffset = try value(n) { try $0.point() } }
        guard layerIDs.count < SceneInterpreter.maximumLayers else {
            throw error(
                layer.key, layer.path,
                "more than \(SceneInterpreter.maximumLayers) layers; loops and templates multiply")
        }
        guard layerIDs[name] == nil else {
            throw error(layer.key, layer.path, "a second layer named '\(name)'; layer names are unique")
        }
        let id = try builder.addLayer(name, content: content, initial: s, parent: parent)
        layerIDs[name] = id
        if let children = layer.children { try addLayers(children, parent: id, prefix: prefix) }
    }

    private func snapshot(_ image: SceneExpr, source: SceneExpr?, mode: SceneExpr?) throws -> Snapshot {
        let key = try interpolating(image.text, image.node, image.path)
        guard let declaration = file.declarations.first(where: { $0.key == key && $0.shape != nil }),
            let shape = declaration.shape
        else {
            let images = file.declarations.filter { $0.shape != nil }.map(\.key)
            throw error(
                image, "no image param '\(key)'; images: \(images.isEmpty ? "none" : images.joined(separator: ", "))")
        }
        let picture = SceneImage(name: key, path: params[text: key], key: key)
        noteRead(key)
        /// An image of the wrong size, said at the line that declares it, with the fix.
        func sized<T>(_ body: () throws -> T, screen: Bool) throws -> T {
            do {
                return try body()
            } catch SceneError.imageSize(_, let path, let got, let expected) {
                var fix = "; give an image of that size"
                if screen, let px = sizes[key], px.width > 0 {
                    let k = Int(px.width) % 2 != 0 && Int(px.width) % 3 == 0 ? 3.0 : 2.0
                    fix +=
                        ", or make the canvas the screenshot's: at @\(Int(k))x it is settings.canvas {width: \((px.width / k).plainText), height: \((px.height / k).plainText)}"
                }
                throw ConfigError(
                    file: file.path, line: declaration.line, keyPath: key,
                    message: "\(path) is \(got); expected \(expected)\(fix)")
            }
        }
        let k: Double, natural: Size
        switch shape {
        case .screen:
            k = try sized({ try screenScale(picture, sizes, canvas: canvas) }, screen: true)
            natural = canvas
        case .points(let w, let h):
            let size = Size(width: try shapeSide(w, image), height: try shapeSide(h, image))
            k = try sized({ try imageScale(picture, sizes, size: size) }, screen: false)
            natural = size
        case .free(let ppp):
            k = ppp
            let px = sizes[key] ?? .zero
            natural = Size(width: px.width / ppp, height: px.height / ppp)
        }
        let rect = try source.map { try value($0) { try $0.rect() } } ?? Rect(origin: .zero, size: natural)
        // The parser refused a mode that is not one.
        let contentMode = mode.flatMap { ContentMode(rawValue: $0.text) } ?? .scaleToFill
        return Snapshot(image: key, source: rect.scaled(by: k), pixelsPerPoint: k, mode: contentMode)
    }

    private func shapeSide(_ text: String, _ image: SceneExpr) throws -> Double {
        let v = try number(SceneExpr(node: scalarNode(text, at: image.node.mark), path: image.path))
        guard v > 0 else {
            throw error(image, "the image's shape has a side of \(v.plainText) points; expected more than 0")
        }
        return v
    }
}

/// A scalar node of expression text, placed at `mark` for errors.
func scalarNode(_ text: String, at mark: Mark?) -> Node {
    .scalar(Node.Scalar(text, .implicit, .plain, mark))
}
