import TerminalUI

/// The keys every list of posts shares for moving through it: `pgdn`/`pgup` a screenful, `g` or
/// home the first post, `G` or end the last one loaded. The feed, thread and profile screens
/// each add these rows to their key table.
@MainActor
package enum ListKeys {
    /// What a list key does.
    package enum Command: Sendable {
        case pageDown, pageUp, first, last
    }

    /// `enter` opens the selected post (its thread), in every list of posts.
    nonisolated static func openRow<ScreenCommand>(_ command: ScreenCommand) -> KeyTable<ScreenCommand>.Row {
        .init([.enter], command, does: "open", footer: "enter")
    }

    /// The rows for the list keys, giving `command` of each; `ends` says what the first and the
    /// last post are on this screen (the help's words). The ends share one row, so the help
    /// still fits a 24-line terminal.
    nonisolated package static func rows<ScreenCommand>(
        ends: String = "first / last post", _ command: (Command) -> ScreenCommand
    ) -> [KeyTable<ScreenCommand>.Row] {
        [
            .init(
                [(.pageDown, command(.pageDown)), (.pageUp, command(.pageUp))], label: "pgdn pgup",
                does: "page"),
            .init(
                [
                    (.character("g"), command(.first)), (.home, command(.first)),
                    (.character("G"), command(.last)), (.end, command(.last)),
                ], label: "g G home end", does: ends),
        ]
    }

    /// The selection after `command` in a list of `count` rows whose screen shows `height` rows
    /// (a page is a screenful less one, at least one row): for lists of rows of one line each.
    package static func selection(after command: Command, from selection: Int, count: Int, height: Int) -> Int
    {
        let last = max(count - 1, 0)
        let page = max(height - 1, 1)
        switch command {
        case .first: return 0
        case .last: return last
        case .pageDown: return min(selection + page, last)
        case .pageUp: return max(selection - page, 0)
        }
    }

    /// Performs `command` on `list`.
    static func perform(_ command: Command, on list: PostList) {
        switch command {
        case .pageDown: list.view.pageDown()
        case .pageUp: list.view.pageUp()
        case .first: list.selectFirst()
        case .last: list.selectLast()
        }
    }
}
