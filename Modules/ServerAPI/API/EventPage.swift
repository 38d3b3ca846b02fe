import MediaModel

/// A page of the viewer's event stream as `GET /v1/events` returns it, oldest first, and the
/// cursor to read on from (always present).
public struct EventPage: WirePayload {
    /// The envelope key: `"events"`.
    public static let envelopeKey = "events"

    /// The events, oldest first.
    public var events: [ActivityEvent]
    /// Where to continue reading; the same cursor again when nothing was new.
    public var nextCursor: String

    /// Makes a page.
    public init(events: [ActivityEvent], nextCursor: String) {
        self.events = events
        self.nextCursor = nextCursor
    }

    /// Decodes `{"items": [...], "nextCursor": "e:12"}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        _ = try object.value("items")
        self.init(
            events: try object.decodeArray(ActivityEvent.self, "items"),
            nextCursor: try object.string("nextCursor"))
    }

    /// The wire form.
    public var json: JSONValue { ["items": .array(events.map(\.json)), "nextCursor": .string(nextCursor)] }
}
