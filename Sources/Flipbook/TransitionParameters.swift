import Foundation
import Scenes

extension Transition {
    /// One param as the scene file declares it, with its value in this transition and whether
    /// the storyboard that plays reads it.
    public struct Parameter: Sendable, Hashable {
        /// The type of value a param holds: the key that declares it in a scene file, as the
        /// scene format declares the kinds (one list, `SceneParamKind`).
        public typealias Kind = SceneParamKind

        /// The key path, as `set:` and configs name it (`present`, `timing.listHold`).
        public let key: String
        public let kind: Kind
        /// One line on what it does.
        public let doc: String
        /// The values it accepts, for numbers: the declared range, or the type's own.
        public let range: ClosedRange<Double>?
        /// Whether the scene file declares the range.
        public let declaresRange: Bool
        /// For a choice: the names allowed.
        public let choices: [String]
        /// The section it sits in (`timing`), or nil at the top.
        public let section: String?
        /// Its value as YAML text (`0.6`, `"#3067F4"`, `[0, 169, 375, 70]`); for an animation, see `animation`.
        public let value: String
        /// For an animation param: its parts.
        public let animation: Animation?
        /// Whether the storyboard that plays reads it: when false, changing it changes nothing here.
        public let isRead: Bool
        /// The 1-based line of its declaration in the scene file.
        public let line: Int?
    }

    /// An animation param's parts: a UIKit spring, unless `curve` names another curve.
    public struct Animation: Sendable, Hashable {
        public let duration: Double
        /// UIKit's damping ratio (`usingSpringWithDamping`, `UISpringTimingParameters(dampingRatio:)`).
        public let dampingRatio: Double
        public let velocity: Double
        /// "spring" or a curve spec.
        public let curve: String

        /// A numeric part: its name, range and doc (`AnimationPart`, the one list of them).
        public typealias Part = AnimationPart

        /// The value of a numeric part.
        public func value(of part: Part) -> Double {
            switch part {
            case .duration: duration
            case .dampingRatio: dampingRatio
            case .velocity: velocity
            }
        }

        /// The numeric parts its curve reads (`AnimationSetting.readParts`).
        public var parts: [String] {
            AnimationSetting(duration: duration, damping: dampingRatio, velocity: velocity, curve: curve).readParts
        }
    }

    /// A section of params, with its doc.
    public struct Section: Sendable, Hashable {
        public let key: String
        public let doc: String
    }

    /// A labelled span of the storyboard: a phase, or a step written in the storyboard itself.
    public struct Phase: Sendable, Hashable {
        public let name: String
        public let start: Double
        public let end: Double
    }

    /// Every param the scene declares, in the file's order.
    public var parameters: [Parameter] {
        let scene = renderer.scene
        let sections = Set(scene.sections.map(\.key))
        return scene.params.map { p in
            let parent = p.key.split(separator: ".").dropLast().joined(separator: ".")
            let animation = scene.values.animation(p.key).map {
                Animation(duration: $0.duration, dampingRatio: $0.damping, velocity: $0.velocity, curve: $0.curveSpec)
            }
            return Parameter(
                key: p.key, kind: p.kind, doc: p.doc, range: p.range,
                declaresRange: p.declaresRange, choices: p.choices,
                section: sections.contains(parent) ? parent : nil, value: scene.values.text(of: p.key) ?? "",
                animation: animation, isRead: renderer.reads.contains(p.key), line: p.line)
        }
    }

    /// The sections that group the params, in the file's order.
    public var sections: [Section] { renderer.scene.sections.map { Section(key: $0.key, doc: $0.doc) } }

    /// The key paths of the params the storyboard that plays reads.
    public var reads: Set<String> { renderer.reads }

    /// The storyboard's own steps in order, each a phase's name or a step's kind, with its span.
    public var phases: [Phase] { renderer.phases.map { Phase(name: $0.name, start: $0.start, end: $0.end) } }

    /// Every storyboard of the scene; the first is the default.
    public var storyboards: [String] { renderer.scene.storyboards }

    /// The frames per second it renders at.
    public var fps: Double { renderer.scene.settings.fps }

    /// The size of its frames in pixels: the canvas at the scale, rounded as the compositor does.
    public var pixelSize: (width: Int, height: Int) {
        (Int((canvas.width * scale).rounded()), Int((canvas.height * scale).rounded()))
    }

