import Foundation
import MediaModel
import Mutations
import Sockets
import TerminalUI

/// Draws a post as terminal lines for a width: a pure function of the item, the width and the
/// app's presentation, so heights can be measured on background tasks and cached.
///
/// Complexity: O(text + pixels shown) per post.
package enum PostRenderer {
    /// The lines of `item` at `width` columns, ending with a blank separator line.
    package static func lines(for item: PostItem, width: Int, presentation p: PostPresentation)
        -> [StyledLine]
    {
        let width = max(width, 8)
        var lines: [StyledLine] = []
        switch item.role {
        case .feed, .focus:
            if case .repost(let user) = item.context {
                lines.append(StyledLine("↻ \(user.displayName) reposted", style: p.style.secondary))
            }
            if item.role == .feed, let parent = item.parent {
                lines +=
                    p.showsReplyParent
                    ? parentLines(parent, facts: item.parentFacts, width: width, presentation: p)
                    : [answersLine(parent, width: width, presentation: p)]
            }
            lines += body(of: item, width: width, presentation: p, gutter: nil)
        case .ancestor:
            lines += ancestorLines(item, width: width, presentation: p)
            return lines
        case .reply:
            lines += replyLines(item, width: width, presentation: p)
            return lines
        }
        lines.append(StyledLine())
        return lines
    }

    /// The height of `item` at `width`: the number of its lines.
    ///
    /// Measured with placeholders for photos' art (which take the same cells as the art), so
    /// measuring never starts a load.
    package static func height(of item: PostItem, width: Int, presentation: PostPresentation) -> Int {
        var placeholders = presentation
        placeholders.photoArt = nil
        return lines(for: item, width: width, presentation: placeholders).count
    }

    // MARK: - Parts

    /// The post's own rows, in the order the app's `postLayout` gives.
    static func body(of item: PostItem, width: Int, presentation p: PostPresentation, gutter: StyledSpan?)
        -> [StyledLine]
    {
        let inner = width - (gutter?.displayWidth ?? 0)
        var lines: [StyledLine] = []
        for row in p.rows {
            switch row {
            case .header:
                lines += headerLines(of: item, width: inner, presentation: p)
            case .media:
                lines += mediaLines(
                    item.media, width: inner, maxLines: p.mediaLines, carouselPosition: item.carouselPosition,
                    presentation: p)
            case .title:
                lines += titleLines(item.media, width: inner, presentation: p)
            case .text:
                let cut = item.role == .feed ? p.excerptLines : nil
                lines += textLines(
                    item.media, width: inner, presentation: p, afterTitle: p.rows.contains(.title),
                    maxLines: cut)
            case .actions:
                lines.append(actions(item.facts, presentation: p))
            case .replySummary:
                if item.facts.replyCount > 0 && item.role == .feed {
                    let count = item.facts.replyCount
                    let noun = Plural.of(p.replyNoun, count: count)
                    lines.append(
                        StyledLine(
                            count == 1 ? "View 1 \(noun)" : "View all \(count) \(noun)",
                            style: p.style.secondary))
                }
            }
        }
        guard let gutter else { return lines }
        return lines.map { StyledLine([gutter]) + $0 }
    }

    /// The header: avatar, name, handle and age, with the state when not confirmed; a failed
    /// post gets a second line saying why.
    static func headerLines(of item: PostItem, width: Int, presentation p: PostPresentation) -> [StyledLine] {
        var name = StyledLine()
        name.append(avatarGlyph(item.media.author) + " ", style: p.style.accent)
        name.append(item.media.author.displayName, style: p.style.strong)
        // A long name is cut so the handle, the age and the state after it show whole.
        var rest = StyledLine(" @\(item.media.author.handle) · \(item.age)", style: p.style.secondary)
        switch item.status {
        case .server:
            break
        case .pending:
            rest.append(" · sending…", style: p.style.pending)
        case .failed:
            rest.append(" · failed", style: p.style.failure)
        }
        var lines = [TextLayout.truncate(name, keeping: rest, width: width)]
        if case .failed(_, let reason) = item.status {
            lines += TextLayout.wrap(StyledLine("✕ \(reason)", style: p.style.failure), width: width)
        }
        if let notSent = notSentLine(item, presentation: p) {
            lines += TextLayout.wrap(StyledLine(notSent, style: p.style.failure), width: width)
        }
        return lines
    }

    /// "✕ like not sent · details in Sync": the changes to the post that failed for good (their
    /// effect is taken back, so without this the post would look as if nothing had been done), and
    /// where to retry or discard them; nil when there are none.
    static func notSentLine(_ item: PostItem, presentation p: PostPresentation) -> String? {
        guard !item.row.notSent.isEmpty else { return nil }
        var titles: [String] = []
        for kind in item.row.notSent where !titles.contains(kind.title) { titles.append(kind.title) }
        let details = p.syncTitle.map { " · details in \($0)" } ?? ""
        return "✕ \(titles.joined(separator: ", ")) not sent" + details
    }

    static func avatarGlyph(_ user: User) -> String {
        switch user.avatar {
        case .glyph(let glyph) where !glyph.isEmpty: String(glyph.prefix(1))
        default: user.displayName.first.map { String($0).uppercased() } ?? "?"
        }
    }

    /// The text's lines: all of them, or those after its first when the layout draws that as a
    /// title, cut to `maxLines` (the last kept line then ends in "…").
    static func textLines(
        _ media: Media, width: Int, presentation p: PostPresentation, afterTitle: Bool = false,
        maxLines: Int? = nil
    ) -> [StyledLine] {
        let text = media.text
        // A caption of only spaces and line breaks says nothing: no author name alone, no blanks.
        guard !text.allSatisfy(\.isWhitespace) else { return [] }
        var lines: [StyledLine] = []
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, paragraph) in paragraphs.enumerated() where !(afterTitle && index == 0) {
            var line = StyledLine()
            if index == 0 && p.captionLeadsWithAuthor {
                line.append(media.author.handle + " ", style: p.style.strong)
            }
            line.append(String(paragraph), style: p.style.text)
            lines += TextLayout.wrap(line, width: width)
            if let maxLines, lines.count > maxLines { break }
        }
        guard let maxLines, lines.count > maxLines else { return lines }
        lines.removeLast(lines.count - maxLines)
        // Room for the ellipsis at the end of the last kept line.
        var last = TextLayout.wrap(lines[maxLines - 1], width: max(1, width - 1)).first ?? StyledLine()
        last.append("…", style: p.style.secondary)
        lines[maxLines - 1] = last
        return lines
    }

    /// The text's first line in bold, wrapped: a long-form post's title.
    static func titleLines(_ media: Media, width: Int, presentation p: PostPresentation) -> [StyledLine] {
        let first =
            media.text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard !first.allSatisfy(\.isWhitespace) else { return [] }
        return TextLayout.wrap(StyledLine(String(first), style: p.style.strong), width: width)
    }

    static func actions(_ facts: MediaFacts, presentation p: PostPresentation) -> StyledLine {
        var line = StyledLine()
        if facts.viewerLiked {
            line.append("♥ \(facts.likeCount)", style: p.style.like)
        } else {
            line.append("♡ \(facts.likeCount)", style: p.style.secondary)
        }
        line.append("   ↩ \(facts.replyCount)   ", style: p.style.secondary)
        if facts.viewerReposted {
            line.append("↻ \(facts.repostCount) · you reposted", style: p.style.accent)
        } else {
            line.append("↻ \(facts.repostCount)", style: p.style.secondary)
        }
        return line
    }

    /// The post's attachments; a carousel shows its item at `carouselPosition`.
    static func mediaLines(
        _ media: Media, width: Int, maxLines: Int, carouselPosition: Int = 0, presentation p: PostPresentation
    ) -> [StyledLine] {
        var lines: [StyledLine] = []
        for attachment in media.attachments {
            switch attachment {
            case .photo(let photo):
                lines += photoArt(photo, width: width, maxLines: maxLines, presentation: p)
            case .video(let video):
                lines += art(video.poster, width: width, maxLines: max(maxLines - 1, 1), presentation: p)
                lines.append(StyledLine("▶ video · \(duration(video.duration))", style: p.style.secondary))
            case .carousel(let items):
                lines += carouselLines(
                    items, shown: carouselPosition, width: width, maxLines: max(maxLines - 1, 1),
                    presentation: p)
            case .unknown(let payload):
                lines.append(unsupported(payload.typeName, presentation: p))
            }
        }
        return lines
    }

    /// A carousel: the item at `shown` (kept within the items), as tall as the first item is
    /// drawn (a taller item is drawn smaller, a shorter one padded below), so paging never changes
    /// the post's height; then the marker, `◂ 2/3 ▸  ○ ● ○`.
    static func carouselLines(
        _ items: [Attachment.CarouselItem], shown: Int, width: Int, maxLines: Int,
        presentation p: PostPresentation
    ) -> [StyledLine] {
        guard let first = items.first else { return [] }
        let index = min(max(shown, 0), items.count - 1)
        let height = carouselItemHeight(first, width: width, maxLines: maxLines)
        var lines = Array(
            carouselItem(items[index], width: width, maxLines: height, presentation: p).prefix(height))
        while lines.count < height { lines.append(StyledLine()) }
        let dots = (0..<min(items.count, 10)).map { $0 == min(index, 9) ? "●" : "○" }.joined(separator: " ")
        lines.append(StyledLine("◂ \(index + 1)/\(items.count) ▸  \(dots)", style: p.style.secondary))
        return lines
    }

    /// One carousel item's lines: a photo, a video's poster, or a line for a kind this build
    /// does not know.
    static func carouselItem(
        _ item: Attachment.CarouselItem, width: Int, maxLines: Int, presentation p: PostPresentation
    ) -> [StyledLine] {
        switch item {
        case .photo(let photo): photoArt(photo, width: width, maxLines: maxLines, presentation: p)
        case .video(let video): art(video.poster, width: width, maxLines: maxLines, presentation: p)
        case .unknown(let payload): [unsupported(payload.typeName, presentation: p)]
        }
    }

    /// How many lines `carouselItem` takes for `item`, without drawing it. O(1).
    static func carouselItemHeight(_ item: Attachment.CarouselItem, width: Int, maxLines: Int) -> Int {
        let image: PixelImage
        switch item {
        case .photo(let photo):
            guard photo.id != nil else { image = photo.pixels; break }
            return photoArtLayout(photo, width: width, maxLines: maxLines).lines
        case .video(let video): image = video.poster
        case .unknown: return 1
        }
        guard let rgb = try? RGBImage(width: image.width, height: image.height, rgb: image.rgb) else {
            return 1
        }
        return HalfBlockArt.layout(of: rgb, maxColumns: width, maxLines: maxLines).lines
    }

    /// A photo as half-block art within `width` x `maxLines` cells: the one place a photo is drawn.
    ///
    /// A stored photo (one with an id) takes the cells its true size gives
    /// (``photoArtLayout(_:width:maxLines:)``). Its art comes from the presentation's
    /// `PhotoArtStore`, drawn from the stored variant's real pixels; until the store has it (or
    /// without a store), the placeholder is drawn in the same cells: the small rendition the
    /// attachment carries, scaled to the art's grid, so the post's height never changes when the
    /// art arrives. A photo still on its way up (no id) is drawn from its rendition as it is.
    /// Never waits: a miss only starts a load.
    package static func photoArt(
        _ photo: Attachment.Photo, width: Int, maxLines: Int, presentation p: PostPresentation
    ) -> [StyledLine] {
        guard let id = photo.id else {
            return art(photo.pixels, width: width, maxLines: maxLines, presentation: p)
        }
        let layout = photoArtLayout(photo, width: width, maxLines: maxLines)
        // The kitty protocol shows the pixels themselves: a grid several pixels a cell.
        let scale = p.style.imageMode.pixelsPerColumn
        let key = PhotoArtKey(
            photoID: id, pixelWidth: layout.pixelWidth * scale, pixelHeight: layout.pixelHeight * scale)
        if let store = p.photoArt, let grid = store.art(for: key) {
            return draw(grid, as: layout, presentation: p)
        }
        let image = photo.pixels
        guard let rgb = try? RGBImage(width: image.width, height: image.height, rgb: image.rgb) else {
            return [StyledLine("▢ image", style: p.style.secondary)]
        }
        return draw(rgb, as: layout, presentation: p)
    }

    /// `image` drawn in `layout`'s cells in the app's image mode (`--images`): kitty
    /// placeholders, half blocks or ramp characters. The one place photos meet the image mode.
    static func draw(_ image: RGBImage, as layout: HalfBlockArt.ArtLayout, presentation p: PostPresentation)
        -> [StyledLine]
    {
        switch p.style.imageMode {
        case .kitty(let images): images.lines(for: image, maxColumns: layout.columns, maxLines: layout.lines)
        case .blocks: HalfBlockArt.render(image, as: layout, cells: .halfBlocks)
        case .ascii: HalfBlockArt.render(image, as: layout, cells: .luminanceRamp)
        }
    }

    /// The cells and pixel grid a stored photo's art takes within `width` x `maxLines`, from the
    /// photo's true size. O(1).
    package static func photoArtLayout(_ photo: Attachment.Photo, width: Int, maxLines: Int)
        -> HalfBlockArt.ArtLayout
    {
        HalfBlockArt.layout(width: photo.width, height: photo.height, maxColumns: width, maxLines: maxLines)
    }

    static func art(_ image: PixelImage, width: Int, maxLines: Int, presentation p: PostPresentation)
        -> [StyledLine]
    {
        guard let rgb = try? RGBImage(width: image.width, height: image.height, rgb: image.rgb) else {
            return [StyledLine("▢ image", style: p.style.secondary)]
        }
        // In the image mode (`--images`): kitty placeholders, half blocks or ramp characters, all
        // in the cells half-block art takes.
        return p.style.imageMode.render(rgb, maxColumns: width, maxLines: maxLines)
    }

    static func unsupported(_ kind: String, presentation p: PostPresentation) -> StyledLine {
        StyledLine("▢ a \(kind) — this version can't show it yet", style: p.style.secondary)
    }

    static func duration(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        return "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }

    // MARK: - Context

    /// A reply's parent above it, dimmed, joined to the reply by a threadline.
    static func parentLines(_ parent: Media, facts: MediaFacts?, width: Int, presentation p: PostPresentation)
        -> [StyledLine]
    {
        var lines: [StyledLine] = []
        var header = StyledLine()
        header.append(avatarGlyph(parent.author) + " ", style: p.style.secondary)
        header.append(parent.author.displayName, style: p.style.secondary.bold())
        header.append(" @\(parent.author.handle)", style: p.style.secondary)
        lines.append(TextLayout.truncate(header, width: width))
        let bar = StyledSpan("│ ", style: p.style.separator)
        let text = parent.text.allSatisfy(\.isWhitespace) ? "(\(parent.kind.name))" : parent.text
        for line in TextLayout.wrap(StyledLine(text, style: p.style.secondary), width: width - 2).prefix(3) {
            lines.append(StyledLine([bar]) + line)
        }
        lines.append(StyledLine([bar]))
        return lines
    }

    /// One line saying what a reply answers, for an app that does not show parents in lists:
    /// "↩ comment on @grace: Tide pools at dawn…", cut to the width.
    static func answersLine(_ parent: Media, width: Int, presentation p: PostPresentation) -> StyledLine {
        let words = parent.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var line = StyledLine()
        line.append("↩ \(p.replyNoun) on ", style: p.style.secondary)
        line.append("@\(parent.author.handle)", style: p.style.secondary.bold())
        line.append(": " + (words.isEmpty ? "(\(parent.kind.name))" : words), style: p.style.secondary)
        return TextLayout.truncate(line, width: width)
    }

    /// A post above the focused one in a thread: header and text, then a threadline (threaded
    /// posts) or a blank line (comments).
    static func ancestorLines(_ item: PostItem, width: Int, presentation p: PostPresentation) -> [StyledLine]
    {
        let threaded = p.replyStyle == .threadedPosts
        let gutter = threaded ? StyledSpan("│ ", style: p.style.separator) : nil
        var lines = headerLines(of: item, width: width, presentation: p)
        let text = textLines(item.media, width: width - (gutter?.displayWidth ?? 0), presentation: p)
        lines += text.map { line in gutter.map { StyledLine([$0]) + line } ?? line }
        lines.append(threaded ? StyledLine([StyledSpan("│", style: p.style.separator)]) : StyledLine())
        return lines
    }

    /// A reply under the focused post: a threaded post with its own rows behind a threadline, or
    /// a compact comment.
    static func replyLines(_ item: PostItem, width: Int, presentation p: PostPresentation) -> [StyledLine] {
        switch p.replyStyle {
        case .threadedPosts:
            let gutter = StyledSpan("┃ ", style: p.style.separator)
            var lines = body(of: item, width: width, presentation: p, gutter: gutter)
            lines.append(StyledLine([StyledSpan("┃", style: p.style.separator)]))
            return lines
        case .comments:
            var line = StyledLine()
            line.append("  " + item.media.author.handle + " ", style: p.style.strong)
            line.append(item.media.text, style: p.style.text)
            var lines = TextLayout.wrap(line, width: width)
            var meta = StyledLine("  \(item.age)", style: p.style.secondary)
            meta.append(
                item.facts.viewerLiked ? "   ♥ \(item.facts.likeCount)" : "   ♡ \(item.facts.likeCount)",
                style: item.facts.viewerLiked ? p.style.like : p.style.secondary)
            switch item.status {
            case .server: break
            case .pending: meta.append(" · sending…", style: p.style.pending)
            case .failed(_, let reason): meta.append(" · failed: \(reason)", style: p.style.failure)
            }
            lines.append(TextLayout.truncate(meta, width: width))
            if let notSent = notSentLine(item, presentation: p) {
                lines += TextLayout.wrap(StyledLine("  " + notSent, style: p.style.failure), width: width)
            }
            lines.append(StyledLine())
            return lines
        }
    }
}
