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
}
