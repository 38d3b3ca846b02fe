import Composition
import MediaModel

/// Whether a new post must, may or cannot carry media.
public enum MediaRequirement: String, Sendable, Hashable {
    /// A post needs at least one photo or video.
    case required
    /// A post may carry media.
    case optional
    /// A post is text only: the composer offers no photo picker and refuses an attachment.
    case forbidden
}

/// Why a draft cannot be posted yet, or that it can.
public enum ComposerVerdict: Sendable, Hashable {
    /// The draft can be posted.
    case ready
    /// The draft cannot be posted; the message says why, for the person writing it.
    case rejected(String)
}

/// The rules a new post must follow.
public protocol ComposerPolicy: Sendable {
    /// Whether a post needs media.
    var media: MediaRequirement { get }
    /// The most characters the text may have.
    var textLimit: Int { get }
    /// Whether a post needs text.
    var textRequired: Bool { get }
    /// What the composer calls a post ("post", "photo").
    var noun: String { get }
    /// The most photos one post may carry (as a carousel). The default is the server's
    /// (`PostLimits.carouselItems`); a policy may ask for fewer, never more: ``check(text:attachmentCount:)``
    /// keeps the smaller.
    var carouselLimit: Int { get }
}

extension ComposerPolicy {
    /// The server's limit, `PostLimits.carouselItems`.
    public var carouselLimit: Int { PostLimits.carouselItems }
}

extension ComposerPolicy {
    /// Whether a draft with `text` and `attachmentCount` attachments can be posted.
    public func check(text: String, attachmentCount: Int) -> ComposerVerdict {
        let trimmed = text.trimmingWhitespace
        if media == .required && attachmentCount == 0 {
            return .rejected("add a photo first: press tab to pick one")
        }
        if media == .forbidden && attachmentCount > 0 {
            return .rejected("a \(noun) is text only: remove the photo")
        }
        if textRequired && trimmed.isEmpty {
            return .rejected("a \(noun) needs text")
        }
        if trimmed.isEmpty && attachmentCount == 0 {
            return .rejected("nothing to post yet")
        }
        let photos = Swift.min(carouselLimit, PostLimits.carouselItems)
        if attachmentCount > photos {
            return .rejected("a carousel holds at most \(photos) photos; remove \(attachmentCount - photos)")
        }
        return checkLength(of: text)
    }

    /// Whether `text` fits the text limit (counted in characters) and the server's shared limits
    /// of bytes and combining marks a character (`PostLimits`), whatever else the draft holds.
    /// Bytes are checked first, so a pasted 20 MB "character" is refused without walking it.
    public func checkLength(of text: String) -> ComposerVerdict {
        let problem = PostLimits.textProblem(in: text)
        if let problem, case .tooManyBytes = problem { return .rejected("text: \(problem)") }
        if text.count > textLimit {
            let over = text.count - textLimit
            return .rejected(
                "text is \(over) character\(over == 1 ? "" : "s") over the limit of \(textLimit)")
        }
        if let problem { return .rejected("text: \(problem)") }
        return .ready
    }
}

extension String {
    var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}

@usableFromInline let composerPolicySocket = Socket<any ComposerPolicy>.required(
    "composerPolicy", summary: "whether media is required and the text limit")

extension Socket where Contract == any ComposerPolicy {
    /// The rules for new posts. Required.
    @inlinable public static var composerPolicy: Socket<any ComposerPolicy> { composerPolicySocket }
}
