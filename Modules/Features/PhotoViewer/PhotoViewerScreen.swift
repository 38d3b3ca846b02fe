import Foundation
import MediaModel
import TerminalUI

/// A post's photo full screen: the item its carousel is on (or its one photo, or a video's
/// poster) as large as the content area allows with its shape kept, centred; under it a line with
/// the position in the carousel and the photo's size (`2/3 · 1080 × 1440`), then its alt text
/// wrapped (or `no description`). A video says `▶ video · 0:42`; a carousel item this build does
/// not know shows the line the list shows for it.
///
/// `←` and `→` page the carousel, stopping at either end with the list's words; each page is
/// handed to `onPage`, so the list the photo was opened from shows the same item once the person
/// goes back (esc). The photo is laid out at every draw for the area it is given, so a resize
/// redraws it at the new size.
@MainActor
package final class PhotoViewerScreen: AppScreen {
    private let context: AppContext
    /// What can be shown: the carousel's items, or the one photo or video.
    private let shownItems: [Attachment.CarouselItem]
    private let isCarousel: Bool
    private let onPage: @MainActor (Int) -> Void
    /// The item shown, from 0.
    package private(set) var position: Int
    /// The last photo drawn, for the size it was drawn at: drawing again at the same size (every
    /// frame) does not scale it again.
    private var drawn: (position: Int, width: Int, lines: Int, art: [StyledLine])?

    /// The viewer of `media`'s carousel at `position` (or of its photo or video); nil when the post
    /// has none of them. `onPage` gets each item paged to.
    package init?(
        context: AppContext, media: Media, position: Int,
        onPage: @escaping @MainActor (Int) -> Void = { _ in }
    ) {
        guard let (items, isCarousel) = Self.viewable(media) else { return nil }
        self.context = context
        self.shownItems = items
        self.isCarousel = isCarousel
        self.onPage = onPage
        self.position = min(max(position, 0), items.count - 1)
    }

    /// What a post has to view: its carousel (the one the list pages), else its first photo or
    /// video; nil when it has none.
    static func viewable(_ media: Media) -> (items: [Attachment.CarouselItem], isCarousel: Bool)? {
        for case .carousel(let items) in media.attachments where !items.isEmpty { return (items, true) }
        for attachment in media.attachments {
            switch attachment {
            case .photo(let photo): return ([.photo(photo)], false)
            case .video(let video): return ([.video(video)], false)
            case .carousel, .unknown: continue
            }
        }
        return nil
    }

    package var title: String { "Photo" }

    /// The post is in hand when the viewer opens: nothing to load.
    package func appear() {}

    // MARK: Keys

    /// What the viewer's keys do.
    enum Command: Sendable {
        case previous, next, back
    }

    /// The viewer's keys: the one place to add one. The footer names the arrows on a carousel only.
    var keys: KeyTable<Command> {
        KeyTable([
            .init(
                [(.left, .previous), (.right, .next)], label: "← →", does: "previous / next in the carousel",
                footer: isCarousel ? "←/→" : nil, footerDoes: "previous / next"),
            .init([.escape, .backspace], .back, does: "back", footer: "esc"),
        ])
    }

    package var keyBindings: [KeyBinding] { keys.bindings }

    package func handle(_ key: Key) -> Bool {
        guard let command = keys.command(for: key) else { return false }
        switch command {
        case .previous: turn(by: -1)
        case .next: turn(by: 1)
        case .back: context.navigator?.pop()
        }
        return true
    }

    /// Shows the previous (`step` -1) or next (`step` 1) item, or says why it stays.
    private func turn(by step: Int) {
        guard isCarousel else {
            context.navigator?.showMessage("this post has no carousel")
            return
        }
        let next = position + step
        guard shownItems.indices.contains(next) else {
            context.navigator?.showMessage(
                "\(step > 0 ? "last" : "first") of \(shownItems.count) in this carousel")
            return
        }
        position = next
        onPage(next)
    }

    // MARK: Drawing

    /// The line under the photo: position, what it is, and its size.
    private var infoLine: StyledLine {
        var parts = isCarousel ? ["\(position + 1)/\(shownItems.count)"] : []
        switch shownItems[position] {
        case .photo(let photo):
            parts.append("\(photo.width) × \(photo.height)")
        case .video(let video):
            parts += ["▶ video", PostRenderer.duration(video.duration), "\(video.width) × \(video.height)"]
        case .unknown:
            break
        }
        return StyledLine(parts.joined(separator: " · "), style: context.style.secondary)
    }

    /// The photo's alt text, or that it has none; nothing for a video or an unknown item.
    private var description: StyledLine? {
        guard case .photo(let photo) = shownItems[position] else { return nil }
        let alt = photo.altText?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return alt.isEmpty
            ? StyledLine("no description", style: context.style.secondary)
            : StyledLine(alt, style: context.style.text)
    }

    package func draw(into buffer: inout ScreenBuffer, in rect: Rect) -> Point? {
        guard !rect.isEmpty else { return nil }
        let textWidth = max(rect.width - 2, 1)
        let info = infoLine
        var text = info.isEmpty ? [] : [info]
        if let description { text += TextLayout.wrap(description, width: textWidth) }
        // The photo keeps at least two thirds of the height; the text gets the rest, cut with an
        // ellipsis when it needs more.
        let photoAtLeast = rect.height >= 2 ? max(rect.height * 2 / 3, 1) : 0
        let textRows = min(text.count, rect.height - photoAtLeast)
        if textRows < text.count, textRows > 0 {
            text = Array(text.prefix(textRows))
            text[textRows - 1] = TextLayout.truncate(text[textRows - 1] + StyledLine(" …"), width: textWidth)
        }
        let gap = rect.height - textRows > 3 && textRows > 0 ? 1 : 0
        let photoRows = rect.height - textRows - gap
        if photoRows > 0 {
            let art = art(width: rect.width, lines: photoRows)
            let columns = art.map(\.displayWidth).max() ?? 0
            let x = rect.x + max((rect.width - columns) / 2, 0)
            let top = rect.y + (photoRows - art.count) / 2
            for (row, line) in art.prefix(photoRows).enumerated() {
                buffer.putTruncated(line, in: Rect(x: x, y: top + row, width: rect.maxX - x, height: 1))
            }
        }
        for (row, line) in text.prefix(textRows).enumerated() {
            buffer.putTruncated(
                line, in: Rect(x: rect.x + 1, y: rect.y + photoRows + gap + row, width: textWidth, height: 1))
        }
        return nil
    }

    /// The item shown, at most `width` × `lines` cells: a photo drawn each frame (its art may
    /// arrive after the first: the app's photo art store answers at once from memory), anything
    /// else once per size.
    private func art(width: Int, lines: Int) -> [StyledLine] {
        let item = shownItems[position]
        if case .photo(let photo) = item {
            return Self.photoArt(photo, width: width, maxLines: lines, context: context)
        }
        if let drawn, drawn.position == position, drawn.width == width, drawn.lines == lines {
            return drawn.art
        }
        let art: [StyledLine] =
            if case .video(let video) = item {
                PostRenderer.art(
                    video.poster, width: width, maxLines: lines, presentation: context.presentation)
            } else if case .unknown(let payload) = item {
                [PostRenderer.unsupported(payload.typeName, presentation: context.presentation)]
            } else {
                []
            }
        drawn = (position, width, lines, art)
        return art
    }

    /// A photo as art of at most `width` × `maxLines` cells, from its stored pixels at this size
    /// once the app has them (its placeholder until then): the one place the viewer draws a photo.
    private static func photoArt(_ photo: Attachment.Photo, width: Int, maxLines: Int, context: AppContext)
        -> [StyledLine]
    {
        PostRenderer.photoArt(photo, width: width, maxLines: maxLines, presentation: context.presentation)
    }

    /// Drawing lays the photo out for the area it gets, so a new size needs nothing here.
    package func resize(width: Int, height: Int) {}
}
