/// What a piece of media is, as lists and feed policies see it.
///
/// A media's kind follows from its attachments (none: text; one photo: photo; one video:
/// video; a carousel: carousel). A kind this build does not know decodes to `unknown` with
/// the name the server sent, so an older build shows a fallback row instead of failing.
public enum MediaKind: Hashable, Sendable, CustomStringConvertible {
    /// Text alone: no attachments.
    case text
    /// One photo.
    case photo
    /// One video.
    case video
    /// Several attachments, shown one at a time.
    case carousel
    /// A kind this build does not know, with the name it arrived under.
    case unknown(String)

    /// The known kinds, in a stable order.
    public static let known: [MediaKind] = [.text, .photo, .video, .carousel]

    /// Makes the kind a wire name stands for; names this build does not know become `unknown`.
    public init(name: String) {
        switch name {
        case "text": self = .text
        case "photo": self = .photo
        case "video": self = .video
        case "carousel": self = .carousel
        default: self = .unknown(name)
        }
    }

    /// The wire name of the kind (`"photo"`), or the raw name of an unknown kind.
    public var name: String {
        switch self {
        case .text: "text"
        case .photo: "photo"
        case .video: "video"
        case .carousel: "carousel"
        case .unknown(let raw): raw
        }
    }

    /// Whether this build knows the kind.
    public var isKnown: Bool {
        if case .unknown = self { return false }
        return true
    }

    /// The wire name of a known kind, `unknown(name)` otherwise.
    public var description: String { isKnown ? name : "unknown(\(name))" }
}
