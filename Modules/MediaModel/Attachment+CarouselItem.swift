extension Attachment {
    /// One page of a carousel.
    public enum CarouselItem: Hashable, Sendable {
        /// A photo page.
        case photo(Photo)
        /// A video page.
        case video(Video)
        /// A page of a type this build does not know (a nested carousel counts), kept raw.
        case unknown(UnknownPayload)
    }
}
