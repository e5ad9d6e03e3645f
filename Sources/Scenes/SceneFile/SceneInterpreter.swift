import Foundation
import Geometry
import Planner
import Yams

/// Builds the plan of a scene file's chosen storyboard: binds its `let` values, checks its
/// params, adds its layers, and turns its steps into the planner's. Everything is evaluated
/// here, once; sampling the plan costs what any plan costs.
final class SceneInterpreter {
    let file: SceneFile
    let params: SceneParams
    let sizes: ImageSizes
    let canvas: Size
    var builder: PlanBuilder
    var layerIDs: [String: LayerID] = [:]
    var globals: [String: SceneValue] = [:]
    var scopes: [[String: SceneValue]] = []
    /// The last drag, for `gesture.…` and `releaseVelocity(…)`.
    var gesture: GestureDrive?
    /// Templates, phases and poses being expanded, to catch cycles.
    var expanding: [String] = []
    /// The params read so far while building the plan (image params by the layers that
    /// show them); a `let` value's own reads count when the value is used.
    var reads: Set<String> = []
    private var letReads: [String: Set<String>] = [:]

    /// The longest storyboard (and drag) a scene may have: an hour, past any preview.
    static let maximumDuration = 3600.0
    /// How far below 0 a hold or delay computed by subtraction (`a - b - c` of equal sums)
    /// may fall by rounding and still mean 0: a nanosecond, far below any frame.
    static let roundingSlack = 1e-9
    /// The most layers a scene may have, whatever its loops and templates multiply.
    static let maximumLayers = 10_000
    /// The most steps a storyboard may expand to, its phases' and poses' included: phases that
    /// call each other twice over double at every level, and zero-length holds add no time
    /// for the length limit to catch.
    static let maximumSteps = 100_000
    /// The steps expanded so far.
    var expandedSteps = 0

    init(_ file: SceneFile, params: SceneParams, sizes: ImageSizes) {
        self.file = file
        self.params = params
        self.sizes = sizes
        canvas = params.settings.canvas
        builder = PlanBuilder(canvas: canvas)
    }

    var model: SceneModel { file.model }

    /// An error at `node`, whose key path is `path`.
    func error(_ node: Node, _ path: [String], _ message: String) -> ConfigError {
        ConfigError(file: file.path, line: node.mark?.line, keyPath: path.joined(separator: "."), message: message)
    }

    func error(_ e: SceneExpr, _ message: String) -> ConfigError { error(e.node, e.path, message) }

    /// The chosen storyboard's plan, the params it reads and its top-level steps' spans.
    func plan() throws -> ScenePlan {
        let name = params.settings.storyboard
        let board = try file.storyboard(named: name)
        try bind(board.lets)
        try bind(model.lets)
        try checkParams()
        try addLayers(model.layers, parent: nil, prefix: "")
        var phases: [PhaseSpan] = []
        for item in board.steps {
            let start = builder.currentTime
            for step in try step(item) { builder.append(step) }
            phases.append(PhaseSpan(name: item.label, start: start, end: builder.currentTime))
        }
        var lasts = builder.currentTime
        if let length = board.length {
            lasts = try number(length)
            guard lasts > 0 else {
                throw error(length, "\(lasts.plainText) s: a storyboard's length is more than 0 seconds")
            }
        }
        // Steps past a shorter length are still planned, so they are held to the limit too.
        guard max(lasts, builder.currentTime) <= Self.maximumDuration else {
            throw SceneError.invalid(
                key: "storyboard",
                message:
                    "\(name) lasts \(max(lasts, builder.currentTime).plainText) s; a storyboard lasts at most \(Self.maximumDuration.plainText) s"
            )
        }
        // A timeline shows what plays: a length that cuts the storyboard short cuts its spans.
        let shown = phases.filter { $0.start < lasts || $0.start == 0 }.map {
            PhaseSpan(name: $0.name, start: $0.start, end: min($0.end, lasts))
        }
        return ScenePlan(plan: builder.build(length: lasts), reads: reads, phases: shown)
    }

    // MARK: Values

    func evaluate(_ e: SceneExpr) throws -> SceneValue {
        if let items = e.node.sequence {
            return .list(try items.map { try evaluate(SceneExpr(node: $0, path: e.path)) })
        }
        guard let text = e.node.scalarText else {
            throw error(e, "expected a value or an expression, got \(e.node.summary)")
        }
        if let v = Double(text), v.isFinite { return .number(v) }
        do {
            return try expression(interpolate(text)).evaluate(context)
        } catch let x as ExpressionError {
            throw error(e, x.message)
        }
    }

    /// Evaluates `e` and converts it; errors name its line and key.
    func value<T>(_ e: SceneExpr, _ convert: (SceneValue) throws -> T) throws -> T {
        let v = try evaluate(e)
        do { return try convert(v) } catch let x as ExpressionError { throw error(e, x.message) }
    }

    func number(_ e: SceneExpr) throws -> Double { try value(e) { try $0.number() } }

    private func expression(_ text: String) throws -> Expression { try Expression.parsedOnce(text) }

