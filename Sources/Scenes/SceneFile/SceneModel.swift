import Yams

/// A scene file read once into types: its layers, templates, poses, phases, storyboards and
/// values, each part with the node it was written at (line and column) and its key path.
/// `SceneParser` builds it and gathers every problem of its shape; `SceneCheck` then checks its
/// names; `SceneInterpreter` evaluates it. None of them walks the YAML again.
struct SceneModel {
    var lets: [SceneBinding] = []
    var requirements: [SceneRequirement] = []
    var templates = SceneDeclarations<SceneTemplate>()
    var layers: [SceneLayerEntry] = []
    var poses = SceneDeclarations<ScenePose>()
    var phases = SceneDeclarations<ScenePhase>()
    var storyboards = SceneDeclarations<SceneStoryboard>()
    /// Every name a `let`, an argument list or a loop declares, anywhere in the file.
    var boundNames: Set<String> = []
}

/// Named parts (templates, poses, phases, storyboards) in the file's order, found by name.
struct SceneDeclarations<Part> {
    private(set) var names: [String] = []
    private var parts: [String: Part] = [:]

    subscript(name: String) -> Part? {
        get { parts[name] }
        set {
            if parts[name] == nil { names.append(name) }
            parts[name] = newValue
        }
    }

    /// Each part with its name, in the file's order.
    var all: [(name: String, part: Part)] { names.map { ($0, parts[$0]!) } }
    var isEmpty: Bool { names.isEmpty }
}

/// A value as written (a number, an expression's text or a list of values) at its place.
struct SceneExpr {
    let node: Node
    let path: [String]
    var text: String { node.scalarText ?? "" }
}

/// `name: value` in a `let`.
struct SceneBinding {
    let name: String
    let value: SceneExpr
}

/// `{that: test, key: param, message: text}` under the top-level `require`.
struct SceneRequirement {
    let that: SceneExpr
    let key: String
    let message: SceneExpr
}

/// What a call (of a template, phase or pose) gives its arguments.
struct SceneArguments {
    let node: Node
    let path: [String]
    /// Each argument; nil when they are not a mapping, which the check reports once it knows
    /// the call is to something declared.
    let values: [(name: String, key: Node, value: SceneExpr)]?
}

/// The names a template, phase or pose declares in `args`, where it declares them.
struct SceneParameters {
    var names: [String] = []
    var node: Node?
}

// MARK: Layers

/// An entry of a layer mapping: a layer, or a `for` loop over more entries.
enum SceneLayerEntry {
    case layer(SceneLayer)
    case loop(SceneLoop)
}

/// `for NAME in FIRST...LAST:` and the layers it repeats.
struct SceneLoop {
    let key: Node
    let path: [String]
    let variable: String
    /// FIRST and LAST, as expressions.
    let bounds: [String]
    let body: [SceneLayerEntry]
}

/// A layer (or a template's body): its keys' values, its children, and the template it uses.
struct SceneLayer {
    /// The name as written, `{…}` spliced when the plan is built.
    let name: String
    let key: Node
    let path: [String]
    var use: (name: String, node: Node)?
    var with: SceneArguments?
    /// Each layer key's value but `use`, `with` and `children`.
    var values: [String: SceneExpr] = [:]
    var children: [SceneLayerEntry]?
}

/// `name: {args: [a], …layer keys…}` under `templates`.
struct SceneTemplate {
    let parameters: SceneParameters
    let body: SceneLayer
}

// MARK: Changes, poses, phases and storyboards

/// One change a step or pose makes.
enum SceneChange {
    /// `layer.property: value`; the key may splice `{…}`.
    case property(key: String, node: Node, value: SceneExpr)
    /// `pose: name` or `pose: [a, b: {arg: value}]`.
    case poses([ScenePoseCall])
}

/// A pose named in a `pose:` entry, with its arguments.
struct ScenePoseCall {
    let name: String
    let node: Node
    let path: [String]
    let arguments: SceneArguments?
}

/// `name: {args: [a], layer.property: value, …}` under `poses`.
struct ScenePose {
    let parameters: SceneParameters
    let changes: [SceneChange]
}

/// `name: [steps]` or `name: {args: [a], steps: [steps]}` under `phases`.
struct ScenePhase {
    let key: Node
    let parameters: SceneParameters
    let steps: [SceneStep]
}

/// `name: [steps]` or `name: {let:, steps:, length:}` under `storyboards`.
struct SceneStoryboard {
    var lets: [SceneBinding] = []
    var length: SceneExpr?
    var steps: [SceneStep] = []
}

// MARK: Steps

/// One item of a step list, at its place.
struct SceneStep {
    let node: Node
    let path: [String]
    let body: Body

    /// What the step does: one case per `StepKind`, and a phase called by name.
    enum Body {
        case phase(name: String, node: Node, arguments: SceneArguments?)
        case hold(SceneExpr)
        case set([SceneChange])
        case animate(curve: SceneExpr, delay: SceneExpr?, changes: [SceneChange], crossing: SceneCrossing?)
        case parallel([SceneStep])
        case sequence([SceneStep])
        case drag(SceneDrag, changes: [SceneChange], crossing: SceneCrossing?)
        case `if`(SceneExpr, then: [SceneStep]?, else: [SceneStep]?)
        case `let`([SceneBinding])
        case require(SceneExpr, message: SceneExpr?)
    }

    /// What the step is called on a timeline: its phase's name or its kind.
    var label: String {
        switch body {
        case .phase(let name, _, _): name
        case .hold: StepKind.hold.rawValue
        case .set: StepKind.set.rawValue
        case .animate: StepKind.animate.rawValue
        case .parallel: StepKind.parallel.rawValue
        case .sequence: StepKind.sequence.rawValue
        case .drag: StepKind.drag.rawValue
        case .if: StepKind.if.rawValue
        case .let: StepKind.let.rawValue
        case .require: StepKind.require.rawValue
        }
    }
}

/// `drag: {from:, moves:, release:, axis:, distance:, rubberBand:, range:}`.
struct SceneDrag {
    let from: SceneExpr
    let moves: [SceneMove]
    let movesNode: SceneExpr
    let release: SceneExpr?
    let axis: SceneExpr
    let distance: SceneExpr
    let rubberBand: SceneExpr?
    let range: SceneExpr?
}

/// A finger's move: `{by:, over:, easing:}` or `{hold: seconds}`.
enum SceneMove {
    case move(by: SceneExpr, over: SceneExpr, easing: SceneExpr?)
    case hold(SceneExpr)
}

/// `crossing: {at:, above: [steps], below: [steps]}`.
struct SceneCrossing {
    let at: SceneExpr
    let above: [SceneStep]?
    let below: [SceneStep]?
}
