import Foundation
import Geometry
import Planner
import Synchronization

/// Parses `text` as a scene file's expression and evaluates it with every name a number and
/// the built-in functions: the evaluator alone, as the fuzzer drives it.
package func evaluateExpression(_ text: String) -> Double? {
    guard let expression = try? Expression.parse(text) else { return nil }
    let value = try? expression.evaluate(Expression.Context(resolve: { .number(Double($0.count)) }))
    return try? value?.number()
}

/// An expression in a scene file: arithmetic, comparisons, functions and dotted names over
/// params, `let` values and the canvas, evaluated once when the plan is built.
///
/// ```
/// expr    := or
/// or      := and ('||' and)*          and := compare ('&&' compare)*
/// compare := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?
/// sum     := product (('+' | '-') product)*    product := unary (('*' | '/') unary)*
/// unary   := ('-' | '!') unary | postfix       postfix := primary ('.' name)*
/// primary := number | 'text' | #RRGGBB | name ('.' name)* | name '(' args ')' | '(' expr ')'
/// ```
/// Operators on numbers only; `+ - * /` associate to the left, as in Swift, so a file
/// computes the same doubles as the code it replaced.
indirect enum Expression: Sendable, Hashable {
    case literal(SceneValue)
    case name([String])
    case unary(String, Expression)
    case binary(String, Expression, Expression)
    case call(String, [Expression])
    case field(Expression, String)

    /// Parses `text`; errors say where and what was expected.
    static func parse(_ text: String) throws -> Expression {
        let tokens = try ExpressionParser.tokenize(text)
        // A long flat chain (1+1+…) nests as deep as it is long, and is evaluated recursively.
        guard tokens.count <= ExpressionParser.maximumTokens else {
            throw ExpressionError(
                "'\(ExpressionParser.excerpt(text))': \(tokens.count) tokens; an expression has at most \(ExpressionParser.maximumTokens)"
            )
        }
        var parser = ExpressionParser(tokens: tokens, text: text)
        let e = try parser.expression()
        guard parser.position == parser.tokens.count else {
            throw ExpressionError("'\(text)': unexpected '\(parser.tokens[parser.position].text)'")
        }
        return e
    }

    /// `parse(text)`, parsed once in the process: a fit plans the same scene thousands of
    /// times. The texts kept are bounded, as a long-running studio sees ever new ones.
    static func parsedOnce(_ text: String) throws -> Expression {
        if let e = parsedTexts.withLock({ $0[text] }) { return e }
        let e = try parse(text)
        parsedTexts.withLock {
            if $0.count >= maximumKept { $0.removeAll(keepingCapacity: true) }
            $0[text] = e
        }
        return e
    }

    private static let parsedTexts = Mutex<[String: Expression]>([:])
    private static let maximumKept = 4096

    /// What names resolve to, and the functions a scene adds to the built-in ones.
    struct Context {
        var resolve: ([String]) throws -> SceneValue
        var functions: [String: ([SceneValue]) throws -> SceneValue] = [:]
    }

    func evaluate(_ cx: Context) throws -> SceneValue {
        switch self {
        case .literal(let v): return v
        case .name(let path): return try cx.resolve(path)
        case .field(let base, let name): return try base.evaluate(cx).field(name)
        case .unary(let op, let operand):
            let v = try operand.evaluate(cx)
            return op == "!" ? .flag(!(try v.flag())) : .number(-(try v.number()))
        case .binary(let op, let l, let r):
            if op == "&&" { return .flag(try l.evaluate(cx).flag() && r.evaluate(cx).flag()) }
            if op == "||" { return .flag(try l.evaluate(cx).flag() || r.evaluate(cx).flag()) }
            let a = try l.evaluate(cx), b = try r.evaluate(cx)
            if op == "==" || op == "!=" {
                let same = (try? a.number() == b.number()) ?? (a == b)
                return .flag(op == "==" ? same : !same)
            }
            let x = try a.number(), y = try b.number()
            switch op {
            case "+": return try finite(x + y)
            case "-": return try finite(x - y)
            case "*": return try finite(x * y)
            case "/":
                guard y != 0 else { throw ExpressionError("divides by zero (\(x.plainText) / 0)") }
                return try finite(x / y)
            case "<": return .flag(x < y)
            case "<=": return .flag(x <= y)
            case ">": return .flag(x > y)
            default: return .flag(x >= y)
            }
        case .call("if", let args):
            guard args.count == 3 else {
                throw ExpressionError("if takes 3 arguments: if(test, then, else), got \(args.count)")
            }
            return try args[0].evaluate(cx).flag() ? args[1].evaluate(cx) : args[2].evaluate(cx)
        case .call(let name, let args):
            let values = try args.map { try $0.evaluate(cx) }
            if let f = cx.functions[name] { return try f(values) }
            guard let f = SceneFunctions.all.first(where: { $0.name == name }) else {
                throw ExpressionError(
                    "unknown function '\(name)'; expected one of \((SceneFunctions.all.map(\.name) + ["if"] + cx.functions.keys.sorted()).joined(separator: ", "))"
                )
            }
            guard f.arity.contains(values.count) else {
                throw ExpressionError(
                    "\(name) takes \(f.signature), got \(values.count) argument\(values.count == 1 ? "" : "s")")
            }
            return try f.body(values)
        }
    }

    private func finite(_ v: Double) throws -> SceneValue {
        guard v.isFinite else { throw ExpressionError("the result \(v) is not a finite number") }
        return .number(v)
    }
}

