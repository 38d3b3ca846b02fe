import Sockets

/// Replies in Prism are comments under a photo.
struct PrismReplyModel: ReplyModel {
    let style = ReplyStyle.comments
    let noun = "comment"
}
