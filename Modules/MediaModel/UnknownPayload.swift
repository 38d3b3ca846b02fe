/// Something this build does not know (a media kind, attachment type, avatar or entry context),
/// kept exactly as it arrived so it can be shown as a fallback and sent back unchanged.
public struct UnknownPayload: Hashable, Sendable {
    /// The type name it arrived under (`"poll"`, `"sticker"`).
    public let typeName: String
    /// The whole JSON object it arrived as, type field included.
    public let raw: JSONValue

    /// Keeps a payload of an unknown type.
    public init(typeName: String, raw: JSONValue) {
        self.typeName = typeName
        self.raw = raw
    }
}
