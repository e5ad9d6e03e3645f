import Foundation
import Geometry
import Planner

/// The functions a scene file's expressions may call, each with its documentation: the
/// guide's scene file reference is printed from this list.
enum SceneFunctions {
    struct Function: Sendable {
        let name: String
        let signature: String
        let arity: ClosedRange<Int>
        let doc: String
        let body: @Sendable ([SceneValue]) throws -> SceneValue
    }

    private static func numeric(
        _ name: String, _ signature: String, _ arity: ClosedRange<Int>, _ doc: String,
        _ f: @escaping @Sendable ([Double]) throws -> Double
    ) -> Function {
        Function(name: name, signature: signature, arity: arity, doc: doc) { args in
            let v = try f(args.map { try $0.number() })
            guard v.isFinite else { throw ExpressionError("\(name)(…) gives \(v), not a finite number") }
            return .number(v)
        }
    }

    private static func bezier(_ name: String, _ preset: CubicBezier) -> Function {
        Function(
            name: name, signature: "\(name)(duration)", arity: 1...1,
            doc: "Core Animation's \(name) Bézier over `duration` seconds"
        ) { a in
            let d = try a[0].number()
            guard d > 0 else { throw ExpressionError("\(name)(\(d.plainText)): the duration must be more than 0") }
            return .curve(.bezier(preset, duration: d))
        }
    }

    static let all: [Function] = [
        numeric("min", "min(a, b, …)", 1...99, "the smallest") { $0.min()! },
        numeric("max", "max(a, b, …)", 1...99, "the largest") { $0.max()! },
        numeric("clamp", "clamp(x, low, high)", 3...3, "x limited to low...high") { min(max($0[0], $0[1]), $0[2]) },
        numeric("abs", "abs(x)", 1...1, "the magnitude") { abs($0[0]) },
        numeric("floor", "floor(x)", 1...1, "rounded down") { $0[0].rounded(.down) },
        numeric("ceil", "ceil(x)", 1...1, "rounded up") { $0[0].rounded(.up) },
        numeric("round", "round(x)", 1...1, "rounded to the nearest whole number, halves away from zero") {
            $0[0].rounded()
        },
        numeric("sqrt", "sqrt(x)", 1...1, "the square root of x, 0 or more") { x in
            guard x[0] >= 0 else { throw ExpressionError("sqrt(\(x[0].plainText)): expected 0 or more") }
            return x[0].squareRoot()
        },
        numeric("lerp", "lerp(a, b, p)", 3...3, "a + (b − a)·p") { lerp($0[0], $0[1], $0[2]) },
        Function(name: "point", signature: "point(x, y)", arity: 2...2, doc: "a point") { a in
            .point(Point(x: try a[0].number(), y: try a[1].number()))
        },
        Function(name: "size", signature: "size(width, height)", arity: 2...2, doc: "a size") { a in
            .size(Size(width: try a[0].number(), height: try a[1].number()))
        },
        Function(name: "rect", signature: "rect(x, y, width, height)", arity: 4...4, doc: "a rect") { a in
            .rect(Rect(x: try a[0].number(), y: try a[1].number(), width: try a[2].number(), height: try a[3].number()))
        },
        Function(
            name: "spring", signature: "spring(duration, dampingRatio, velocity?)", arity: 2...3,
            doc: "UIKit's spring fitted to a duration (`UIView.animate(…usingSpringWithDamping:…)`)"
        ) { a in
            let d = try a[0].number(), z = try a[1].number()
            guard d > 0, z > 0 else {
                throw ExpressionError(
                    "spring(\(d.plainText), \(z.plainText)): duration and dampingRatio must be more than 0")
            }
            return .curve(.spring(duration: d, damping: z, velocity: a.count > 2 ? try a[2].number() : 0))
        },
        Function(name: "curve", signature: "curve('spec')", arity: 1...1, doc: "any curve spec (see `flipbook curve`)")
        { a in .curve(try a[0].curve()) },
        bezier("linear", .linear), bezier("easeIn", .easeIn), bezier("easeOut", .easeOut),
        bezier("easeInEaseOut", .easeInEaseOut),
        Function(
            name: "withVelocity", signature: "withVelocity(curve, v)", arity: 2...2,
            doc: "a spring started at `v` whole distances per second (a release handing on its speed)"
        ) { a in
            .curve(try a[0].curve().with(velocity: try a[1].number()))
        },
        Function(
            name: "withDuration", signature: "withDuration(curve, seconds)", arity: 2...2,
            doc: "the curve refitted to another duration"
        ) { a in
            let d = try a[1].number()
            guard d > 0 else { throw ExpressionError("withDuration: \(d.plainText) s must be more than 0") }
            return .curve(try a[0].curve().with(duration: d))
        },
        numeric(
            "rubberBand", "rubberBand(x, dimension)", 2...2,
            "what a pull of x points past an edge shows (UIScrollView's rubber band)"
        ) {
            guard $0[1] > 0 else { throw ExpressionError("rubberBand: the dimension must be more than 0") }
            return ScrollPhysics.rubberBand($0[0], dimension: $0[1])
        },
        numeric(
            "fingerTravel", "fingerTravel(shown, dimension)", 2...2,
            "how far a finger moves for the rubber band to show `shown` points (its inverse, capped just under the dimension)"
        ) {
            guard $0[1] > 0 else { throw ExpressionError("fingerTravel: the dimension must be more than 0") }
            return ScrollPhysics.fingerTravel(shown: $0[0], dimension: $0[1])
        },
        numeric(
            "projectedOffset", "projectedOffset(offset, velocity)", 2...2,
            "where a flick at `velocity` pt/s from `offset` comes to rest (UIScrollView's normal deceleration)"
        ) {
            ScrollPhysics.projectedOffset(from: $0[0], velocity: $0[1])
        },
        numeric(
            "snapOffset", "snapOffset(offset, velocity, page, spacing, inset, pages)", 6...6,
            "the offset a paging carousel snaps to: the projected offset rounded to a page, within the pages"
        ) {
            ScrollPhysics.snapTarget(
                offset: $0[0], velocity: $0[1], page: $0[2], spacing: $0[3], inset: $0[4],
                pages: Int(max(0, min($0[5], 1e6))))
        },
    ]
}
