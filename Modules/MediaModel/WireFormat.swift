import Foundation

/// Encodes and decodes the JSON wire format of media, feed entries and feed pages.
///
/// Rules every reader and writer follows:
/// - Every document is a `WireEnvelope` with a `version`. Additive changes (new kinds, new
///   attachment types, new fields) keep the version; only a breaking change bumps it, and a
///   build refuses versions newer than `currentVersion` with a clear error.
/// - An unknown media kind or attachment type decodes to `unknown` with its raw payload kept,
///   and encodes back unchanged: never an error.
/// - Fields this build does not know are ignored.
/// - A missing required field or a value of the wrong type is a `WireFormatError` naming the
///   field path: `media.attachments[2].width: expected a number, found "abc"`.
/// - Pixels travel as base64 RGB bytes; times as milliseconds since 1970.
///
/// ```swift
/// let data = WireFormat.encode(MediaEnvelope(media))
/// let decoded = try WireFormat.decode(Media.self, from: data).payload
/// ```
public enum WireFormat {
    /// The newest wire format version this build reads and the one it writes.
    public static let currentVersion = 1

    /// Encodes an envelope as compact JSON with sorted keys.
    ///
    /// Complexity: O(n) in the size of the document.
    public static func encode<Payload: WirePayload>(_ envelope: WireEnvelope<Payload>) -> Data {
        envelope.json.serialized()
    }

    /// Decodes an envelope holding a `Payload`.
    ///
    /// - Throws: `WireFormatError` naming the field path of the first problem found.
    public static func decode<Payload: WirePayload>(_ type: Payload.Type, from data: Data)
        throws(WireFormatError) -> WireEnvelope<Payload>
    {
        try WireEnvelope<Payload>(json: JSONValue(parsing: data), at: .root)
    }
}
