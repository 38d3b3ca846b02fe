import MediaModel

/// What a person may write in their profile's display name and bio: a length in characters and
/// in UTF-8 bytes, at most `combiningMarksPerCharacter` combining marks on one character, and no
/// control characters, bidirectional controls or line separators (line breaks only in a bio).
/// Refused at the backend with a 400 that names the field, the character and its position, so
/// nothing stored can drive a terminal, reorder what is drawn beside it, or hide megabytes in a
/// name that counts as a few characters.
///
/// Complexity: O(n) in the text's length; the byte limit is checked first, so a huge text costs
/// no more than a look at its length.
struct ProfileText {
    /// The field's name in messages.
    var field: String
    /// How many characters it may hold.
    var characters: ClosedRange<Int>
    /// How many UTF-8 bytes it may hold.
    var bytes: Int
    /// Whether it may hold line breaks (`\n`).
    var allowsLineBreaks: Bool

    /// A display name: 1 to 50 characters, 200 bytes, one line.
    static let displayName = ProfileText(
        field: "displayName", characters: ProfileLimits.displayNameCharacters,
        bytes: ProfileLimits.displayNameBytes, allowsLineBreaks: false)
    /// A bio: up to 300 characters, 1,200 bytes, line breaks allowed.
    static let bio = ProfileText(
        field: "bio", characters: 0...ProfileLimits.bioCharacters, bytes: ProfileLimits.bioBytes,
        allowsLineBreaks: true)

    /// The most combining marks one character may carry (a letter with a few accents needs two).
    static let combiningMarksPerCharacter = 4

    /// Throws a 400 `invalid_body` naming the first rule `text` breaks.
    func check(_ text: String) throws(APIError) {
        let byteCount = text.utf8.count
        guard byteCount <= bytes else {
            throw .invalidBody("\(field): \(byteCount) UTF-8 bytes is over the limit of \(bytes)")
        }
        let count = text.count
        guard characters.contains(count) else {
            if characters.lowerBound > 0 {
                throw .invalidBody(
                    "\(field): must be \(characters.lowerBound) to \(characters.upperBound) characters, found \(count)"
                )
            }
            throw .invalidBody("\(field): \(count) characters is over the limit of \(characters.upperBound)")
        }
        for (offset, character) in text.enumerated() {
            var marks = 0
            for scalar in character.unicodeScalars {
                if let kind = refusedKind(scalar) {
                    let code = String(scalar.value, radix: 16, uppercase: true)
                    let allowed =
                        allowsLineBreaks
                        ? "letters, marks, numbers, punctuation, symbols, spaces and line breaks"
                        : "letters, marks, numbers, punctuation, symbols and spaces"
                    throw .invalidBody(
                        "\(field): U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) (\(kind)) "
                            + "at character \(offset + 1) is not allowed; use \(allowed)")
                }
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark: marks += 1
                default: break
                }
            }
            guard marks <= Self.combiningMarksPerCharacter else {
                throw .invalidBody(
                    "\(field): character \(offset + 1) carries \(marks) combining marks, over the limit of "
                        + "\(Self.combiningMarksPerCharacter)")
            }
        }
    }

    /// What kind of refused character `scalar` is, or nil when it is allowed.
    private func refusedKind(_ scalar: Unicode.Scalar) -> String? {
        if scalar == "\n" && allowsLineBreaks { return nil }
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return "a bidirectional control"
        default: break
        }
        switch scalar.properties.generalCategory {
        case .control: return "a control character"
        case .lineSeparator, .paragraphSeparator: return "a line separator"
        default: return nil
        }
    }
}
