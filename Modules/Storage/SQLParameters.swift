/// SQLite's statement parameters (`?` and `?NNN`) found outside quotes and comments, for an
/// engine whose parameters are written another way (PostgreSQL's `$1`).
///
/// A bare `?` takes the number after the largest so far, as in SQLite; `?NNN` takes `NNN`.
///
/// ```swift
/// SQLParameters.rewrite("SELECT * FROM t WHERE a = ? AND b = '?' AND c = ?1") { "$\($0)" }
/// // (sql: "SELECT * FROM t WHERE a = $1 AND b = '?' AND c = $1", count: 1)
/// ```
public enum SQLParameters {
    /// `sql` with each parameter replaced by `spelling(number)`, and the largest number used.
    public static func rewrite(_ sql: String, as spelling: (Int) -> String) -> (sql: String, count: Int) {
        var output: [UInt8] = []
        output.reserveCapacity(sql.utf8.count + 16)
        var largest = 0
        let bytes = Array(sql.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // A quoted string or name; a doubled quote inside it is part of it.
                var end = index + 1
                while end < bytes.count {
                    if bytes[end] == byte {
                        if end + 1 < bytes.count, bytes[end + 1] == byte {
                            end += 2
                            continue
                        }
                        break
                    }
                    end += 1
                }
                end = min(end + 1, bytes.count)
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                var end = index + 2
                while end + 1 < bytes.count,
                    !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/"))
                {
                    end += 1
                }
                end = min(end + 2, bytes.count)
                output += bytes[index..<end]
                index = end
            case UInt8(ascii: "?"):
                var end = index + 1
                var number = 0
                while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") {
                    number = number * 10 + Int(bytes[end] - UInt8(ascii: "0"))
                    end += 1
                }
                if end == index + 1 { number = largest + 1 }
                largest = max(largest, number)
                output += spelling(number).utf8
                index = end
            default:
                output.append(byte)
                index += 1
            }
        }
        return (String(decoding: output, as: UTF8.self), largest)
    }

    /// How many values a statement takes: its largest parameter number.
    public static func count(in sql: String) -> Int { rewrite(sql) { _ in "" }.count }
}
