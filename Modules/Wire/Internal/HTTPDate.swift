import Foundation

/// Parses the three date forms HTTP recipients must accept (RFC 9110 section 5.6.7), all GMT:
/// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`, and
/// asctime `Sun Nov  6 08:49:37 1994`.
enum HTTPDate {
    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    /// The date, or nil when `text` is in none of the three forms or names an impossible time.
    static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: String?
        switch words.count {
        case 6 where words[5].uppercased() == "GMT":
            // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
            day = Int(words[1])
            month = monthIndex(words[2])
            year = Int(words[3])
            time = words[4]
        case 4 where words[3].uppercased() == "GMT":
            // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT".
            let pieces = words[1].split(separator: "-").map(String.init)
            guard pieces.count == 3, let written = Int(pieces[2]) else { return nil }
            day = Int(pieces[0])
            month = monthIndex(pieces[1])
            year = pieces[2].count == 2 ? (written < 70 ? 2000 + written : 1900 + written) : written
            time = words[2]
        case 5:
            // asctime: "Sun Nov  6 08:49:37 1994".
            month = monthIndex(words[1])
            day = Int(words[2])
            time = words[3]
            year = Int(words[4])
        default:
            return nil
        }
        guard let day, let month, let year, let time else { return nil }
        let clock = time.split(separator: ":").map { Int($0) }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2],
            (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second),
            (1...9999).contains(year)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func monthIndex(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
