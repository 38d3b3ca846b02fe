import Foundation

/// The versioned top level of every wire document: a payload plus the shared facts of the media
/// it mentions.
///
/// ```json
/// {"version": 1, "media": {...}, "facts": {"m1": {"likeCount": 3, "replyCount": 1}}}
/// ```
///
/// The payload sits under its type's `envelopeKey`. `facts` (optional) feeds `MediaStore.apply`.
public struct WireEnvelope<Payload: WirePayload>: Hashable, Sendable {
    /// The wire format version the document was written in.
    public var version: Int
    /// The media, entry or page.
    public var payload: Payload
    /// Server-seen shared facts of the media the payload mentions, keyed by media id.
    public var facts: [MediaID: MediaFacts]
    /// The entity tag the server sent with the document (HTTP's `ETag`, not part of the JSON):
    /// sent back as `If-None-Match`, it gets a 304 while the document is unchanged. Nil when the
    /// server sent none.
    public var etag: String?

    /// Wraps a payload at the current wire format version.
    public init(
        _ payload: Payload, facts: [MediaID: MediaFacts] = [:], version: Int = WireFormat.currentVersion
    ) {
        self.version = version
        self.payload = payload
        self.facts = facts
    }
}

/// A media with its facts on the wire.
public typealias MediaEnvelope = WireEnvelope<Media>
/// A feed entry with its facts on the wire.
public typealias FeedEntryEnvelope = WireEnvelope<FeedEntry>
/// A page of feed entries with their facts on the wire.
public typealias FeedPageEnvelope = WireEnvelope<FeedPage>

extension WireEnvelope: WireCodable {
    /// Decodes an envelope; a version newer than `WireFormat.currentVersion` is an error.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let version = try object.int("version")
        guard version >= 1 else {
            throw WireFormatError(
                path: path.appending("version"), problem: "expected a version of at least 1, found \(version)"
            )
        }
        guard version <= WireFormat.currentVersion else {
            throw WireFormatError(
                path: path.appending("version"),
                problem: "unsupported wire format version \(version); this build reads versions up to "
                    + "\(WireFormat.currentVersion); update the app to read this document")
        }
        self.version = version
        payload = try object.decode(Payload.self, Payload.envelopeKey)
        facts = try object.decodeMap(MediaFacts.self, "facts")
    }

    /// The envelope's JSON form; `facts` is left out when empty.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "version": .int(Int64(version)), Payload.envelopeKey: payload.json,
        ]
        if !facts.isEmpty {
            fields["facts"] = .object(
                Dictionary(uniqueKeysWithValues: facts.map { ($0.key.rawValue, $0.value.json) }))
        }
        return .object(fields)
    }
}

extension WireEnvelope: Codable {
    /// Decodes through the wire format, so errors name the field path.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder), at: WirePath(codingPath: decoder.codingPath))
    }

    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
