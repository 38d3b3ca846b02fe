import Testing
import Wire

@Suite struct HeadersTests {
    @Test func lookup_ignoresCase() {
        let headers: Headers = ["Content-Type": "application/json", "Retry-After": "5"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["RETRY-AFTER"] == "5")
        #expect(headers["Authorization"] == nil)
    }

    @Test func settingAName_replacesEveryFieldOfThatNameInPlace() {
        var headers: Headers = ["A": "1", "X-Tag": "one", "B": "2"]
        headers.add("x-tag", "two")
        headers["X-TAG"] = "three"
        #expect(headers.fields.map(\.name) == ["A", "X-TAG", "B"])
        #expect(headers.values(for: "x-tag") == ["three"])
        headers["x-tag"] = nil
        #expect(headers.fields.map(\.name) == ["A", "B"])
    }

    @Test func optionalWhitespace_isSpacesAndTabsAtTheEnds_andNothingElse() {
        #expect(" \t gzip, br\t ".trimmingOptionalWhitespace() == "gzip, br")
        #expect("\t \t".trimmingOptionalWhitespace() == "")
        #expect("".trimmingOptionalWhitespace() == "")
        #expect("chunked".trimmingOptionalWhitespace() == "chunked")
        // A no-break space, a line break and text past ASCII are not HTTP's whitespace: kept.
        #expect("\u{00A0}42 ".trimmingOptionalWhitespace() == "\u{00A0}42")
        #expect("\n42".trimmingOptionalWhitespace() == "\n42")
        #expect(" é ".trimmingOptionalWhitespace() == "é")
        let list = "a , \tb,c\t".split(separator: ",").map { $0.trimmingOptionalWhitespace() }
        #expect(list == ["a", "b", "c"])
    }
}
