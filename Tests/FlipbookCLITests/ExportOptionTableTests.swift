import ArgumentParser
import Build
import Flipbook
import Foundation
import Testing

@testable import FlipbookCLI
@testable import Studio

/// Each export option is one row of `ExportOption.table`; the front ends that offer it say what
/// the row says.
@Suite("Export options: one table, and every front end says what it says")
struct ExportOptionTableTests {
    /// Text with its runs of white space folded, as help wraps it.
    func folded(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    @Test("render's flags are the table's render rows, each with the row's help")
    func renderFlags() {
        let help = folded(RenderCommand.helpMessage(columns: 10_000))
        for row in ExportOption.table where row.offered.contains(.render) {
            let flag = row.option == .output ? "-o, --output" : row.option.flag
            #expect(help.contains(flag) && help.contains(folded(row.help)), "\(row.option.flag)")
        }
        // And every export option render has is a row: no flag of its own.
        let rendered = Set(ExportOption.offered(by: .render))
        for option in ExportOption.allCases where option != .scene {
            let shown = help.contains("\(option.flag) ") || help.contains("\(option.flag),")
            #expect(shown == rendered.contains(option), "\(option.flag)")
        }
    }

    @Test("render's flags are made from the table alone: each part's rows, read as a manifest's values are")
    func flagsFromRows() throws {
        let parts = ExportFlags<SceneFlags>.rows + ExportFlags<RunFlags>.rows + ExportFlags<EncoderFlags>.rows
        #expect(Set(parts.map(\.option)) == Set(ExportOption.offered(by: .render)))
        #expect(parts.count == ExportOption.offered(by: .render).count)
        // encode offers the encoder's rows, and plan the scene's.
        let encode = folded(EncodeCommand.helpMessage(columns: 10_000))
        let plan = folded(PlanCommand.helpMessage(columns: 10_000))
        for row in ExportOption.table where row.offered.contains(.render) {
            #expect(encode.contains(folded(row.help)) == (row.part == .encoder), "\(row.option.flag)")
            #expect(plan.contains(folded(row.help)) == (row.part == .scene), "\(row.option.flag)")
        }
        // A flag's value lands where a manifest's does; a default shown is a new request's.
        let parsed = try RenderCommand.parse([
            "expanding-view", "--speed", "0.5", "--colors", "64", "--loop", "2", "--set", "a=1", "--set", "b=2",
            "--dry-run",
        ]).request()
        var set = ExportRequest(scene: "expanding-view")
        for (option, value) in [
            (ExportOption.speed, "0.5"), (.colors, "64"), (.loop, "2"), (.set, "a=1"), (.set, "b=2"), (.dryRun, "true"),
        ] {
            try set.set(option, to: value)
        }
        #expect(parsed == set)
        let help = RenderCommand.helpMessage(columns: 10_000)
        #expect(help.contains("(default: 1)") && help.contains("(default: 256)") && help.contains("(default: forever)"))
    }

    @Test("A manifest's option keys are the table's manifest rows, with their summaries, in its order")
    func manifestKeys() {
        let options = ManifestFormat.keys.filter { $0.kind == .option }
        let rows = ExportOption.table.filter { $0.offered.contains(.manifest) }
        #expect(options.map(\.name) == rows.map(\.option.name))
        #expect(options.map(\.doc) == rows.map(\.summary))
        #expect(options.map(\.name).first == "fps" && options.map(\.name).last == "max-size")
    }

    @Test("The studio takes the table's studio rows, and shows a control for each row that has one")
    func studio() {
        #expect(StudioAPI.exportOptions == ExportOption.offered(by: .studio))
        let controls = ExportOption.table.compactMap(StudioState.ExportControl.init)
        #expect(controls.map(\.name) == ["fps", "width", "quality", "colors", "max-size"])
        let width = controls[1]
        #expect(width.min == 16 && width.max == 8192 && width.step == 1 && width.placeholder == "as shown")
        #expect(controls[4].min == nil)
    }

    @Test("The request's range checks read the table's ranges")
    func ranges() throws {
        #expect(ExportOption.fps.rangeText == "1...120" && ExportOption.width.rangeText == "16...8192")
        #expect(throws: ExportError.self) { try ExportRequest.check(fps: 121, scale: nil, width: nil) }
        #expect(throws: ExportError.self) { try ExportRequest.check(fps: nil, scale: nil, width: 8193) }
        try ExportRequest.check(fps: 120, scale: nil, width: 8192)
    }
}
