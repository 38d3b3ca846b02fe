/// A value with a JSON wire form whose decoding errors name the field path.
///
/// Decoding is tolerant where the format promises it (unknown kinds and attachment types
/// become `unknown` with their raw payload; unknown fields are ignored) and strict elsewhere
/// (a missing required field or a value of the wrong type is a `WireFormatError`).
public protocol WireCodable: Sendable {
    /// Decodes the value from its JSON form, found at `path` in the document.
    init(json: JSONValue, at path: WirePath) throws(WireFormatError)

    /// The value's JSON form.
    var json: JSONValue { get }
}

/// A top-level value of the wire format, sent inside a versioned `WireEnvelope`.
public protocol WirePayload: WireCodable, Hashable {
    /// The envelope's key for the payload (`"media"`, `"entry"`, `"page"`).
    static var envelopeKey: String { get }
}
