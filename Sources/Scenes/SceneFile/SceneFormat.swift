/// Every key of the scene-file format, with its documentation. The loader refuses keys that
/// are not listed here, and `flipbook scene --reference` prints the guide's reference from
/// the same lists, so the two cannot drift.
public enum SceneFormat {
    /// A key and what it means.
    public struct Key: Sendable {
        public let name: String
        public let doc: String
        init(_ name: String, _ doc: String) {
            self.name = name
            self.doc = doc
        }
    }

    /// The scene format version this Flipbook reads.
    public static let version = 1

    static let topLevel: [Key] = [
        Key("version", "the format version, \(version)"),
        Key("name", "the scene's name, as `flipbook list` shows it"),
        Key("summary", "one line on what the transition is"),
        Key(
            "settings",
            "defaults of the settings every scene has: `canvas: {width, height}` in points, `scale`, `fps`, `background`"
        ),
        Key(
            "params",
            "every tunable, declared once: a mapping of params and sections (a section is a mapping with a `doc` and params)"
        ),
        Key(
            "let",
            "derived values, in order: `name: expression`, evaluated once per plan after the storyboard's own `let`"),
        Key("require", "checks on the params: a list of `{that: expression, key: param.path, message: text}`"),
        Key(
            "templates",
            "repeated layer trees: `name: {args: [a, b], …layer keys…}`; children are named `INSTANCE-CHILD`"),
        Key(
            "layers",
            "the layer tree, bottom first: `name: {…layer keys…}`; `for i in 1...3:` repeats the layers under it"),
        Key("poses", "named sets of changes, reused by steps: `name: {args: [a], layer.property: value, …}`"),
        Key("phases", "named step lists: `name: [steps]`, or `name: {args: [a, b], steps: [steps]}`"),
        Key(
            "storyboards",
            "what plays: `name: [steps and phase names]`, or `name: {let: {…}, steps: […], length: seconds}` (`length` cuts it short or holds its end); the first is the default"
        ),
    ]

    /// The param types (`SceneParamKind`).
    static let paramTypes: [Key] = SceneParamKind.allCases.map { Key($0.rawValue, $0.doc) }

    static let paramOptions: [Key] = [
        Key("doc", "one line on what it does (required)"),
        Key("range", "[low, high], for number, seconds and integer"),
        Key("inside", "`canvas`, for rect: it must lie on screen"),
        Key("shape", "for image: screen, [width, height] or free"),
        Key("pixelsPerPoint", "for a free image: its scale (default 1)"),
        Key("of", "for choice: the names allowed"),
    ]

    static let layerKeys: [Key] = [
        Key("use", "a template to instantiate, with `with: {arg: value}`"),
        Key("with", "the template's arguments"),
        Key("image", "snapshot content: an image param's key (`assets.list`)"),
        Key("source", "the part of the image shown, [x, y, width, height] in the image's points (default: all of it)"),
        Key("mode", "how the snapshot fills the layer: scaleToFill, aspectFill, top, bottom, fitWidth"),
        Key("color", "a solid colour filling the layer, rounded by its corners"),
        Key("frame", "[x, y, width, height] in the parent's points (default: the whole canvas)"),
        Key("center", "moves the frame so that its centre is here"),
        Key("scale", "a scale about the centre"),
        Key("alpha", "opacity, 0...1"),
        Key("cornerRadius", "corner radius in points"),
        Key("clip", "true: children are clipped to the rounded bounds"),
        Key("background", "a colour behind the content"),
        Key("z", "among siblings, higher draws later; ties keep file order"),
        Key("hidden", "true: not drawn, nor its children"),
        Key("contentOffset", "[x, y]: how far the image is scrolled up and left inside the bounds, which clip it"),
        Key("children", "layers inside this one, in its coordinates"),
    ]

    /// The properties a step changes (`SceneProperty`).
    static let properties: [Key] = SceneProperty.allCases.map { Key($0.name, $0.doc) }

    /// The step kinds (`StepKind`), then a phase called by name.
    static let steps: [Key] =
        StepKind.allCases.map { Key($0.rawValue, $0.doc) } + [
            Key("PHASE", "a phase's name, or `PHASE: {arg: value}`: its steps, in place")
        ]