    private var context: Expression.Context {
        Expression.Context(
            resolve: { [unowned self] in try self.resolve($0) },
            functions: [
                "releaseVelocity": { [unowned self] args in
                    guard args.count == 1 else {
                        throw ExpressionError("releaseVelocity takes one argument, the target progress")
                    }
                    return .number(try self.lastGesture().releaseVelocity(toward: args[0].number()))
                }
            ])
    }

    /// Splices `{expression}` values into a name or key: `room-{i + 1}`.
    func interpolate(_ text: String) throws -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var out = "", rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw ExpressionError("'\(text)': a '{' is not closed")
            }
            out += try expression(String(rest[rest.index(after: open)..<close])).evaluate(context).description
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    func resolve(_ path: [String]) throws -> SceneValue {
        for n in stride(from: path.count, through: 1, by: -1) {
            if let v = try lookup(path[..<n].joined(separator: ".")) {
                return try path[n...].reduce(v) { try $0.field($1) }
            }
        }
        throw ExpressionError(
            "unknown name '\(path.joined(separator: "."))'; expected a param, a let value, canvas, screen or gesture")
    }

    private func lookup(_ name: String) throws -> SceneValue? {
        for scope in scopes.reversed() {
            if let v = scope[name] {
                reads.formUnion(letReads[name] ?? [])
                return v
            }
        }
        if let v = globals[name] {
            reads.formUnion(letReads[name] ?? [])
            return v
        }
        if let v = params.value(name) {
            noteRead(name)
            return v
        }
        switch name {
        case "canvas": return .size(canvas)
        case "screen": return .rect(Rect(x: 0, y: 0, width: canvas.width, height: canvas.height))
        case "gesture.progress": return .number(try lastGesture().releaseProgress)
        case "gesture.travel":
            let g = try lastGesture()
            return .number(g.releaseProgress * g.distance)
        case "gesture.velocity":
            let g = try lastGesture()
            return .number(g.axis.of(g.track.velocityAtRelease))
        default: return nil
        }
    }

    /// Marks the param `name` names as read: the param itself, or the animation whose part it is.
    func noteRead(_ name: String) {
        var key = Substring(name)
        while !file.declarations.contains(where: { $0.key == key }) {
            guard let dot = key.lastIndex(of: ".") else { return }
            key = key[..<dot]
        }
        reads.insert(String(key))
    }

    private func lastGesture() throws -> GestureDrive {
        guard let gesture else { throw ExpressionError("there is no drag before this step to take the gesture from") }
        return gesture
    }

    /// `let` values, in order, into the innermost scope that has the name, else the globals.
    func bind(_ bindings: [SceneBinding]) throws {
        for b in bindings {
            let outer = reads
            reads = []
            let value = try evaluate(b.value)
            letReads[b.name] = reads
            reads = outer
            if let i = scopes.lastIndex(where: { $0[b.name] != nil }) {
                scopes[i][b.name] = value
            } else {
                globals[b.name] = value
            }
        }
    }

    /// Arguments for a template, phase or pose, called at `node`: each declared one given
    /// (the whole-file check refused any other).
    func arguments(
        _ declared: SceneParameters, given: SceneArguments?, of what: String, at node: Node, _ path: [String]
    ) throws -> [String: SceneValue] {
        var out: [String: SceneValue] = [:]
        for (name, _, value) in given?.values ?? [] { out[name] = try evaluate(value) }
        if let missing = declared.names.first(where: { out[$0] == nil }) {
            throw error(
                given?.node ?? declared.node ?? node, given?.path ?? path, "\(what) needs the argument '\(missing)'")
        }
        return out
    }

    /// Runs `body` with `scope` pushed and `name` marked as being expanded.
    func expand<T>(
        _ name: String, scope: [String: SceneValue], at node: Node, _ path: [String], _ body: () throws -> T
    ) throws -> T {
        guard !expanding.contains(name) else {
            throw error(
                node, path, "\(name) uses itself: \((expanding.drop { $0 != name } + [name]).joined(separator: " → "))")
        }
        expanding.append(name)
        scopes.append(scope)
        defer {
            scopes.removeLast()
            expanding.removeLast()
        }
        return try body()
    }

    // MARK: Checks

    private func checkParams() throws {
        // A check reads params to judge them, not to move anything.
        let outer = reads
        defer { reads = outer }
        for d in file.declarations where d.check == .insideCanvas {
            do {
                try requireInside(params[rect: d.key], canvas, key: d.key)
            } catch SceneError.outsideCanvas(_, let rect, let canvas) {
                // Said where the param is declared, as every other scene file problem is.
                throw ConfigError(
                    file: file.path, line: d.line, keyPath: d.key,
                    message: "\(rect) is outside the \(Int(canvas.width))x\(Int(canvas.height)) pt canvas")
            }
        }
        for r in model.requirements where !(try value(r.that) { try $0.flag() }) {
            throw SceneError.invalid(
                key: r.key, message: try interpolating(r.message.text, r.message.node, r.message.path))
        }
    }

    func interpolating(_ text: String, _ node: Node, _ path: [String]) throws -> String {
        do { return try interpolate(text) } catch let e as ExpressionError { throw error(node, path, e.message) }
    }
}
