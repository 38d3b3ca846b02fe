/// What a media carries besides its text: a photo, a video, a carousel, or a type this build
/// does not know.
public enum Attachment: Hashable, Sendable {
    /// A still image.
    case photo(Photo)
    /// A video, shown as its poster frame and duration.
    case video(Video)
    /// Several photos and videos the viewer swipes through.
    case carousel([CarouselItem])
    /// An attachment type this build does not know, kept with its raw payload.
    case unknown(UnknownPayload)

    /// The wire name of the attachment's type (`"photo"`), or the raw name of an unknown one.
    public var typeName: String {
        switch self {
        case .photo: "photo"
        case .video: "video"
        case .carousel: "carousel"
        case .unknown(let payload): payload.typeName
        }
    }
}
