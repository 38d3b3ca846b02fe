/// An app's name in the three spellings the package uses: `Quill` (its types, its folder, its
/// line in Package.swift's `apps`), `quill` (its id, executable, manifest and provider ids) and
/// `QUILL` (constants).
struct AppName: Sendable, Hashable, CustomStringConvertible {
    /// The name as types spell it: `Quill`.
    let name: String

    /// Wraps a name already known to be valid (one from Package.swift's `apps` list).
    init(_ name: String) { self.name = name }

    /// The id, executable and manifest name: `quill`.
    var lowercased: String { name.lowercased() }

    /// The upper-case spelling: `QUILL`.
    var uppercased: String { name.uppercased() }

    /// The app's library target: `QuillApp`.
    var library: String { "\(name)App" }

    /// `Quill`.
    var description: String { name }

    /// The name a person typed, if it can name an app: ASCII letters and digits, starting with an
    /// upper-case letter. The refusal says what is wrong and suggests a name when one is obvious
    /// (`quill` → `Quill`, `quill-notes` → `QuillNotes`).
    static func validating(_ text: String) throws(ScaffoldRefusal) -> AppName {
        let suggestion = suggestedName(for: text).map { "; try '\($0)'" } ?? ""
        guard let first = text.unicodeScalars.first else {
            throw ScaffoldRefusal("the app's name is empty; give one such as 'Quill'")
        }
        if let bad = text.unicodeScalars.first(where: { !isASCIILetterOrDigit($0) }) {
            throw ScaffoldRefusal(
                "'\(text)' has '\(bad)', which an app's name cannot hold: it names Swift types, a folder and "
                    + "a command, so it may use ASCII letters and digits only\(suggestion)")
        }
        guard ("A"..."Z").contains(first) else {
            throw ScaffoldRefusal(
                "'\(text)' must start with an uppercase letter: the app's types are named after it "
                    + "(<Name>, <Name>App, <Name>Branding)\(suggestion)")
        }
        return AppName(text)
    }

    /// A valid name close to `text`: its parts (split at anything but ASCII letters and digits)
    /// each capitalized and joined; nil when there is none or `text` is valid already.
    private static func suggestedName(for text: String) -> String? {
        let separators: Set<Unicode.Scalar> = ["-", "_", " ", "."]
        guard text.unicodeScalars.allSatisfy({ isASCIILetterOrDigit($0) || separators.contains($0) })
        else { return nil }
        let parts = text.split(whereSeparator: { $0.unicodeScalars.allSatisfy { separators.contains($0) } })
        let joined = parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.unicodeScalars.first, ("A"..."Z").contains(first), joined != text else {
            return nil
        }
        return joined
    }

    private static func isASCIILetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
