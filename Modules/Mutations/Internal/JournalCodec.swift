import Basics
import Foundation
import MediaModel
import ServerAPI

/// The journal's binary form of a mutation (with the author a new post is shown as) and of a
/// confirmation: a few bytes per field, so a cold start decodes 100,000 rows in a fraction of a
/// second (JSON would cost several microseconds per row). Attachments and media are kept as
/// their wire JSON.
///
/// The first byte is the format, the second the kind's `MutationKind/journalTag`; then what the
/// kind's subject needs: the post or user id, or a message's conversation id and shared post (an
/// optional string); then a post's, reply's or message's text and attachments. A
/// kind's tag is part of its description: never reuse or renumber one (journals on disk outlive
/// releases); `MutationKindTests` checks that no two kinds share one.
enum JournalCodec {
    /// The format this build writes and reads.
    static let format: UInt8 = 1

    // MARK: Mutations

    static func encode(_ mutation: Mutation, author: User?) -> [UInt8] {
        var writer = ByteWriter(capacity: 64)
        writer.byte(format)
        writer.byte(mutation.kind.journalTag)
        // The same bytes for every kind older than messages: a post writes nothing here, a reply
        // or a change of a post its media id, a follow its user id.
        switch mutation.kind.subject {
        case .newPost: break
        case .reply, .media: writer.string((mutation.media ?? MediaID("")).rawValue)
        case .user: writer.string((mutation.user ?? UserID("")).rawValue)
        case .conversation:
            writer.string((mutation.conversation ?? ConversationID("")).rawValue)
            writer.optionalString(mutation.media?.rawValue)
        case .account: break
        }
        if mutation.kind.carriesContent {
            writer.string(mutation.text)
            write(mutation.attachments, into: &writer)
        }
        write(author, into: &writer)
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(ByteDecodingError) -> (Mutation, User?) {
        var reader = ByteReader(bytes)
        let format = try reader.byte()
        guard format == Self.format else {
            throw ByteDecodingError(
                offset: 0, problem: "journal format \(format), this build reads \(Self.format)")
        }
        let tag = try reader.byte()
        guard let kind = MutationKind(journalTag: tag) else {
            throw ByteDecodingError(offset: 1, problem: "unknown mutation tag \(tag)")
        }
        var media: MediaID?
        var user: UserID?
        var conversation: ConversationID?
        var text = ""
        var attachments: [MediaModel.Attachment] = []
        switch kind.subject {
        case .newPost: break
        case .reply, .media: media = MediaID(try reader.string())
        case .user: user = UserID(try reader.string())
        case .conversation:
            conversation = ConversationID(try reader.string())
            media = try reader.optionalString().map { MediaID($0) }
        case .account: break
        }
        if kind.carriesContent {
            text = try reader.string()
            attachments = try readAttachments(&reader)
        }
        guard
            let mutation = Mutation.checked(
                kind, media: media, user: user, conversation: conversation, text: text,
                attachments: attachments)
        else {
            throw ByteDecodingError(offset: 1, problem: "a \(kind) without what it acts on")
        }
        return (mutation, try readUser(&reader))
    }

    // MARK: Confirmations

    static func encode(_ confirmation: MutationConfirmation) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        writer.byte(format)
        switch confirmation {
        case .facts:
            writer.byte(0)
        case .post(let media, let parent):
            writer.byte(1)
            writer.raw(media.json.serialized())
            writer.optionalString(parent?.rawValue)
        case .deleted(let id):
            writer.byte(2)
            writer.string(id.rawValue)
        case .relationship(let user, let following, let followerCount):
            writer.byte(3)
            writer.string(user.rawValue)
            writer.bool(following)
            writer.count(followerCount.map { $0 + 1 } ?? 0)
        case .message(let message):
            writer.byte(4)
            writer.raw(message.json.serialized())
        }
        return writer.bytes
    }

    static func decodeConfirmation(_ bytes: [UInt8]) throws(ByteDecodingError) -> MutationConfirmation {
        var reader = ByteReader(bytes)
        guard try reader.byte() == format else {
            throw ByteDecodingError(offset: 0, problem: "unknown confirmation format")
        }
        switch try reader.byte() {
        case 0: return .facts
        case 1:
            let json = Data(try reader.slice())
            let parent = try reader.optionalString().map { MediaID($0) }
            do {
                return .post(try Media(json: JSONValue(parsing: json), at: .root), parent: parent)
            } catch {
                throw ByteDecodingError(offset: reader.offset, problem: "confirmed media: \(error)")
            }
        case 2: return .deleted(MediaID(try reader.string()))
        case 3:
            let user = UserID(try reader.string())
            let following = try reader.bool()
            let count = try reader.count()
            return .relationship(user, following: following, followerCount: count == 0 ? nil : count - 1)
        case 4:
            let json = Data(try reader.slice())
            do {
                return .message(try Message(json: JSONValue(parsing: json), at: .root))
            } catch {
                throw ByteDecodingError(offset: reader.offset, problem: "confirmed message: \(error)")
            }
        case let tag:
            throw ByteDecodingError(offset: 1, problem: "unknown confirmation tag \(tag)")
        }
    }

    // MARK: Parts

    private static func write(_ attachments: [MediaModel.Attachment], into writer: inout ByteWriter) {
        if attachments.isEmpty {
            writer.count(0)
        } else {
            writer.raw(JSONValue.array(attachments.map(\.json)).serialized())
        }
    }

    private static func readAttachments(_ reader: inout ByteReader) throws(ByteDecodingError)
        -> [MediaModel.Attachment]
    {
        let bytes = try reader.slice()
        guard !bytes.isEmpty else { return [] }
        do {
            guard case .array(let items) = try JSONValue(parsing: Data(bytes)) else {
                throw ByteDecodingError(offset: reader.offset, problem: "attachments are not a JSON array")
            }
            return try items.enumerated().map { offset, item in
                try MediaModel.Attachment(json: item, at: WirePath.root.appending(index: offset))
            }
        } catch let error as ByteDecodingError {
            throw error
        } catch {
            throw ByteDecodingError(offset: reader.offset, problem: "attachments: \(error)")
        }
    }

    private static func write(_ user: User?, into writer: inout ByteWriter) {
        guard let user else {
            writer.byte(0)
            return
        }
        if case .glyph(let glyph) = user.avatar {
            writer.byte(1)
            writer.string(user.id.rawValue)
            writer.string(user.handle)
            writer.string(user.displayName)
            writer.string(user.bio)
            writer.string(glyph)
        } else {
            writer.byte(2)
            writer.raw(user.json.serialized())
        }
    }

    private static func readUser(_ reader: inout ByteReader) throws(ByteDecodingError) -> User? {
        switch try reader.byte() {
        case 0: return nil
        case 1:
            let id = UserID(try reader.string())
            let handle = try reader.string()
            let displayName = try reader.string()
            let bio = try reader.string()
            let glyph = try reader.string()
            return User(id: id, handle: handle, displayName: displayName, avatar: .glyph(glyph), bio: bio)
        case 2:
            let json = Data(try reader.slice())
            do {
                return try User(json: JSONValue(parsing: json), at: .root)
            } catch {
                throw ByteDecodingError(offset: reader.offset, problem: "author: \(error)")
            }
        case let tag:
            throw ByteDecodingError(offset: reader.offset - 1, problem: "unknown author tag \(tag)")
        }
    }
}
