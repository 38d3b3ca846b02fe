import Sockets

/// A Prism post: the photo is the content, the caption follows it.
struct PrismPostLayout: PostLayout {
    let rows: [PostRow] = [.header, .media, .actions, .text, .replySummary]
    let mediaLines = 12
    let captionLeadsWithAuthor = true
}
