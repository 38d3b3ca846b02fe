/// Text from a manifest made safe to print: a diagnostic echoes the values it complains about,
/// and a manifest may hold anything (an escape sequence that retitles the terminal and clears
/// the screen, a 10 MB key).
///
/// ```swift
/// DiagnosticText.escaped("a\u{1B}[2J")        // a\u001b[2J
/// DiagnosticText.value(String(repeating: "k", count: 10_000))  // kkk…k… (10000 characters)
/// ```
public enum DiagnosticText {
    /// The most characters of one value a diagnostic quotes.
    public static let valueLimit = 60
    /// The most characters a diagnostic's message holds.
    public static let messageLimit = 2_000

    /// Whether `scalar` would act on a terminal rather than print: a control character (C0,
    /// DEL, C1) or a bidirectional override or isolate, which reorders what follows.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }

    /// `text` with every control character written as a JSON escape (`\u001b`), the way the
    /// manifest itself may spell it.
    ///
    /// Complexity: O(n).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A value to quote in a diagnostic: escaped, and cut to `valueLimit` characters with its
    /// length said when longer.
    ///
    /// Complexity: O(n) to count the characters.
    public static func value(_ text: String) -> String {
        let count = text.count
        guard count > valueLimit else { return escaped(text) }
        return escaped(String(text.prefix(valueLimit))) + "… (\(count) characters)"
    }

    /// A whole message: escaped, and cut to `messageLimit` characters when longer.
    static func message(_ text: String) -> String {
        let escaped = escaped(text)
        guard escaped.count > messageLimit else { return escaped }
        return String(escaped.prefix(messageLimit)) + "… (message cut)"
    }
}