/// Turns expression text into an `Expression`.
struct ExpressionParser {
    struct Token {
        enum Kind { case number, name, text, color, symbol }
        var kind: Kind
        var text: String
    }

    let tokens: [Token]
    let text: String
    var position = 0

    init(tokens: [Token], text: String) {
        self.tokens = tokens
        self.text = text
    }

    static func tokenize(_ s: String) throws -> [Token] {
        var out: [Token] = []
        let chars = Array(s)
        var i = 0
        func isNameStart(_ c: Character) -> Bool { c.isLetter || c == "_" || c == "$" }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace {
                i += 1
                continue
            }
            if c.isNumber || (c == "." && i + 1 < chars.count && chars[i + 1].isNumber) {
                var j = i
                while j < chars.count, chars[j].isNumber || chars[j] == "." { j += 1 }
                if j < chars.count, chars[j] == "e" || chars[j] == "E" {
                    var k = j + 1
                    if k < chars.count, chars[k] == "-" || chars[k] == "+" { k += 1 }
                    if k < chars.count, chars[k].isNumber {
                        j = k
                        while j < chars.count, chars[j].isNumber { j += 1 }
                    }
                }
                // A duration's unit sticks to its number: `0.3s`, `300ms`.
                for unit in SecondsText.units.map({ Array($0.suffix) }) {
                    let end = j + unit.count
                    if end <= chars.count, Array(chars[j..<end]) == unit,
                        end == chars.count || !(isNameStart(chars[end]) || chars[end].isNumber)
                    {
                        j = end
                        break
                    }
                }
                out.append(Token(kind: .number, text: String(chars[i..<j])))
                i = j
            } else if isNameStart(c) {
                var j = i
                while j < chars.count, isNameStart(chars[j]) || chars[j].isNumber { j += 1 }
                // A leading `$` marks a name in prose-like files (`$rect.midY`); it means nothing more.
                out.append(Token(kind: .name, text: String(chars[i..<j]).replacingOccurrences(of: "$", with: "")))
                i = j
            } else if c == "#" {
                var j = i + 1
                while j < chars.count, chars[j].isHexDigit { j += 1 }
                out.append(Token(kind: .color, text: String(chars[i..<j])))
                i = j
            } else if c == "'" || c == "\"" {
                guard let end = chars[(i + 1)...].firstIndex(of: c) else {
                    throw ExpressionError("'\(s)': a quote is not closed")
                }
                out.append(Token(kind: .text, text: String(chars[(i + 1)..<end])))
                i = end + 1
            } else {
                let two = i + 1 < chars.count ? String(chars[i...(i + 1)]) : ""
                if ["<=", ">=", "==", "!=", "&&", "||"].contains(two) {
                    out.append(Token(kind: .symbol, text: two))
                    i += 2
                } else if "+-*/()<>,.!".contains(c) {
                    out.append(Token(kind: .symbol, text: String(c)))
                    i += 1
                } else {
                    throw ExpressionError("'\(s)': unexpected character '\(c)'")
                }
            }
        }
        return out
    }

    private var next: Token? { position < tokens.count ? tokens[position] : nil }

    private mutating func take(_ symbol: String) -> Bool {
        guard let t = next, t.kind == .symbol, t.text == symbol else { return false }
        position += 1
        return true
    }

    private func fail(_ expected: String) -> ExpressionError {
        ExpressionError("'\(text)': expected \(expected)" + (next.map { ", got '\($0.text)'" } ?? " at the end"))
    }

    /// How deep parentheses, calls and unary operators may nest: far past any real
    /// expression, well short of the stack.
    static let maximumDepth = 64
    /// How many tokens (numbers, names, operators) one expression may have: far past any real
    /// one, and a chain of operators this long still evaluates well short of the stack.
    static let maximumTokens = 500
    /// How many dotted parts a name may have (`layout.card1.minX` has three).
    static let maximumNameParts = 32

    /// The start of `text`, for a message: at most a line's worth.
    static func excerpt(_ text: String) -> String {
        let line = text.prefix { $0 != "\n" }
        return line.count > 60 || line.count < text.count ? String(line.prefix(60)) + "…" : text
    }
    private var depth = 0

    mutating func expression() throws -> Expression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw ExpressionError("'\(text)': nested more than \(Self.maximumDepth) deep")
        }
        return try binary(level: 0)
    }

    private static let levels: [[String]] = [
        ["||"], ["&&"], ["<", "<=", ">", ">=", "==", "!="], ["+", "-"], ["*", "/"],
    ]

    private mutating func binary(level: Int) throws -> Expression {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while let t = next, t.kind == .symbol, Self.levels[level].contains(t.text) {
            position += 1
            left = .binary(t.text, left, try binary(level: level + 1))
            if level == 2 { break }  // comparisons do not chain
        }
        return left
    }

    private mutating func unary() throws -> Expression {
        if take("-") || take("!") {
            let op = tokens[position - 1].text
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else {
                throw ExpressionError("'\(text)': nested more than \(Self.maximumDepth) deep")
            }
            return .unary(op, try unary())
        }
        var e = try primary()
        while take(".") {
            guard let t = next, t.kind == .name else { throw fail("a field name after '.'") }
            position += 1
            e = .field(e, t.text)
        }
        return e
    }

    private mutating func primary() throws -> Expression {
        guard let t = next else { throw fail("a value") }
        position += 1
        switch t.kind {
        case .number:
            guard let v = SecondsText.parse(t.text), v.isFinite else {
                throw ExpressionError("'\(text)': '\(t.text)' is not a number")
            }
            return .literal(.number(v))
        case .text:
            return .literal(.text(t.text))
        case .color:
            guard let c = Color(hex: t.text) else {
                throw ExpressionError("'\(text)': '\(t.text)' is not a colour #RRGGBB or #RRGGBBAA")
            }
            return .literal(.color(c))
        case .name:
            if t.text == "true" { return .literal(.flag(true)) }
            if t.text == "false" { return .literal(.flag(false)) }
            if take("(") {
                var args: [Expression] = []
                if !take(")") {
                    repeat { args.append(try expression()) } while take(",")
                    guard take(")") else { throw fail("',' or ')'") }
                }
                return .call(t.text, args)
            }
            var path = [t.text]
            while position + 1 < tokens.count, tokens[position].text == ".", tokens[position].kind == .symbol,
                tokens[position + 1].kind == .name
            {
                path.append(tokens[position + 1].text)
                position += 2
                guard path.count <= Self.maximumNameParts else {
                    throw ExpressionError(
                        "'\(Self.excerpt(text))': a name of more than \(Self.maximumNameParts) dotted parts")
                }
            }
            return .name(path)
        case .symbol:
            guard t.text == "(" else {
                position -= 1
                throw fail("a value")
            }
            let e = try expression()
            guard take(")") else { throw fail("')'") }
            return e
        }
    }
}
