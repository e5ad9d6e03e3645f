/// The part of a Swift source file that decides what the compiled code does to an output's
/// bytes: what a build key digests, so that a preview goes stale when a pixel or a byte could
/// change and stays fresh when only words for people do.
///
/// Left out:
/// - comments, and layout: a run of spaces becomes one space, a run holding a line break one
///   line break (both still separate tokens, and a line break still ends a statement);
/// - the text of a thrown error (every string literal in a `throw` statement) and of a warning
///   (in the arguments of a call named `warning`), and every string literal in the body of a
///   type or extension whose name ends in `Error`: a throw writes nothing, and a warning goes to
///   standard error, so neither reaches an output.
///
/// Everything else is kept as written, other string literals included: a report line or a
/// YAML key may be words for people or bytes of a file, and keeping it errs on rebuilding.
public enum KeyedSource {
    /// The keyed text of `source`, a Swift file's bytes.
    public static func text(of source: [UInt8]) -> [UInt8] {
        var lexer = Lexer(source)
        lexer.run()
        return lexer.out
    }
}

/// One pass over a file: tokens out, comments and layout collapsed, messages blanked.
private struct Lexer {
    /// Where a message ends, and so the string literals in it are left out.
    enum Scope {
        /// A `throw` statement at this bracket depth: it ends with a line break at that depth, a
        /// `;`, or a bracket closing below it.
        case statement(depth: Int)
        /// A call's or a type's brackets, opened at this depth: they end when it closes.
        case brackets(depth: Int)
    }

    let src: [UInt8]
    var i = 0
    var out: [UInt8] = []
    /// 0 none, 1 a space, 2 a line break, owed before the next token.
    var gap = 0
    var depth = 0
    var scopes: [Scope] = []
    /// The next opening bracket starts a message scope (after `warning` or an error type's name).
    var opensMessage: UInt8?
    /// The last identifier, and the one before it.
    var word: [UInt8] = [], previous: [UInt8] = []

    init(_ source: [UInt8]) { src = source }

    var inMessage: Bool { !scopes.isEmpty }

    mutating func emit(_ bytes: some Sequence<UInt8>) {
        if gap == 2 { out.append(0x0A) } else if gap == 1 { out.append(0x20) }
        gap = 0
        out.append(contentsOf: bytes)
    }

    func at(_ k: Int) -> UInt8 { k < src.count ? src[k] : 0 }

    static func isIdentifier(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x24
            || c >= 0x80
    }

    mutating func run() {
        while i < src.count {
            let c = src[i]
            switch c {
            case 0x20, 0x09, 0x0D, 0x0B, 0x0C:
                gap = max(gap, out.isEmpty ? 0 : 1)
                i += 1
            case 0x0A:
                lineBreak()
                i += 1
            case 0x2F where at(i + 1) == 0x2F:
                while i < src.count && src[i] != 0x0A { i += 1 }
            case 0x2F where at(i + 1) == 0x2A:
                skipBlockComment()
                gap = max(gap, out.isEmpty ? 0 : 1)
            case 0x22:
                literal(hashes: 0)
            case 0x23 where rawHashes() != nil:
                literal(hashes: rawHashes()!)
            case _ where Self.isIdentifier(c):
                identifier()
            default:
                punctuation(c)
                i += 1
            }
        }
    }

    mutating func lineBreak() {
        if !out.isEmpty { gap = 2 }
        if case .statement(let d)? = scopes.last, depth <= d { scopes.removeLast() }
    }

    /// How many `#` open a raw string here, or nil where `#` starts something else (`#if`).
    func rawHashes() -> Int? {
        var k = i
        while at(k) == 0x23 { k += 1 }
        return at(k) == 0x22 ? k - i : nil
    }

    mutating func skipBlockComment() {
        var nesting = 0
        while i < src.count {
            if src[i] == 0x2F && at(i + 1) == 0x2A {
                nesting += 1
                i += 2
            } else if src[i] == 0x2A && at(i + 1) == 0x2F {
                nesting -= 1
                i += 2
                if nesting == 0 { return }
            } else {
                i += 1
            }
        }
    }

