import Foundation

extension PixelImage: WireCodable, Codable {
    /// Decodes `{"width": 8, "height": 8, "rgb": "<base64 of width*height*3 bytes>"}`.
    public init(json: JSONValue, at path: WirePath) throws(WireFormatError) {
        let object = try WireObject(json, at: path)
        let width = try object.int("width", in: 1...Int64(Self.maxSide))
        let height = try object.int("height", in: 1...Int64(Self.maxSide))
        let encoded = try object.string("rgb")
        guard let bytes = Data(base64Encoded: encoded) else {
            throw WireFormatError(
                path: path.appending("rgb"),
                problem: "expected base64 RGB bytes, found \(JSONValue.string(encoded).briefDescription)")
        }
        guard bytes.count == width * height * 3 else {
            throw WireFormatError(
                path: path.appending("rgb"),
                problem: "expected \(width * height * 3) bytes for a \(width)x\(height) RGB image, "
                    + "found \(bytes.count)")
        }
        self.init(uncheckedWidth: width, height: height, rgb: [UInt8](bytes))
    }

    /// The wire form, pixels as base64.
    public var json: JSONValue {
        [
            "width": .int(Int64(width)), "height": .int(Int64(height)),
            "rgb": .string(Data(rgb).base64EncodedString()),
        ]
    }

    /// Decodes the wire form.
    public init(from decoder: any Decoder) throws { try self.init(wireDecoder: decoder) }
    /// Encodes the wire form.
    public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}
