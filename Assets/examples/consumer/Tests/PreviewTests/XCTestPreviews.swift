import FlipbookTesting
import XCTest

/// The same assertion from XCTest: a failure is an XCTFail at the call.
final class XCTestPreviews: XCTestCase {
    func testLoginButtonCoversTheScreen() throws {
        try assertFrames(of: Transition(builtIn: "expanding-view", storyboard: "small"), at: [0.8, 0.95])
    }
}