    mutating func identifier() {
        let start = i
        while i < src.count && Self.isIdentifier(src[i]) { i += 1 }
        let name = Array(src[start..<i])
        let afterDot = out.last == 0x2E && gap == 0
        emit(name)
        let kinds: [[UInt8]] = ["enum", "struct", "class", "extension", "actor"].map { Array($0.utf8) }
        if name == Array("throw".utf8) {
            scopes.append(.statement(depth: depth))
        } else if name == Array("warning".utf8) {
            var k = i
            while at(k) == 0x20 { k += 1 }
            if at(k) == 0x28 { opensMessage = 0x28 }
        } else if kinds.contains(word) || (word.isEmpty == false && kinds.contains(previous) && afterDot) {
            // `extension Foo.BarError`: the last part names it.
            if name.count >= 5 && Array(name.suffix(5)) == Array("Error".utf8) { opensMessage = 0x7B }
        }
        previous = word
        word = name
    }

    mutating func punctuation(_ c: UInt8) {
        switch c {
        case 0x28, 0x5B, 0x7B:
            if opensMessage == c {
                scopes.append(.brackets(depth: depth))
                opensMessage = nil
            }
            depth += 1
        case 0x29, 0x5D, 0x7D:
            depth -= 1
            while let scope = scopes.last {
                switch scope {
                case .statement(let d): guard depth < d else { return finish(c) }
                case .brackets(let d): guard depth <= d else { return finish(c) }
                }
                scopes.removeLast()
            }
        case 0x3B:
            if case .statement(let d)? = scopes.last, depth <= d { scopes.removeLast() }
        default:
            break
        }
        finish(c)
    }

    /// Writes a punctuation character and forgets the words before it (a dot joins a name).
    mutating func finish(_ c: UInt8) {
        // `warning` opens a message only with its call's parenthesis right after it.
        if opensMessage == 0x28 && c != 0x28 { opensMessage = nil }
        emit([c])
        if c != 0x2E { (word, previous) = ([], []) }
    }

    /// A string literal from `i` (at its first `#` or quote): kept as written, or blanked in a
    /// message. Interpolations are scanned for nested literals and brackets, not lexed again.
    mutating func literal(hashes: Int) {
        let start = i
        i += hashes
        let multiline = at(i) == 0x22 && at(i + 1) == 0x22 && at(i + 2) == 0x22
        i += multiline ? 3 : 1
        scanBody(hashes: hashes, multiline: multiline)
        if inMessage { emit(Array("\"\"".utf8)) } else { emit(src[start..<i]) }
    }

    /// Moves `i` past a literal's body and its closing delimiter.
    mutating func scanBody(hashes: Int, multiline: Bool) {
        while i < src.count {
            let c = src[i]
            if c == 0x5C {
                var k = i + 1
                var h = 0
                while h < hashes && at(k) == 0x23 {
                    h += 1
                    k += 1
                }
                if h == hashes && at(k) == 0x28 {
                    i = k + 1
                    skipInterpolation()
                    continue
                }
                i = h == hashes ? k + 1 : i + 1
                continue
            }
            if c == 0x22 {
                let closes = multiline ? at(i + 1) == 0x22 && at(i + 2) == 0x22 : true
                if closes {
                    var k = i + (multiline ? 3 : 1)
                    var h = 0
                    while h < hashes && at(k) == 0x23 {
                        h += 1
                        k += 1
                    }
                    if h == hashes {
                        i = k
                        return
                    }
                }
            }
            i += 1
        }
    }

    /// Moves `i` past an interpolation's code to its closing parenthesis.
    mutating func skipInterpolation() {
        var nesting = 1
        while i < src.count {
            let c = src[i]
            if c == 0x22 || (c == 0x23 && rawHashes() != nil) {
                let h = c == 0x23 ? rawHashes()! : 0
                i += h
                let multiline = at(i) == 0x22 && at(i + 1) == 0x22 && at(i + 2) == 0x22
                i += multiline ? 3 : 1
                scanBody(hashes: h, multiline: multiline)
                continue
            }
            if c == 0x28 { nesting += 1 }
            if c == 0x29 {
                nesting -= 1
                if nesting == 0 {
                    i += 1
                    return
                }
            }
            i += 1
        }
    }
}
