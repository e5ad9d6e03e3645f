import Foundation
import Testing

@testable import SourceKey

/// A build key digests a source's keyed text: words for people and layout change nothing,
/// anything the compiled code could do differently changes it.
@Suite("Build keys: a source's keyed text leaves out comments, layout and messages, and keeps code")
struct KeyedSourceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func keyed(_ text: String) -> String { String(decoding: KeyedSource.text(of: Array(text.utf8)), as: UTF8.self) }

    func source(_ path: String) throws -> String {
        try String(contentsOfFile: Self.root + "/" + path, encoding: .utf8)
    }

    /// `text` with its one `old` replaced by `new`, which must be there exactly once.
    func replacing(_ old: String, with new: String, in text: String) throws -> String {
        #expect(text.components(separatedBy: old).count == 2, "\(old) is not in the file exactly once")
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test("A comment and re-indented lines in Sources/Render change nothing; a changed number does")
    func renderComment() throws {
        let file = try source("Sources/Render/SceneRenderer.swift")
        let commented = try replacing(
            "/// What can go wrong rendering",
            with: "// A new note.\n/* and /* a nested */ one */\n/// What may go wrong rendering",
            in: file)
        let reindented = file.replacingOccurrences(of: "\n    ", with: "\n  ").replacingOccurrences(
            of: "\n", with: "  \n")
        #expect(keyed(commented) == keyed(file))
        #expect(keyed(reindented) == keyed(file))
        let export = try source("Sources/Flipbook/Export/Export.swift")
        let changed = try replacing("(times.count + 39) / 40", with: "(times.count + 38) / 39", in: export)
        #expect(keyed(changed) != keyed(export))
    }

    @Test("An error's message in Sources/Flipbook changes nothing; a report line does")
    func flipbookMessage() throws {
        let file = try source("Sources/Flipbook/Export/Export.swift")
        let reworded = try replacing(
            "storyboard lasts \\(String(format: \"%.2f\", renderer.plan.duration)) s\"",
            with: "storyboard is \\(String(format: \"%.3f\", renderer.plan.duration)) seconds long\"", in: file)
        #expect(keyed(reworded) == keyed(file))
        let errors = try source("Sources/Flipbook/Export/ExportError.swift")
        let refused = try replacing("\"\\(option) \\(value): \"", with: "\"\\(option) = \\(value): \"", in: errors)
        #expect(keyed(refused) == keyed(errors))
        let report = try replacing("wrote contact sheet", with: "wrote the contact sheet", in: file)
        #expect(keyed(report) != keyed(file))
    }

    @Test("Comments and layout go; tokens stay apart, and a line break still ends a statement")
    func layout() {
        #expect(keyed("let a = 1 // one\n\n\n   let b = 2  ") == "let a = 1\nlet b = 2")
        #expect(keyed("a/* gap */b") == "a b")
        #expect(keyed("a - b") != keyed("a -b"))
        #expect(keyed("return\nx") != keyed("return x"))
        #expect(keyed("/* outer /* inner */ still */x") == "x")
    }

    @Test("String literals stay as written outside messages, raw and multi-line ones included")
    func literals() {
        #expect(keyed("let s = \"a  // b\"") == "let s = \"a  // b\"")
        #expect(keyed("let s = #\"a \" b\"#") == "let s = #\"a \" b\"#")
        #expect(keyed("let s = \"\"\"\n  a /* b */\n  \"\"\"") == "let s = \"\"\"\n  a /* b */\n  \"\"\"")
        #expect(keyed("let s = \"x\\(f(\"y)\"))z\" // c") == "let s = \"x\\(f(\"y)\"))z\"")
    }

    @Test("A throw's, a warning's and an error type's words go; the code around them stays")
    func messages() {
        #expect(keyed("throw E.bad(\"no such \\(x) file\")\nlet s = \"kept\"") == "throw E.bad(\"\")\nlet s = \"kept\"")
        #expect(
            keyed("guard ok else { throw E.bad(\n  \"one\",\n  \"two\") }\nlet s = \"kept\"")
                == "guard ok else { throw E.bad(\n\"\",\n\"\") }\nlet s = \"kept\"")
        #expect(keyed("events.warning(\"slow \\(n)\"); f(\"kept\")") == "events.warning(\"\"); f(\"kept\")")
        #expect(keyed("let warning = \"kept\"") == "let warning = \"kept\"")
        #expect(
            keyed(
                "extension Codecs.PNGError: CustomStringConvertible {\n var d: String { \"words\" }\n}\nlet k = \"IEND\""
            )
                == "extension Codecs.PNGError: CustomStringConvertible {\nvar d: String { \"\" }\n}\nlet k = \"IEND\"")
        #expect(keyed("struct Stamp { let k = \"IEND\" }") == "struct Stamp { let k = \"IEND\" }")
        // A number in a throw statement is code: which error, and so which exit.
        #expect(keyed("throw E.code(3)") != keyed("throw E.code(4)"))
    }
}

extension KeyedSourceTests {
    @Test("Every source a key covers reads the same without its comment lines: no literal or comment is mis-read")
    func everySource() throws {
        let modules = ["Geometry", "Planner", "Scenes", "Raster", "Render", "GIFCore", "Codecs", "Video", "Flipbook"]
        var files = 0
        for module in modules {
            let folder = Self.root + "/Sources/" + module
            for case let file as String in FileManager.default.enumerator(atPath: folder)!
            where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                let bare = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
                #expect(keyed(bare) == keyed(text), "\(module)/\(file)")
                #expect(keyed(text).contains("import") || !text.contains("import "), "\(module)/\(file)")
                files += 1
            }
        }
        #expect(files > 100)
    }
}
