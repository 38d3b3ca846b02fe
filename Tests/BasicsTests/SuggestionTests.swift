import Basics
import Testing

@Suite struct SuggestionTests {
    @Test(
        arguments: [
            ("feedPolicy", ["feedPolicy2", "feedPolicy", "branding"], "feedPolicy2"),
            ("brandng", ["branding", "tabs"], "branding"),
            ("Branding", ["branding", "tabs"], "branding"),
            ("feed", ["feedPolicy", "tabs"], "feedPolicy"),
            ("zzz", ["branding", "tabs"], nil),
        ] as [(String, [String], String?)])
    func closest_isALikelyTypoOrNothing(word: String, candidates: [String], expected: String?) {
        #expect(Suggestion.closest(to: word, in: candidates) == expected)
    }

    @Test func didYouMean_isAClauseOrEmpty() {
        #expect(Suggestion.didYouMean("tab", in: ["tabs"]) == "; did you mean 'tabs'?")
        #expect(Suggestion.didYouMean("qqqq", in: ["tabs"]) == "")
    }

    @Test func swappedNeighbours_countAsOneEdit() {
        #expect(Suggestion.closest(to: "prot", in: ["port", "help"]) == "port")
        #expect(Suggestion.closest(to: "feedPolciy", in: ["feedPolicy", "tabs"]) == "feedPolicy")
    }

    @Test func distantWords_getNoSuggestion() {
        #expect(Suggestion.closest(to: "zzzz", in: ["port", "help"]) == nil)
    }
}
