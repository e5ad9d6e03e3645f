import Foundation
import Testing

@testable import Codecs
@testable import Scenes

/// Endless inputs (`/dev/zero`, given by mistake or on purpose) stop at a budget that fits
/// their kind of file, found while reading: they were read to the end of memory before.
@Suite("Endless inputs stop at their budget")
struct EndlessInputTests {
    @Test("A scene file or config of /dev/zero is an error naming it, past 16 MB")
    func yaml() {
        #expect {
            try SceneFile.load(path: "/dev/zero")
        } throws: { "\($0)" == "/dev/zero: more than 16 MB: far past any scene file or config (is it the right file?)" }
        #expect {
            try ConfigDocument.text(of: "/dev/zero")
        } throws: { "\($0)".contains("more than 16 MB") }
    }

    @Test("A PNG of /dev/zero stops at its pixel budget's bytes; a WebP at its own")
    func images() {
        #expect {
            try PNGCodec.read(path: "/dev/zero", maximumPixels: 100_000)
        } throws: { "\($0)".contains("more than 1 MB, past the budget") }
        #expect {
            try WebPReader(path: "/dev/zero")
        } throws: { "\($0)".contains("more than 512 MB, past the budget") }
        #expect {
            try GIFReader(path: "/dev/zero")
        } throws: { "\($0)".contains("/dev/zero") }
    }

    @Test("A duplicated key names its line and quotes no document; a file of NUL bytes quotes none of them")
    func yamlMessages() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yaml-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let duplicated = folder + "/dup.yaml"
        try "present: {duration: 0.9}\ntiming: {listHold: 1}\npresent: {duration: 0.8}\n".write(
            toFile: duplicated, atomically: true, encoding: .utf8)
        #expect {
            try SceneCatalog.prepare("expanding-cells", configFile: duplicated)
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("\(duplicated):1: not valid YAML: a mapping has the key 'present' more than once")
                && !message.contains("listHold")
        }
        let nul = folder + "/nul.yaml"
        try Data(count: 3000).write(to: URL(fileURLWithPath: nul))
        #expect {
            try SceneFile.load(path: nul)
        } throws: { error in
            let message = "\(error)"
            return message.contains("control characters are not allowed") && !message.contains("\u{0}")
                && message.count < 200
        }
    }
}
