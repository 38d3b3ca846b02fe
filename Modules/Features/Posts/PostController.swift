import ListEngine
import MediaModel
import TerminalUI

/// The pure half of a post's section: one list row holding the whole post, as tall as its lines.
/// A post is selected and scrolled as one unit.
package struct PostRowLayout: ListSectionLayout {
    /// How posts look in this app.
    package let presentation: PostPresentation

    /// Makes a layout.
    package init(presentation: PostPresentation) {
        self.presentation = presentation
    }

    package func rowCount(for item: PostItem) -> Int { 1 }

    package func height(ofRow row: Int, for item: PostItem, width: Int) -> Int {
        PostRenderer.height(of: item, width: width, presentation: presentation)
    }

    package func row(_ row: Int, for item: PostItem, width: Int) -> StyledRow {
        StyledRow(lines: PostRenderer.lines(for: item, width: width, presentation: presentation))
    }
}

/// The section controller of a post: draws it through `PostRowLayout` and reports activation.
@MainActor
package final class PostController: ListSectionController {
    package let layout: PostRowLayout
    /// The post shown now.
    package private(set) var item: PostItem?
    private let onActivate: @MainActor (PostItem) -> Void
    private let onNear: (@MainActor (PostItem) -> Void)?

    /// Makes a controller; `onActivate` runs when the post is opened (enter), `onNear` when it
    /// comes near the screen (enters the working range: its photos' art is loaded then).
    package init(
        presentation: PostPresentation, onActivate: @escaping @MainActor (PostItem) -> Void,
        onNear: (@MainActor (PostItem) -> Void)? = nil
    ) {
        layout = PostRowLayout(presentation: presentation)
        self.onActivate = onActivate
        self.onNear = onNear
    }

    package func didUpdate(to model: PostItem) { item = model }

    package func didEnterWorkingRange() {
        if let item { onNear?(item) }
    }

    package func didSelect(row: Int) {
        if let item { onActivate(item) }
    }
}

/// The pure half of a post whose kind this build does not know: a one-line summary.
package struct UnsupportedPostLayout: ListSectionLayout {
    /// How posts look in this app.
    package let presentation: PostPresentation

    /// Makes a layout.
    package init(presentation: PostPresentation) {
        self.presentation = presentation
    }

    package func rowCount(for item: PostItem) -> Int { 1 }

    package func height(ofRow row: Int, for item: PostItem, width: Int) -> Int { 2 }

    package func row(_ row: Int, for item: PostItem, width: Int) -> StyledRow {
        let kind = item.media.kind.name
        let line = StyledLine(
            "▢ @\(item.media.author.handle) posted a \(kind) · \(item.age) — this version can't show it yet",
            style: presentation.style.secondary)
        return StyledRow(lines: [TextLayout.truncate(line, width: width), StyledLine()])
    }
}

/// The fallback for posts of unknown kinds: one line saying what it is, never a crash.
@MainActor
package final class UnsupportedPostController: ListSectionController {
    package let layout: UnsupportedPostLayout

    /// Makes a controller.
    package init(presentation: PostPresentation) {
        layout = UnsupportedPostLayout(presentation: presentation)
    }
}
