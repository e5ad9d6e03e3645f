import Geometry

/// A scale-and-translate transform from a layer's bounds to output pixels.
struct ScreenTransform {
    var scale: Double
    var tx: Double
    var ty: Double

    func apply(_ r: Rect) -> Rect {
        Rect(x: tx + scale * r.minX, y: ty + scale * r.minY, width: scale * r.width, height: scale * r.height)
    }
}

extension Plan {
    /// The draw list at `t` seconds, in output pixels at `scale` pixels per point.
    ///
    /// Layers draw in tree order (a parent before its children; siblings by zIndex, then by
    /// when they were added). Alpha multiplies down the tree (per draw: overlapping children
    /// of a translucent parent are not flattened first). A clipping ancestor clips its
    /// descendants; nested rect clips intersect exactly, and where rounded clips nest, the
    /// innermost rounded one applies inside the others' intersection.
    public func sample(at t: Double, scale: Double) -> DrawList {
        let states = layers.indices.map { state(of: LayerID(index: $0), at: t) }
        var children = [[Int]](repeating: [], count: layers.count)
        var roots: [Int] = []
        for (i, layer) in layers.enumerated() {
            if let p = layer.parent { children[p].append(i) } else { roots.append(i) }
        }
        func ordered(_ ids: [Int]) -> [Int] {
            ids.enumerated().sorted { (states[$0.element].zIndex, $0.offset) < (states[$1.element].zIndex, $1.offset) }
                .map(\.element)
        }
        var commands: [DrawCommand] = []
        let root = ScreenTransform(scale: scale, tx: 0, ty: 0)

        func visit(_ i: Int, parent: ScreenTransform, alpha: Double, layerScale: Double, clip: DrawCommand.Clip?) {
            let s = states[i]
            if s.isHidden || s.alpha <= 0 { return }
            let bounds = Rect(x: 0, y: 0, width: s.size.width, height: s.size.height)
            // bounds → parent: p' = position + scale·(p − anchor·size)
            let local = ScreenTransform(
                scale: s.scale, tx: s.position.x - s.scale * s.anchor.x * s.size.width,
                ty: s.position.y - s.scale * s.anchor.y * s.size.height)
            let transform = ScreenTransform(
                scale: parent.scale * local.scale, tx: parent.tx + parent.scale * local.tx,
                ty: parent.ty + parent.scale * local.ty)
            let rect = transform.apply(bounds)
            let radius = s.cornerRadius * transform.scale
            let a = alpha * s.alpha
            let totalScale = layerScale * s.scale
            let own = DrawCommand.Clip(rect: rect, cornerRadius: radius)
            let name = layers[i].name

            if let bg = s.backgroundColor {
                commands.append(
                    DrawCommand(
                        layer: name, kind: .fill(bg), rect: rect, scale: totalScale, alpha: a, cornerRadius: radius,
                        clip: clip))
            }
            switch layers[i].content {
            case .none:
                break
            case .color(let c):
                commands.append(
                    DrawCommand(
                        layer: name, kind: .fill(c), rect: rect, scale: totalScale, alpha: a, cornerRadius: radius,
                        clip: clip))
            case .snapshot(let snap):
                let (placed, source) = place(snap, in: bounds)
                let scrolled = s.contentOffset != Point(x: 0, y: 0)
                let dest = placed.offsetBy(dx: -s.contentOffset.x, dy: -s.contentOffset.y)
                let contentClip =
                    s.clipsToBounds || snap.mode != .scaleToFill || scrolled ? intersect(clip, own) : clip
                commands.append(
                    DrawCommand(
                        layer: name, kind: .snapshot(image: snap.image, sourceRect: source),
                        rect: transform.apply(dest),
                        scale: totalScale, alpha: a, cornerRadius: 0, clip: contentClip))
            }
            let childClip = s.clipsToBounds ? intersect(clip, own) : clip
            for c in ordered(children[i]) {
                visit(c, parent: transform, alpha: a, layerScale: totalScale, clip: childClip)
            }
        }
        for r in ordered(roots) {
            visit(r, parent: root, alpha: 1, layerScale: 1, clip: nil)
        }
        return DrawList(
            time: t, scale: scale, size: Size(width: canvas.width * scale, height: canvas.height * scale),
            commands: commands)
    }

    /// Where a snapshot lands in its layer's bounds, and which part of the image shows.
    func place(_ snap: Snapshot, in bounds: Rect) -> (dest: Rect, source: Rect) {
        let natural = snap.size
        switch snap.mode {
        case .scaleToFill:
            return (bounds, snap.source)
        case .aspectFill:
            let k = max(bounds.width / natural.width, bounds.height / natural.height)
            let w = natural.width * k, h = natural.height * k
            return (Rect(x: (bounds.width - w) / 2, y: (bounds.height - h) / 2, width: w, height: h), snap.source)
        case .fitWidth:
            let k = bounds.width / natural.width
            return (Rect(x: 0, y: 0, width: bounds.width, height: natural.height * k), snap.source)
        case .top, .bottom:
            // Natural size, aligned; the layer's bounds crop it (see the clip in `sample`).
            let y = snap.mode == .top ? 0 : bounds.height - natural.height
            return (Rect(x: 0, y: y, width: natural.width, height: natural.height), snap.source)
        }
    }
}

/// The intersection of two clips (see `Plan.sample` for how rounded ones combine).
func intersect(_ a: DrawCommand.Clip?, _ b: DrawCommand.Clip) -> DrawCommand.Clip {
    guard let a else { return b }
    let rect = a.rect.intersection(b.rect)
    let radius: Double
    if b.cornerRadius > 0 && a.rect.contains(b.rect) {
        radius = b.cornerRadius
    } else if a.cornerRadius > 0 && b.rect.contains(a.rect) {
        radius = a.cornerRadius
    } else {
        radius = b.cornerRadius > 0 ? b.cornerRadius : a.cornerRadius
    }
    return DrawCommand.Clip(rect: rect, cornerRadius: min(radius, min(rect.width, rect.height) / 2))
}

extension Plan {
    /// Where the layer's bounds are on screen at `t`, in points, whether it is drawn or not
    /// (hidden or transparent): its frame carried through its ancestors' positions and scales,
    /// as `sample(at:scale:)` places what it draws.
    public func screenRect(of layer: LayerID, at t: Double) -> Rect {
        placement(of: layer, at: t).rect
    }

    /// `screenRect(of:at:)`, with the layer's own state at `t`, each worked out once.
    public func placement(of layer: LayerID, at t: Double) -> (rect: Rect, state: LayerState) {
        var chain: [Int] = []
        var i: Int? = layer.index
        while let j = i {
            chain.append(j)
            i = layers[j].parent
        }
        var transform = ScreenTransform(scale: 1, tx: 0, ty: 0)
        var own = layers[layer.index].initial
        // The chain ends with the layer itself: its state is the last one worked out.
        for j in chain.reversed() {
            let s = state(of: LayerID(index: j), at: t)
            transform = ScreenTransform(
                scale: transform.scale * s.scale,
                tx: transform.tx + transform.scale * (s.position.x - s.scale * s.anchor.x * s.size.width),
                ty: transform.ty + transform.scale * (s.position.y - s.scale * s.anchor.y * s.size.height))
            own = s
        }
        return (transform.apply(Rect(x: 0, y: 0, width: own.size.width, height: own.size.height)), own)
    }
}
