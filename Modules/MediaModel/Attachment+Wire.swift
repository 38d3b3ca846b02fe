extension Attachment: WireCodable, Codable {
    /// Decodes an attachment by its `type`; an unknown type keeps its raw payload.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let type = try object.string("type")
        switch type {
        case "photo": self = .photo(try Photo(json: json, at: path))
        case "video": self = .video(try Video(json: json, at: path))
        case "carousel":
            let items = try object.decodeArray(CarouselItem.self, "items")
            guard !items.isEmpty else {
                throw WireFormatError(
                    path: path.appending("items"), problem: "a carousel needs at least one item, found none")
            }
            self = .carousel(items)
        default: self = .unknown(UnknownPayload(typeName: type, raw: json))
        }
    }

    /// The wire form: `{"type": "photo", ...}`; an unknown attachment as it arrived.
    public var json: JSONValue {
        switch self {
        case .photo(let photo): photo.json
        case .video(let video): video.json
        case .carousel(let items): ["type": "carousel", "items": .array(items.map(\.json))]
        case .unknown(let payload): payload.raw
        }
    }

    /// Decodes the wire form.
    public init(from decoder: any Decoder) throws { try self.init(wireDecoder: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

extension Attachment.CarouselItem: WireCodable {
    /// Decodes a carousel page by its `type`; anything but a photo or video is kept raw.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let type = try object.string("type")
        switch type {
        case "photo": self = .photo(try Attachment.Photo(json: json, at: path))
        case "video": self = .video(try Attachment.Video(json: json, at: path))
        default: self = .unknown(UnknownPayload(typeName: type, raw: json))
        }
    }

    /// The wire form, the same as the matching attachment's.
    public var json: JSONValue {
        switch self {
        case .photo(let photo): photo.json
        case .video(let video): video.json
        case .unknown(let payload): payload.raw
        }
    }
}

extension Attachment.Photo: WireCodable {
    /// Decodes `{"type": "photo", "width": 1080, "height": 1350, "pixels": {...}, "alt": "...",
    /// "id": "p12"}` (`id`, `alt` and the journal's `file` are optional).
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        width = try object.int("width", in: 1...1_000_000)
        height = try object.int("height", in: 1...1_000_000)
        pixels = try object.decode(PixelImage.self, "pixels")
        altText = try object.optionalString("alt")
        id = try object.optionalString("id")
        file = try object.optionalString("file")
    }

    /// The wire form.
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "type": "photo", "width": .int(Int64(width)), "height": .int(Int64(height)),
            "pixels": pixels.json,
        ]
        if let altText { fields["alt"] = .string(altText) }
        if let id { fields["id"] = .string(id) }
        if let file { fields["file"] = .string(file) }
        return .object(fields)
    }
}

extension Attachment.Video: WireCodable {
    /// Decodes `{"type": "video", "width": 1920, "height": 1080, "durationMs": 15000, "poster": {...}}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        width = try object.int("width", in: 1...1_000_000)
        height = try object.int("height", in: 1...1_000_000)
        duration = .milliseconds(try object.int64("durationMs", in: 0...(Int64.max / 1_000_000)))
        poster = try object.decode(PixelImage.self, "poster")
    }

    /// The wire form; the duration in whole milliseconds.
    public var json: JSONValue {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return [
            "type": "video", "width": .int(Int64(width)), "height": .int(Int64(height)),
            "durationMs": .int(milliseconds), "poster": poster.json,
        ]
    }
}
