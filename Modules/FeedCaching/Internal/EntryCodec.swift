import Basics
import Foundation
import MediaModel

/// The feed cache's binary form of entries and facts: a few bytes per field and pixels as raw
/// RGB, so a cold start decodes the first screen in microseconds (the JSON wire form takes
/// tens of microseconds per photo). Values this build does not know (unknown kinds,
/// attachments, contexts, avatars) are kept as their wire JSON and decode through the wire
/// format, so they survive the cache unchanged.
///
/// Each entry starts with the form of entries (`entryForm`), and each facts value with the whole
/// `format`; the cache's state row records the `format` it was written in, and a cache written
/// in another format is dropped, not misread. Form 2 added a media's client token and the
/// viewer's repost to form 1, which lost them: a cold start showed the viewer's reposts as not
/// reposted, and a confirmed post could not be matched to its pending copy by token. Form 3 added
/// a photo's stored id, which form 2 lost: a photo from the cache could not be fetched by width.
///
/// Facts are written as `MediaFacts.fields` lists them, and the format includes that list's
/// fingerprint, so adding, moving or retyping a fact changes the format by itself.
enum EntryCodec {
    /// The form of entries this build writes and reads: raise it when `encode(_:)` of an entry
    /// changes.
    static let entryForm: UInt8 = 3

    /// The format this build writes and reads: the form of entries in the high 32 bits, the low
    /// 32 bits of the facts' fingerprint (`MediaFacts.binaryFingerprint`) in the low ones.
    static let format = format(facts: MediaFacts.binaryFingerprint)

    /// The format for entries of this build's form and facts of `fingerprint`.
    static func format(facts fingerprint: UInt64) -> Int64 {
        Int64(entryForm) << 32 | Int64(fingerprint & 0xFFFF_FFFF)
    }

    // MARK: Entries

    static func encode(_ entry: FeedEntry) -> [UInt8] {
        var writer = ByteWriter(capacity: 512)
        writer.byte(entryForm)
        writer.string(entry.id.rawValue)
        write(entry.media, into: &writer)
        switch entry.context {
        case .standalone:
            writer.byte(0)
        case .reply(let parent):
            writer.byte(1)
            write(parent, into: &writer)
        case .repost(let user):
            writer.byte(2)
            write(user, into: &writer)
        case .unknown(let payload):
            writer.byte(3)
            write(payload, into: &writer)
        }
        writer.count(entry.seenReplyCount.map { $0 + 1 } ?? 0)
        return writer.bytes
    }

    static func decodeEntry(_ bytes: [UInt8]) throws(ByteDecodingError) -> FeedEntry {
        var reader = ByteReader(bytes)
        let form = try reader.byte()
        guard form == entryForm else {
            throw ByteDecodingError(offset: 0, problem: "cache form \(form), this build reads \(entryForm)")
        }
        let id = FeedEntryID(try reader.string())
        let media = try readMedia(&reader)
        let context: FeedEntry.Context
        switch try reader.byte() {
        case 0: context = .standalone
        case 1: context = .reply(parent: try readMedia(&reader))
        case 2: context = .repost(by: try readUser(&reader))
        case 3: context = .unknown(try readUnknown(&reader))
        case let tag:
            throw ByteDecodingError(offset: reader.offset - 1, problem: "unknown context tag \(tag)")
        }
        let seen = try reader.count()
        return FeedEntry(id: id, media: media, context: context, seenReplyCount: seen == 0 ? nil : seen - 1)
    }

    // MARK: Facts

    /// Facts in the binary form, headed by `format` (another only in tests, to write what a
    /// build with another list of facts writes).
    static func encode(_ facts: MediaFacts, format: Int64 = format) -> [UInt8] {
        var writer = ByteWriter(capacity: 32)
        writer.varint(UInt64(bitPattern: format))
        facts.write(to: &writer)
        return writer.bytes
    }

    static func decodeFacts(_ bytes: [UInt8]) throws(ByteDecodingError) -> MediaFacts {
        var reader = ByteReader(bytes)
        let written = Int64(bitPattern: try reader.varint())
        guard written == format else {
            throw ByteDecodingError(
                offset: 0, problem: "facts of format \(written), this build reads \(format)")
        }
        return try MediaFacts(reading: &reader)
    }

    // MARK: Parts

    private static func write(_ media: Media, into writer: inout ByteWriter) {
        if let unknown = media.unknownKind {
            writer.byte(1)
            write(unknown, into: &writer)
            return
        }
        writer.byte(0)
        writer.string(media.id.rawValue)
        write(media.author, into: &writer)
        writer.uint64(media.createdAt.timeIntervalSince1970.bitPattern)
        writer.string(media.text)
        writer.count(media.attachments.count)
        for attachment in media.attachments {
            switch attachment {
            case .photo(let photo):
                writer.byte(0)
                write(photo, into: &writer)
            case .video(let video):
                writer.byte(1)
                write(video, into: &writer)
            case .carousel(let items):
                writer.byte(2)
                writer.count(items.count)
                for item in items {
                    switch item {
                    case .photo(let photo):
                        writer.byte(0)
                        write(photo, into: &writer)
                    case .video(let video):
                        writer.byte(1)
                        write(video, into: &writer)
                    case .unknown(let payload):
                        writer.byte(2)
                        write(payload, into: &writer)
                    }
                }
            case .unknown(let payload):
                writer.byte(3)
                write(payload, into: &writer)
            }
        }
        writer.optionalString(media.clientToken)
    }

