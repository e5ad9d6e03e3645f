import Foundation
import Scenes
import Testing

/// A param's declared range: each way of getting it wrong named as itself.
@Suite("Scene files: a param's range says what it got")
struct ParamRangeMessageTests {
    @Test(
        "A range that is not two finite numbers, low first, is refused with what it is",
        arguments: [
            ("[1, 3, 5]", "expected [low, high], got a list of 3"),
            ("[]", "expected [low, high], got a list of 0"),
            ("[.nan, 3]", "expected [low, high] of finite numbers, got '.nan' as low"),
            ("[1, nan]", "expected [low, high] of finite numbers, got 'nan' as high"),
            ("[5, 1]", "expected [low, high] with low ≤ high, got [5, 1]"),
            ("3", "expected [low, high], got '3'"),
        ])
    func rangeMessages(range: String, message: String) throws {
        let text = tinyScene.replacingOccurrences(of: "range: [1, 3]", with: "range: \(range)")
        #expect(text != tinyScene)
        let path = try writeScene(text)
        #expect {
            try SceneCatalog.prepare(path)
        } throws: { "\($0)".contains(message) && "\($0)".contains("count.range") }
    }
}
