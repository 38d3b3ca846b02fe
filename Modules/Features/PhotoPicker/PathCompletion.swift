/// Completing a path typed in the photo picker, the way a shell's tab does: the typed path's
/// last part is extended to the longest prefix every match shares, and a single folder match
/// gets its `/`.
///
/// Matches are the entries the picker lists there (folders and photo files, no hidden ones), so
/// completion never offers what the picker would not show.
///
/// ```swift
/// // In /home/ada/Pictures, holding "harbor/", "harbour-old/" and "hat.png":
/// PathCompletion.complete("ha", in: "/home/ada/Pictures", home: "/home/ada")
/// // text "har", matches ["harbor", "harbour-old"]
/// ```
package enum PathCompletion {
    /// What a completion gives.
    package struct Result: Sendable, Equatable {
        /// The typed text, completed as far as the matches agree.
        package var text: String
        /// The names that match the last part, in listing order (folders first).
        package var matches: [String]
        /// Why nothing could be completed (the folder typed cannot be listed), if so.
        package var problem: String?
    }

    /// Completes `typed`: an absolute path, `~` or `~/…` (in `home`), or a path relative to
    /// `directory`. O(entries of the folder the path is in).
    package static func complete(_ typed: String, in directory: String, home: String?) -> Result {
        let slash = typed.lastIndex(of: "/")
        let head = slash.map { String(typed[...$0]) } ?? ""
        let prefix = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        if typed == "~", home != nil { return Result(text: "~/", matches: [], problem: nil) }
        let folder = resolve(head.isEmpty ? "." : head, in: directory, home: home)
        let listing: DirectoryListing
        do {
            listing = try DirectoryListing.read(folder)
        } catch {
            return Result(text: typed, matches: [], problem: error.description)
        }
        let matches = listing.entries.filter { $0.name.hasPrefix(prefix) }
        guard let first = matches.first else { return Result(text: typed, matches: [], problem: nil) }
        if matches.count == 1 {
            let suffix = first.kind == .directory ? "/" : ""
            return Result(text: head + first.name + suffix, matches: [first.name], problem: nil)
        }
        var common = first.name[...]
        for match in matches.dropFirst() {
            common = common.commonPrefix(with: match.name)[...]
        }
        return Result(
            text: head + (common.count > prefix.count ? String(common) : prefix),
            matches: matches.map(\.name),
            problem: nil)
    }

    /// The absolute, standardized path `typed` names: absolute as it is, `~` in `home`, anything
    /// else inside `directory`.
    package static func resolve(_ typed: String, in directory: String, home: String?) -> String {
        if typed.hasPrefix("/") { return DirectoryListing.standardized(typed) }
        if let home, typed == "~" || typed.hasPrefix("~/") {
            return DirectoryListing.standardized(home + "/" + typed.dropFirst())
        }
        return DirectoryListing.standardized(directory + "/" + typed)
    }
}

extension Substring {
    /// The longest prefix this and `other` share, by characters.
    fileprivate func commonPrefix(with other: String) -> Substring {
        var end = startIndex
        var otherIndex = other.startIndex
        while end < endIndex, otherIndex < other.endIndex, self[end] == other[otherIndex] {
            end = index(after: end)
            otherIndex = other.index(after: otherIndex)
        }
        return self[startIndex..<end]
    }
}