    static let phaseKeys: [Key] = [
        Key("args", "the names a call gives values to: `{args: [a, b], steps: […]}`, called as `PHASE: {a: 1, b: 2}`"),
        Key("steps", "the phase's steps"),
    ]

    static let storyboardKeys: [Key] = [
        Key("let", "values for this storyboard's steps, evaluated before them"),
        Key("steps", "the storyboard's steps"),
        Key(
            "length",
            "seconds: the storyboard ends there, cut short while something still moves (as a recording stopped mid-motion) or holding its last state; default: when its last step ends"
        ),
    ]

    static let requireKeys: [Key] = [
        Key("that", "an expression that must hold"),
        Key("key", "the param to blame when it does not"),
        Key("message", "what to say, with `{expression}` spliced in"),
    ]

    static let moveKeys: [Key] = [
        Key("by", "[dx, dy] in points"),
        Key("over", "seconds"),
        Key("easing", "linear, easeIn, easeOut, easeInEaseOut, bezier:x1,y1,x2,y2, or an expression giving a Bézier"),
    ]

    static let dragKeys: [Key] = [
        Key("from", "[x, y]: where the finger goes down"),
        Key(
            "moves",
            "a list of `{by: [dx, dy], over: seconds, easing: linear|easeIn|easeOut|easeInEaseOut|bezier:…}` (or an expression giving such a curve) and `{hold: seconds}`"
        ),
        Key("release", "[vx, vy] in pt/s at lift (default: the last move's own speed)"),
        Key("axis", "x or y: which part of the translation drives progress"),
        Key("distance", "the translation in points (signed) that makes progress 1"),
        Key("rubberBand", "the viewport's size: the translation passes through UIScrollView's rubber band first"),
        Key("range", "[low, high]: progress is clamped to it (default [0, 1])"),
    ]

    static let crossingKeys: [Key] = [
        Key("at", "for a drag, a translation in points (progress × distance); for an animation, its progress (0 to 1)"),
        Key("above", "steps that start when the drag or the animation goes past it"),
        Key("below", "steps that start when it comes back (a spring past 1, a drag reversed)"),
    ]

    static let names: [Key] = [
        Key("canvas", "the screen size in points: `canvas.width`, `canvas.height`"),
        Key("screen", "the whole canvas as a rect: `screen.midY`, `screen.center`"),
        Key(
            "PARAM",
            "any param by its key path (`timing.restHold`); an animation is its curve, and `present.duration` its parts"
        ),
        Key(
            "gesture",
            "after a drag: `gesture.progress` and `gesture.travel` (points) at lift, `gesture.velocity` (pt/s on its axis), and `releaseVelocity(target)`: the lift speed as a spring's initial velocity toward `target` progress"
        ),
        Key(
            "{expression}",
            "inside a layer name, a change's key or a param path: the value spliced in (`room-{i}`, `room{card + 1}.image`)"
        ),
    ]

    /// The format reference, in Markdown: the guide's scene file reference is this.
    public static func reference() -> String {
        func table(_ title: String, _ keys: [Key]) -> String {
            "## \(title)\n\n| key | meaning |\n|---|---|\n"
                + keys.map { "| `\($0.name)` | \($0.doc) |" }.joined(separator: "\n") + "\n"
        }
        let functions =
            "## Functions in expressions\n\n| function | meaning |\n|---|---|\n"
            + (SceneFunctions.all.map { "| `\($0.signature)` | \($0.doc) |" } + [
                "| `if(test, a, b)` | a when the test holds, else b (only the one taken is evaluated) |"
            ])
            .joined(separator: "\n") + "\n"
        return [
            table("Top-level keys", topLevel), table("Param types (the type's key holds the default)", paramTypes),
            table("Param options", paramOptions), table("Layer keys", layerKeys),
            table("Properties that steps change", properties),
            table("Steps", steps), table("Drag gestures", dragKeys),
            table("Crossings (drags and animations)", crossingKeys),
            table("Names in expressions", names), functions,
            "## Expressions\n\nNumbers, `+ - * /`, comparisons, `&&`, `||`, `!`, parentheses, `a.b.c` names and fields of rects "
                + "(x, y, width, height, minX, minY, midX, midY, maxX, maxY, center, origin, size), points (x, y) and sizes (width, height). "
                + "A YAML list [a, b] is a point or a size and [a, b, c, d] a rect, by where it is used.\n",
        ].joined(separator: "\n")
    }
}
