import Flipbook
import Foundation
import Scenes
import Testing

@Suite("ValueEdit changes the values' text and nothing else")
struct ValueEditTests {
    /// A file written by hand: comments everywhere, flow and block mappings, quotes.
    static let file = """
        # A scene's params, written by hand.
        version: 1
        params:
          timing:
            doc: "holds, in seconds"   # a section
            listHold: {seconds: 1.08, doc: the list before the tap}  # keep me
            endHold: {seconds: 1.46, range: [0, 10], doc: 'the end'}
          layout:
            doc: geometry
            barColor: {color: "#3067F4", doc: "the bar"}
            tappedRow: {rect: [0, 169, 375, 70], inside: canvas, doc: the row}
          present: {animation: {duration: 0.6, damping: 1}, doc: the row growing}
        block:
          nested:
            value: 3   # trailing comment
            other: 'x'
        """

    struct Case: Sendable, CustomTestStringConvertible {
        var path: [String]
        var value: String
        /// The changed line, as it reads after the edit.
        var line: String
        var testDescription: String { path.joined(separator: ".") + " = " + value }
    }

    @Test(
        "One change rewrites exactly one line, as expected",
        arguments: [
            Case(
                path: ["params", "timing", "listHold", "seconds"], value: "0.5",
                line: "    listHold: {seconds: 0.5, doc: the list before the tap}  # keep me"),
            Case(
                path: ["params", "timing", "endHold", "seconds"], value: "2",
                line: "    endHold: {seconds: 2, range: [0, 10], doc: 'the end'}"),
            Case(
                path: ["params", "layout", "barColor", "color"], value: "#FF0000",
                line: "    barColor: {color: \"#FF0000\", doc: \"the bar\"}"),
            Case(
                path: ["params", "layout", "tappedRow", "rect"], value: "[0, 99, 375, 80]",
                line: "    tappedRow: {rect: [0, 99, 375, 80], inside: canvas, doc: the row}"),
            Case(
                path: ["params", "present", "animation", "duration"], value: "0.9",
                line: "  present: {animation: {duration: 0.9, damping: 1}, doc: the row growing}"),
            Case(
                path: ["params", "present", "animation", "velocity"], value: "2",
                line: "  present: {animation: {duration: 0.6, damping: 1, velocity: 2}, doc: the row growing}"),
            Case(path: ["block", "nested", "value"], value: "4", line: "    value: 4   # trailing comment"),
            Case(path: ["block", "nested", "other"], value: "y", line: "    other: 'y'"),
        ])
    func oneLine(_ c: Case) throws {
        let edited = try ValueEdit.apply([.init(path: c.path, value: c.value)], to: Self.file, file: "f.yaml")
        let before = Self.file.split(separator: "\n", omittingEmptySubsequences: false)
        let after = edited.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        let changed = zip(before, after).filter { $0 != $1 }
        #expect(changed.count == 1)
        #expect(changed.first.map { String($0.1) } == c.line)
    }

    @Test("A key that is missing is added to the innermost mapping that is there, in its style")
    func adds() throws {
        let edited = try ValueEdit.apply(
            [.init(path: ["block", "nested", "third"], value: "5"), .init(path: ["fresh", "key"], value: "1.5")],
            to: Self.file, file: "f.yaml")
        let lines = edited.split(separator: "\n").map(String.init)
        #expect(lines.contains("    third: 5"))
        #expect(lines.firstIndex(of: "    third: 5") == lines.firstIndex(of: "    other: 'x'").map { $0 + 1 })
        #expect(lines.last == "fresh: {key: 1.5}")
        #expect(edited.split(separator: "\n").count == Self.file.split(separator: "\n").count + 2)
    }

    @Test("An empty config gets the value as its first key")
    func empty() throws {
        #expect(
            try ValueEdit.apply([.init(path: ["present", "duration"], value: "0.9")], to: "", file: "c.yaml")
                == "present: {duration: 0.9}\n")
        #expect(
            try ValueEdit.apply([.init(path: ["a"], value: "#00FF00")], to: "# mine\n", file: "c.yaml")
                == "# mine\na: \"#00FF00\"\n")
    }

    @Test("The edited text reads back with the new values and the old comments")
    func readsBack() throws {
        let edited = try ValueEdit.apply(
            [
                .init(path: ["params", "timing", "listHold", "seconds"], value: "0.25"),
                .init(path: ["params", "layout", "barColor", "color"], value: "#112233"),
            ], to: Self.file, file: "f.yaml")
        #expect(edited.contains("{seconds: 0.25, doc: the list before the tap}  # keep me"))
        #expect(edited.contains("# A scene's params, written by hand."))
        #expect(edited.contains("color: \"#112233\""))
    }

    @Test("A value that cannot be changed in place says so, naming the file and key")
    func refusesBlockLists() {
        let text = "a:\n  - 1\n  - 2\n"
        #expect {
            try ValueEdit.apply([.init(path: ["a"], value: "[3, 4]")], to: text, file: "c.yaml")
        } throws: { error in
            "\(error)".hasPrefix("c.yaml:2: a: a value over several lines")
        }
    }
}

@Suite("ShellQuoting: the one quoter of the commands the studio and the build print")
struct ShellQuotingTests {
    @Test(
        "Safe words stay bare; anything else is single-quoted, a quote inside escaped",
        arguments: [
            ("out/a-b_c.gif", "out/a-b_c.gif"), ("timing.listHold=0.5", "timing.listHold=0.5"), ("", "''"),
            ("my file.gif", "'my file.gif'"), ("it's", "'it'\\''s'"),
            ("layout.barColor=#FF0000", "'layout.barColor=#FF0000'"),
        ])
    func quoted(text: String, expected: String) {
        #expect(ShellQuoting.quoted(text) == expected)
    }
}
