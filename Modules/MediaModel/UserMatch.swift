import Foundation

/// How an account matches what a person typed to find it: the one rule the backend's account
/// search and the apps' own lists of accounts (onboarding's "continue as another account") share.
///
/// Handles that start with the text come first, then display names with a word that starts with
/// it. Case does not matter (`"KA"` finds `Karen` and `@kathleen`), a leading `@` is left out,
/// and the text may hold spaces (`"ada lo"` finds `Ada Lovelace`). Anything else is no match.
///
/// ```swift
/// let query = UserMatch.query("@Ka")                                      // "ka"
/// UserMatch(query, handle: "karen", displayName: "Karen Abbott")          // .handle
/// UserMatch(query, handle: "reef_lee", displayName: "Kai Reef")           // .name
/// UserMatch(query, handle: "ivan", displayName: "Ivan Kowalski")          // nil
/// ```
public enum UserMatch: Int, Comparable, Sendable {
    /// The handle starts with the text.
    case handle
    /// A word of the display name starts with the text.
    case name

    /// How `handle` and `displayName` match `query` (already normalized by ``query(_:)``), or nil
    /// when they do not; an empty query matches nothing. O(length of the name).
    public init?(_ query: String, handle: String, displayName: String) {
        guard !query.isEmpty else { return nil }
        if handle.lowercased().hasPrefix(query) {
            self = .handle
            return
        }
        let name = displayName.lowercased()
        guard name.hasPrefix(query) || name.contains(" " + query) else { return nil }
        self = .name
    }

    /// What a person typed, as the rule compares it: lowered, trimmed of spaces, and without a
    /// leading `@`.
    public static func query(_ typed: String) -> String {
        let trimmed = typed.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        return String(trimmed.hasPrefix("@") ? trimmed.dropFirst() : Substring(trimmed))
    }

    /// The elements of `candidates` that match `typed`, best first: handle matches, then name
    /// matches, each by handle. O(n log n).
    public static func ranked<Candidate>(
        _ typed: String, _ candidates: [Candidate], handle: (Candidate) -> String,
        displayName: (Candidate) -> String
    ) -> [Candidate] {
        let query = query(typed)
        let matched = candidates.compactMap { candidate -> (Candidate, UserMatch, String)? in
            let handle = handle(candidate)
            return UserMatch(query, handle: handle, displayName: displayName(candidate)).map {
                (candidate, $0, handle)
            }
        }
        return matched.sorted { ($0.1, $0.2) < ($1.1, $1.2) }.map(\.0)
    }

    /// Orders a handle match before a name match.
    public static func < (lhs: UserMatch, rhs: UserMatch) -> Bool { lhs.rawValue < rhs.rawValue }
}
