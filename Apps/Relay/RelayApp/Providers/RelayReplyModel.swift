import Sockets

/// Replies in Relay are posts of their own, chained into threads.
struct RelayReplyModel: ReplyModel {
    let style = ReplyStyle.threadedPosts
    let noun = "reply"
}
