import Sockets

/// A Relay post: the text is the content; media, if any, follows it small.
struct RelayPostLayout: PostLayout {
    let rows: [PostRow] = [.header, .text, .media, .actions]
    let mediaLines = 6
    let captionLeadsWithAuthor = false
}
