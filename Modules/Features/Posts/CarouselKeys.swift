import TerminalUI

/// The keys that page the selected post's carousel: `←` its previous item, `→` its next, in
/// place (the marker under it follows: `◂ 2/3 ▸  ○ ● ○`). It stops at either end and says so,
/// and on a post without a carousel it says that. The feed, thread and profile screens each add
/// this row to their key table; the position is the list's view state (`PostList`).
@MainActor
enum CarouselKeys {
    /// What a carousel key does.
    enum Command: Sendable {
        case previous, next
    }

    /// The row for the carousel keys (the help only: the footers are full).
    nonisolated static func rows<ScreenCommand>(_ command: (Command) -> ScreenCommand) -> [KeyTable<
        ScreenCommand
    >.Row] {
        [
            .init(
                [(.left, command(.previous)), (.right, command(.next))], label: "← →",
                does: "carousel: previous / next")
        ]
    }

    /// Performs `command` on the selected post of `list`, saying on the status line why nothing
    /// moved when nothing did.
    static func perform(_ command: Command, on list: PostList, context: AppContext) {
        switch list.turnCarousel(by: command == .next ? 1 : -1) {
        case .turned:
            break
        case .atEnd(_, let count):
            context.navigator?.showMessage(
                "\(command == .next ? "last" : "first") of \(count) in this carousel")
        case .noCarousel:
            context.navigator?.showMessage("this post has no carousel")
        case .noSelection:
            context.navigator?.showMessage("select a post first")
        }
    }
}
