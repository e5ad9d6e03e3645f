import Testing

@testable import Scenes

/// A number assigned (`--set`, a manifest, a fit's thousands of trials) is built as the YAML it
/// stands for composes, not parsed: it must read as that YAML does, value or error.
@Suite struct NumberAssignmentTests {
    @Test("A number's assignment reads as its composed YAML, value and error")
    func readsAsItsYAML() throws {
        let file = try SceneFile(text: tinyScene, path: "/tmp/tiny.yaml")
        let cases = [
            ("pause", "0.75"), ("count", "3"), ("count", "7"), ("count", "2.5"), ("grow.duration", "0.4975"),
            ("grow.duration", "-1"), ("spot.x", "12"), ("settings.fps", "24"), ("area.width", "3"), ("tint", "5"),
            ("on", "1"), ("pick", "0"), ("nothing", "1"), ("grow.nothing", "2"),
        ]
        for (key, value) in cases {
            #expect(ConfigDocument.isPlainNumber(value))
            let built = Result {
                try ConfigDocument.read(assignment: "\(key)=\(value)", over: file.defaults, fields: file.fields)
            }
            var yaml = ""
            let keys = key.split(separator: ".")
            for (depth, k) in keys.enumerated() {
                yaml +=
                    String(repeating: "  ", count: depth) + k + ":" + (depth == keys.count - 1 ? " \(value)" : "")
                    + "\n"
            }
            let composed = Result {
                try ConfigDocument.read(
                    yaml, file: "\(key)=\(value)", over: file.defaults, fields: file.fields, folder: "")
            }
            switch (built, composed) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(key)=\(value)")
            case (.failure(let a as ConfigError), .failure(let b as ConfigError)):
                #expect(a.message == b.message && a.keyPath == b.keyPath && a.line == nil, "\(key)=\(value)")
            default: Issue.record("\(key)=\(value): \(built) against \(composed)")
            }
        }
        // The cases cover both: values taken and values refused.
        let taken = cases.filter {
            (try? ConfigDocument.read(assignment: "\($0)=\($1)", over: file.defaults, fields: file.fields)) != nil
        }.map { "\($0)=\($1)" }
        #expect(taken == ["pause=0.75", "count=3", "grow.duration=0.4975"])
    }

    @Test("Only digits with an optional sign and fraction take the built path")
    func plainNumbers() {
        for text in ["0", "12", "-3", "0.5", "-0.25", "1000000"] {
            #expect(ConfigDocument.isPlainNumber(text), "\(text)")
        }
        for text in ["", "-", "--1", ".5", "5.", "1e5", "0x1F", "+1", "1 ", "1.2.3", "١", "inf", "nan", "1_000"] {
            #expect(!ConfigDocument.isPlainNumber(text), "\(text)")
        }
    }
}
