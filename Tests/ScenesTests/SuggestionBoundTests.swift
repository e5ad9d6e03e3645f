import Scenes
import Testing

@Suite("Did you mean: bounded by the name's length")
struct SuggestionBoundTests {
    @Test("A typo is found; a megabyte of name is no typo and is not compared")
    func bounded() {
        #expect(
            Suggestion.closest(to: "timing.listHlod", in: ["timing.listHold", "timing.endHold"]) == "timing.listHold")
        let huge = String(repeating: "a", count: 1 << 20)
        #expect(Suggestion.closest(to: huge, in: ["timing.listHold", huge + "b"]) == nil)
        // A candidate too far in length to be a typo is passed over without comparing.
        #expect(Suggestion.closest(to: "ab", in: [String(repeating: "x", count: 200)]) == nil)
    }
}
