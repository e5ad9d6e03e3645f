import Foundation
import TestSupport
import Testing

@testable import Build

@Suite("Build manifest")
struct ManifestTests {
    static let matrix = """
        variants:
          theme:
            light: {}
            dark: {set: {assets.next: dark.png}}
          size:
            small: {width: 120}
            big: {width: 240}
        outputs:
          - path: out/{scene}-{theme}-{size}.gif
            scene: [expanding-view, expanding-cells]
            variants: [theme, size]
          - path: out/{scene}-{storyboard}.png
            scene: expanding-view
            storyboard: [bottom, left]
            sheet: true
        """

    @Test func expandsEveryCombination() throws {
        let m = try BuildManifest(text: Self.matrix, file: "/p/flipbook.yaml")
        #expect(m.folder == "/p")
        #expect(
            m.outputs.map(\.path) == [
                "out/expanding-view-light-small.gif", "out/expanding-view-light-big.gif",
                "out/expanding-view-dark-small.gif", "out/expanding-view-dark-big.gif",
                "out/expanding-cells-light-small.gif", "out/expanding-cells-light-big.gif",
                "out/expanding-cells-dark-small.gif", "out/expanding-cells-dark-big.gif",
                "out/expanding-view-bottom.png", "out/expanding-view-left.png",
            ])
        let darkBig = m.outputs[3]
        #expect(darkBig.assignments == ["assets.next=dark.png"])
        #expect(darkBig.options == [.init(key: "width", value: "240")])
        #expect(darkBig.variant == [.init(key: "theme", value: "dark"), .init(key: "size", value: "big")])
        #expect(darkBig.line == 9)
        #expect(
            try darkBig.request(folder: "/p", fileParams: ["assets.next"]).arguments == [
                "expanding-view", "--set", "assets.next=/p/dark.png", "--width", "240", "-o",
                "/p/out/expanding-view-dark-big.gif",
            ])
        #expect(m.outputs[9].kind == .sheet)
        #expect(
            m.outputs[9].commandLine
                == "flipbook render expanding-view --storyboard left --dry-run --sheet out/expanding-view-left.png")
    }

    /// Keys merge in order: defaults, the entry, then each variant; `set` merges key by key.
    @Test func laterKeysWin() throws {
        let m = try BuildManifest(
            text: """
                defaults: {scene: expanding-view, fps: 10, set: {timing.a: 1, timing.b: 2}}
                variants:
                  pace: {slow: {fps: 5, set: {timing.b: 3}}}
                outputs:
                  - {path: a.gif, quality: 80, set: {timing.c: 4}}
                  - {path: 'b-{pace}.gif', fps: 20, variants: [pace]}
                """, file: "flipbook.yaml")
        #expect(m.folder == ".")
        #expect(m.outputs[0].options == [.init(key: "fps", value: "10"), .init(key: "quality", value: "80")])
        #expect(m.outputs[0].assignments == ["timing.a=1", "timing.b=2", "timing.c=4"])
        #expect(m.outputs[1].options == [.init(key: "fps", value: "5")])
        #expect(m.outputs[1].assignments == ["timing.a=1", "timing.b=3"])
    }

    /// Every problem at once, sorted by line, each naming its line and key, with a guess at
    /// what a misspelt name meant.
    @Test func reportsEveryProblemWithItsLine() throws {
        let text = """
            defaults: {scale: 2, qualty: 80}
            variants:
              theme: {light: {}, dark: {path: x.gif}}
            outputs:
              - path: a.gif
                scene: expanding-veiw
              - path: b.png
                scene: expanding-view
              - path: c-{size}.gif
                scene: expanding-view
                variants: [theme, tehme]
              - path: same.gif
                scene: expanding-view
                variants: [theme]
              - path: frames/
                scene: expanding-view
            outptus: []
            """
        do {
            _ = try BuildManifest(text: text, file: "m.yaml")
            Issue.record("expected problems")
        } catch BuildError.manifest(let problems) {
            let lines = problems.map { "\($0)" }
            #expect(
                lines == [
                    "m.yaml:1: defaults.qualty: unknown key; did you mean quality?",
                    "m.yaml:3: variants.theme.dark.path: not allowed here",
                    "m.yaml:6: outputs[0].scene: 'expanding-veiw': no built-in or example scene of that name; did you mean expanding-view? a scene file's path ends in .yaml",
                    "m.yaml:7: outputs[1].path: a .png is a still (time: SECONDS) or a contact sheet (sheet: true); give one",
                    "m.yaml:9: outputs[2].path: c-{size}.gif: {size} is not known here; this entry knows {scene}, {theme}",
                    "m.yaml:11: outputs[2].variants: 'tehme': no such axis under `variants:`; did you mean theme?",
                    "m.yaml:12: outputs[3].path: same.gif is made more than once: the path needs {theme} to tell the variants apart",
                    "m.yaml:15: outputs[4].path: frames/: expected a .gif, .webp, .mp4, .apng or .png file (a folder of frames is not a preview)",
                    "m.yaml:17: outptus: unknown key; did you mean outputs? (expected version, defaults, variants, outputs)",
                ])
        }
    }

    @Test(arguments: [
        ("outputs: []", "outputs: expected a list of outputs"),
        ("version: 2\noutputs: [{path: a.gif, scene: expanding-view}]", "version: expected 1, got '2'"),
        ("[1, 2]", "expected a mapping with `outputs:`"),
        ("outputs: [{path: a.gif}]", "outputs[0].scene: missing"),
        ("outputs: [{scene: expanding-view}]", "outputs[0].path: missing"),
        ("outputs: [{path: a.png, scene: expanding-view, time: 1, sheet: true}]", "not both"),
        ("outputs: [{path: a.gif, scene: expanding-view, sheet: yes please}]", "expected true or false"),
        (
            "outputs: [{path: '{storyboard}.gif', scene: expanding-view}]",
            "{storyboard} is not known here (no storyboard is given)"
        ),
        ("outputs:\n  - path: a.gif\n    path: b.gif", "more than once"),
    ])
    func refuses(text: String, message: String) {
        #expect {
            _ = try BuildManifest(text: text, file: "m.yaml")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test(
        "The loader knows every key an output may hold: each, mistyped by a letter, is refused at its line with it suggested"
    )
    func everyOutputKeyIsKnown() {
        for key in ManifestFormat.keys where key.places.contains(.output) && key.name.count > 3 {
            let typo = String(key.name.dropLast())
            let text = "version: 1\noutputs:\n  - path: o.gif\n    scene: expanding-view\n    \(typo): x\n"
            #expect {
                _ = try BuildManifest(text: text, file: "m.yaml")
            } throws: { error in
                "\(error)".contains("m.yaml:5: outputs[0].\(typo): unknown key; did you mean \(key.name)?")
            }
        }
    }
}
