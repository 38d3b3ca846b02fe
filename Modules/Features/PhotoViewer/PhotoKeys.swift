import TerminalUI

/// The key that opens the selected post's photo full screen: `v`, at the item its carousel is on
/// (``PhotoViewerScreen``). On a post with no photo, carousel or video it says so and stays. The
/// feed, thread and profile screens each add this row to their key table; paging in the viewer
/// pages the list's carousel too, so going back shows the item last seen.
@MainActor
enum PhotoKeys {
    /// The row for `v`; the footer shows it when `inFooter` (the feed's footer is full: there it
    /// is in the help only).
    nonisolated static func rows<ScreenCommand>(inFooter: Bool = true, _ command: ScreenCommand) -> [KeyTable<
        ScreenCommand
    >.Row] {
        [
            .init(
                [.character("v")], command, does: "photo full screen", footer: inFooter ? "v" : nil,
                footerDoes: "photo")
        ]
    }

    /// Opens the selected post of `list` in the viewer, or says on the status line why not.
    static func open(from list: PostList, context: AppContext) {
        guard let item = list.selectedItem else {
            context.navigator?.showMessage("select a post first")
            return
        }
        let id = item.id
        guard
            let viewer = PhotoViewerScreen(
                context: context, media: item.media, position: item.carouselPosition,
                onPage: { [weak list] position in list?.showCarouselItem(at: position, ofItem: id) })
        else {
            context.navigator?.showMessage("this post has no photo")
            return
        }
        context.navigator?.push(viewer)
    }
}
