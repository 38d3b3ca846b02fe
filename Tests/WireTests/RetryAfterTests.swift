import Foundation
import Testing
import Wire

@Suite struct RetryAfterTests {
    /// 1994-11-06 08:49:00 UTC, 37 seconds before the dates below.
    let now = Date(timeIntervalSince1970: 784_111_740)

    @Test(arguments: [
        ("120", Duration.seconds(120)), (" 0 ", .zero),
        ("Sun, 06 Nov 1994 08:49:37 GMT", .seconds(37)),
        ("Sunday, 06-Nov-94 08:49:37 GMT", .seconds(37)),
        ("Sun Nov  6 08:49:37 1994", .seconds(37)),
        ("Sat, 05 Nov 1994 08:49:37 GMT", .zero),
    ])
    func parse_readsSecondsAndEveryHTTPDateForm(value: String, expected: Duration) {
        #expect(RetryAfter.parse(value, now: now) == expected)
    }

    @Test(arguments: [
        "", "soon", "-5", "1.5", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
    ])
    func parse_rejectsAnythingElse(value: String) {
        #expect(RetryAfter.parse(value, now: now) == nil)
    }

    @Test func format_roundsUpToWholeSeconds() {
        #expect(RetryAfter.format(.milliseconds(1500)) == "2")
        #expect(RetryAfter.format(.seconds(3)) == "3")
        #expect(RetryAfter.format(.zero) == "0")
    }
}
