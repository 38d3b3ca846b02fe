import Sockets

/// Replies in Strand are posts of their own, chained into threads.
struct StrandReplyModel: ReplyModel {
    let style = ReplyStyle.threadedPosts
    let noun = "reply"
}
