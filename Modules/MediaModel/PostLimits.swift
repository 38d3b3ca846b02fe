/// The limits every post and reply keeps, declared once: the backend refuses what breaks them
/// and every app's composer policy reads them, so no composer lets a person make a post the
/// server then refuses.
///
/// Characters alone do not bound a text: "a" followed by ten million combining marks is one
/// character of 20 MB. So the text is bounded in bytes too, and each character in its marks.
///
/// ```swift
/// if let problem = PostLimits.textProblem(in: draft) { show(problem.description) }
/// ```
public enum PostLimits {
    /// The most photos one carousel holds.
    public static let carouselItems = 10

    /// The most attachments one post may carry.
    public static let attachmentsPerPost = 10

    /// The most characters a post's or reply's text may have: the backend refuses a longer one,
    /// so every app's composer limit must be at most this (manifest-lint checks each app's).
    public static let textCharacters = 2200

    /// The most bytes (UTF-8) a post's or reply's text may have: room for the longest text
    /// (``textCharacters``) at seven bytes a character.
    public static let textBytes = 16_384

    /// The most bytes one photo may have, as uploaded.
    public static let photoBytes = 10 << 20

    /// The most combining marks (Unicode categories Mn, Mc and Me) one character may carry:
    /// more than any writing system stacks (Vietnamese uses two, pointed and cantillated Hebrew
    /// four), far fewer than "Zalgo" text piles up.
    public static let combiningMarksPerCharacter = 8

    /// The largest attachment of a type this build does not know, as JSON bytes: such an
    /// attachment is kept as it came, so it may not be large.
    public static let unknownAttachmentBytes = 4096

    /// How a text breaks the limits of bytes and marks (characters are each app's own limit).
    public enum TextProblem: Hashable, Sendable, CustomStringConvertible {
        /// The text is `bytes` bytes long, over ``PostLimits/textBytes``.
        case tooManyBytes(bytes: Int)
        /// The `character`-th character (from 1) carries `marks` combining marks, over
        /// ``PostLimits/combiningMarksPerCharacter``.
        case tooManyMarks(character: Int, marks: Int)

        /// The problem, for a person: what is over which limit (`16385 bytes (UTF-8) is over the
        /// limit of 16384`); callers put the field's name in front (`text: `).
        public var description: String {
            switch self {
            case .tooManyBytes(let bytes):
                "\(bytes) bytes (UTF-8) is over the limit of \(PostLimits.textBytes)"
            case .tooManyMarks(let character, let marks):
                "character \(character) of the text carries \(marks) combining marks, over the limit of "
                    + "\(PostLimits.combiningMarksPerCharacter) per character"
            }
        }
    }

    /// The first way `text` breaks the byte or mark limits, or nil when it keeps them. Bytes are
    /// checked first, without walking the text (O(1) for a native string); marks then in one
    /// pass over at most ``textBytes`` bytes.
    public static func textProblem(in text: String) -> TextProblem? {
        let bytes = text.utf8.count
        guard bytes <= textBytes else { return .tooManyBytes(bytes: bytes) }
        for (index, character) in text.enumerated() {
            let marks = character.unicodeScalars.count { scalar in
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark: true
                default: false
                }
            }
            if marks > combiningMarksPerCharacter { return .tooManyMarks(character: index + 1, marks: marks) }
        }
        return nil
    }
}