    /// The canvas in points.
    public var canvas: (width: Double, height: Double) {
        (renderer.scene.settings.canvas.width, renderer.scene.settings.canvas.height)
    }

    /// The image files it reads, by the param that names each.
    public var imageFiles: [(key: String, path: String)] { renderer.scene.images.map { ($0.key, $0.path) } }
}

extension Transition {
    /// The names of the scene's layers, in drawing order of the tree.
    public var layerNames: [String] { renderer.plan.layers.map(\.name) }

    /// Where the plan puts the layer called `name` at `seconds`, in points: its bounds on
    /// screen, drawn or not (a hidden layer still has its place); nil if there is no such layer.
    public func bounds(ofLayer name: String, at seconds: Double) -> (
        x: Double, y: Double, width: Double, height: Double
    )? {
        guard let id = renderer.plan.layer(named: name) else { return nil }
        let r = renderer.plan.screenRect(of: id, at: seconds)
        return (r.minX, r.minY, r.width, r.height)
    }

    /// Where the layer called `name` has its look at `seconds`, in points: its bounds moved
    /// up and left by its content offset, at the layer's scale on screen. A scroll moves the
    /// snapshot inside a layer that stays put, so this is what follows the snapshot. Nil if
    /// there is no such layer.
    public func contentBounds(ofLayer name: String, at seconds: Double) -> (
        x: Double, y: Double, width: Double, height: Double
    )? {
        guard let id = renderer.plan.layer(named: name) else { return nil }
        let (r, s) = renderer.plan.placement(of: id, at: seconds)
        let k = s.size.width > 0 ? r.width / s.size.width : 1
        return (r.minX - k * s.contentOffset.x, r.minY - k * s.contentOffset.y, r.width, r.height)
    }

    /// Where the layer called `name` is drawn at `seconds`, in points, and how opaque: the
    /// bounds of what it draws (fill and snapshot) and their largest opacity; nil when it draws
    /// nothing then (hidden, transparent, or no such layer).
    public func drawnBounds(ofLayer name: String, at seconds: Double) -> (
        x: Double, y: Double, width: Double, height: Double, alpha: Double
    )? {
        let drawn = renderer.plan.sample(at: seconds, scale: 1).commands.filter { $0.layer == name }
        guard !drawn.isEmpty else { return nil }
        let minX = drawn.map(\.rect.minX).min()!, minY = drawn.map(\.rect.minY).min()!
        let maxX = drawn.map(\.rect.maxX).max()!, maxY = drawn.map(\.rect.maxY).max()!
        return (minX, minY, maxX - minX, maxY - minY, drawn.map(\.alpha).max()!)
    }

    /// How much of the layer called `name` other layers cover at `seconds`: the share of its
    /// drawn bounds under what is drawn after it at half opacity or more, its own children
    /// aside (they are part of its look). 0 when it draws nothing then.
    public func coveredShare(ofLayer name: String, at seconds: Double) -> Double {
        let layers = renderer.plan.layers
        guard let id = renderer.plan.layer(named: name) else { return 0 }
        let commands = renderer.plan.sample(at: seconds, scale: 1).commands
        guard let last = commands.lastIndex(where: { $0.layer == name }) else { return 0 }
        func isOwn(_ index: Int) -> Bool {
            var i: Int? = index
            while let j = i {
                if j == id.index { return true }
                i = layers[j].parent
            }
            return false
        }
        let own = Set(layers.indices.filter(isOwn).map { layers[$0].name })
        let drawn = commands.filter { $0.layer == name }.map(\.rect)
        let minX = drawn.map(\.minX).min()!, minY = drawn.map(\.minY).min()!
        let maxX = drawn.map(\.maxX).max()!, maxY = drawn.map(\.maxY).max()!
        let area = (maxX - minX) * (maxY - minY)
        guard area > 0 else { return 0 }
        var covered = 0.0
        for c in commands[(last + 1)...] where c.alpha >= 0.5 && !own.contains(c.layer) {
            let w = min(maxX, c.rect.maxX) - max(minX, c.rect.minX)
            let h = min(maxY, c.rect.maxY) - max(minY, c.rect.minY)
            if w > 0 && h > 0 { covered += w * h }
        }
        return min(1, covered / area)
    }
}
