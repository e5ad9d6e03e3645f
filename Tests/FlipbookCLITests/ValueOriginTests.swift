import Flipbook
import Foundation
import Testing

/// An image that does not load is named where its path came from: the config's line or the
/// `--set` that gave it, not the scene file's declaration of the param.
@Suite("An image's error names where its path came from")
struct ValueOriginTests {
    @Test("A config's path: its file and line; a --set: the assignment; neither: the scene file's line")
    func origins() throws {
        let dir = temporaryFolder()
        let config = dir + "/full.yaml"
        try "assets:\n  list: moved/list.png\n".write(toFile: config, atomically: true, encoding: .utf8)
        func message(_ change: (inout ExportRequest) -> Void) -> String {
            var request = ExportRequest(scene: "expanding-cells")
            request.output = nil
            change(&request)
            do { _ = try request.run() } catch { return "\(error)" }
            return ""
        }
        #expect(message { $0.config = config }.hasPrefix("\(config):2: assets.list: "))
        #expect(
            message { $0.assignments = ["assets.list=nope.png"] }.hasPrefix("--set assets.list=nope.png: assets.list: ")
        )
        // A --set wins over the config, and is named.
        #expect(
            message {
                $0.config = config
                $0.assignments = ["assets.list=nope.png"]
            }.hasPrefix("--set assets.list=nope.png: "))
    }
}