    private static func readMedia(_ reader: inout ByteReader) throws(ByteDecodingError) -> Media {
        if try reader.byte() == 1 {
            let payload = try readUnknown(&reader)
            do {
                return try Media(json: payload.raw, at: .root)
            } catch {
                throw ByteDecodingError(offset: reader.offset, problem: "unknown-kind media: \(error)")
            }
        }
        let id = MediaID(try reader.string())
        let author = try readUser(&reader)
        let createdAt = Date(timeIntervalSince1970: Double(bitPattern: try reader.uint64()))
        let text = try reader.string()
        let count = try reader.count(limit: 10_000)
        var attachments: [MediaModel.Attachment] = []
        attachments.reserveCapacity(count)
        for _ in 0..<count {
            switch try reader.byte() {
            case 0: attachments.append(.photo(try readPhoto(&reader)))
            case 1: attachments.append(.video(try readVideo(&reader)))
            case 2:
                let itemCount = try reader.count(limit: 10_000)
                var items: [MediaModel.Attachment.CarouselItem] = []
                items.reserveCapacity(itemCount)
                for _ in 0..<itemCount {
                    switch try reader.byte() {
                    case 0: items.append(.photo(try readPhoto(&reader)))
                    case 1: items.append(.video(try readVideo(&reader)))
                    case 2: items.append(.unknown(try readUnknown(&reader)))
                    case let tag:
                        throw ByteDecodingError(
                            offset: reader.offset - 1, problem: "unknown carousel tag \(tag)")
                    }
                }
                attachments.append(.carousel(items))
            case 3: attachments.append(.unknown(try readUnknown(&reader)))
            case let tag:
                throw ByteDecodingError(offset: reader.offset - 1, problem: "unknown attachment tag \(tag)")
            }
        }
        return Media(
            id: id, author: author, createdAt: createdAt, text: text, attachments: attachments,
            clientToken: try reader.optionalString())
    }

    private static func write(_ user: User, into writer: inout ByteWriter) {
        writer.string(user.id.rawValue)
        writer.string(user.handle)
        writer.string(user.displayName)
        writer.string(user.bio)
        switch user.avatar {
        case .glyph(let glyph):
            writer.byte(0)
            writer.string(glyph)
        case .image(let image):
            writer.byte(1)
            write(image, into: &writer)
        case .unknown(let payload):
            writer.byte(2)
            write(payload, into: &writer)
        }
    }

    private static func readUser(_ reader: inout ByteReader) throws(ByteDecodingError) -> User {
        let id = UserID(try reader.string())
        let handle = try reader.string()
        let displayName = try reader.string()
        let bio = try reader.string()
        let avatar: User.Avatar
        switch try reader.byte() {
        case 0: avatar = .glyph(try reader.string())
        case 1: avatar = .image(try readImage(&reader))
        case 2: avatar = .unknown(try readUnknown(&reader))
        case let tag: throw ByteDecodingError(offset: reader.offset - 1, problem: "unknown avatar tag \(tag)")
        }
        return User(id: id, handle: handle, displayName: displayName, avatar: avatar, bio: bio)
    }

    private static func write(_ photo: MediaModel.Attachment.Photo, into writer: inout ByteWriter) {
        writer.count(photo.width)
        writer.count(photo.height)
        write(photo.pixels, into: &writer)
        writer.optionalString(photo.altText)
        writer.optionalString(photo.id)
    }

    private static func readPhoto(_ reader: inout ByteReader) throws(ByteDecodingError)
        -> MediaModel.Attachment.Photo
    {
        MediaModel.Attachment.Photo(
            width: try reader.count(), height: try reader.count(), pixels: try readImage(&reader),
            altText: try reader.optionalString(), id: try reader.optionalString())
    }

    private static func write(_ video: MediaModel.Attachment.Video, into writer: inout ByteWriter) {
        writer.count(video.width)
        writer.count(video.height)
        let (seconds, attoseconds) = video.duration.components
        writer.signed(seconds)
        writer.signed(attoseconds)
        write(video.poster, into: &writer)
    }

    private static func readVideo(_ reader: inout ByteReader) throws(ByteDecodingError)
        -> MediaModel.Attachment.Video
    {
        let width = try reader.count()
        let height = try reader.count()
        let duration = Duration(
            secondsComponent: try reader.signed(), attosecondsComponent: try reader.signed())
        return MediaModel.Attachment.Video(
            width: width, height: height, duration: duration, poster: try readImage(&reader))
    }

    private static func write(_ image: PixelImage, into writer: inout ByteWriter) {
        writer.count(image.width)
        writer.count(image.height)
        writer.raw(image.rgb)
    }

    private static func readImage(_ reader: inout ByteReader) throws(ByteDecodingError) -> PixelImage {
        let width = try reader.count(limit: PixelImage.maxSide)
        let height = try reader.count(limit: PixelImage.maxSide)
        let rgb = try reader.slice()
        do {
            return try PixelImage(width: width, height: height, rgb: Array(rgb))
        } catch {
            throw ByteDecodingError(offset: reader.offset, problem: error.message)
        }
    }

    private static func write(_ payload: UnknownPayload, into writer: inout ByteWriter) {
        writer.string(payload.typeName)
        writer.raw(payload.raw.serialized())
    }

    private static func readUnknown(_ reader: inout ByteReader) throws(ByteDecodingError) -> UnknownPayload {
        let typeName = try reader.string()
        let json = try reader.slice()
        do {
            return UnknownPayload(typeName: typeName, raw: try JSONValue(parsing: Data(json)))
        } catch {
            throw ByteDecodingError(offset: reader.offset, problem: "unknown '\(typeName)' payload: \(error)")
        }
    }
}
