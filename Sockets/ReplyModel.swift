import Composition

/// How replies relate to the post they answer.
public enum ReplyStyle: String, Sendable, Hashable {
    /// Replies are comments under a post: flat, short, shown below it.
    case comments
    /// Replies are posts of their own, chained into threads and drawn with threadlines.
    case threadedPosts
}

/// How an app models replies.
public protocol ReplyModel: Sendable {
    /// Comments or threaded posts.
    var style: ReplyStyle { get }
    /// What one reply is called ("comment", "reply").
    var noun: String { get }
}

extension ReplyModel {
    /// Whether a reply may carry a photo: a threaded reply is a post like any other; a comment
    /// is text.
    public var repliesTakePhotos: Bool { style == .threadedPosts }

    /// Whether a reply with `text` and `attachmentCount` attachments can be sent. A threaded
    /// reply follows `policy` like any post; a comment needs text, within the policy's limit,
    /// and no media.
    public func check(reply text: String, attachmentCount: Int, policy: any ComposerPolicy) -> ComposerVerdict
    {
        guard style == .comments else { return policy.check(text: text, attachmentCount: attachmentCount) }
        if attachmentCount > 0 { return .rejected("a \(noun) is text only: remove the photo") }
        if text.trimmingWhitespace.isEmpty { return .rejected("a \(noun) needs text") }
        return policy.checkLength(of: text)
    }
}

@usableFromInline let replyModelSocket = Socket<any ReplyModel>.required(
    "replyModel", summary: "comments on a post, or replies that are posts in a thread")

extension Socket where Contract == any ReplyModel {
    /// How replies relate to their post. Required.
    @inlinable public static var replyModel: Socket<any ReplyModel> { replyModelSocket }
}
