import Sockets

/// The keys of the lists of posts and of the shell, one `<keys> <what they do>` phrase a row,
/// made from the same tables the screens, their footers and the `?` help are made of. `--help`
/// lists them, so a key added to one of those tables is listed there with nothing else to change.
///
/// ```swift
/// KeySummary.phrases(tabs: registry[.tabs].tabs, replyNoun: "comment", shares: false)
/// // ["↑ ↓  j k move", "pgdn pgup page", "g G home end first / last post", "enter open", "l like", …]
/// ```
package enum KeySummary {
    /// The phrases, in the order the help shows them: moving and paging, the post keys (each kind
    /// of change's, `p`, and `m` when the app `shares` posts in messages), the carousel and the
    /// photo, the profile's, then the shell's for an app showing `tabs`.
    package static func phrases(tabs: [Tab], replyNoun: String, shares: Bool) -> [String] {
        let lists =
            [KeyTable<Int>.Row.move(down: 0, up: 0)] + ListKeys.rows { _ in 0 } + [ListKeys.openRow(0)]
            + PostKeys.rows(noun: replyNoun, shares: shares) { _ in 0 } + CarouselKeys.rows { _ in 0 }
            + PhotoKeys.rows(0)
            + [
                ProfileScreen.followRow(follows: false, 0), ProfileScreen.editRow(0),
                ProfileScreen.switchRow(0),
            ]
        let bindings = lists.map(\.binding) + AppShell.keys(tabs: tabs).bindings
        return bindings.map { binding in
            binding.label.split(separator: " ").joined(separator: " ") + " " + binding.does
        }
    }
}
