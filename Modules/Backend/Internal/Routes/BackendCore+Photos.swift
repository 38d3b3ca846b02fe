import Foundation
import Imaging
import MediaModel
import Storage
import Wire

extension BackendCore {
    /// The largest body `POST /v1/posts` and `POST /v1/posts/{id}/replies` read: room for
    /// three photos of ``PhotoIntake/maximumBytes`` as base64. Other routes keep
    /// `RouteRequest.maximumBodySize`.
    static let maximumPostBodySize = 40 << 20

    /// `GET /v1/photos/{id}?width=W`: the smallest stored variant at least `W` pixels wide (a JPEG,
    /// or an RGBA PNG for a photo with transparency, its type in `Content-Type`),
    /// else the largest (the largest too without `width`); 404 for an unknown id, 400 for a
    /// width that is not a whole number from 1 to 16,384.
    func photo(_ route: RouteRequest) throws -> Response {
        let id = try route.id("id", prefix: "p", noun: "photo")
        var wanted: Int?
        if let text = route.request.queryValue("width") {
            guard let width = Int(text), (1...16_384).contains(width) else {
                throw APIError.invalidParameter(
                    "width", "expected a whole number from 1 to 16384, found '\(text.prefix(40))'")
            }
            wanted = width
        }
        return try read { db in
            _ = try authenticate(route.request, db)
            let variants = try db.query(
                "SELECT width, height, jpeg FROM photo_variants WHERE photo = ? ORDER BY width", id,
                map: { row in (width: try row.int(0), height: try row.int(1), file: try row.data(2)) })
            guard let largest = variants.last else { throw APIError.notFound("no photo with id 'p\(id)'") }
            let chosen = wanted.flatMap { width in variants.first { $0.width >= width } } ?? largest
            return Response(
                status: 200,
                headers: [
                    "Content-Type": ImageFormat.sniff([UInt8](chosen.file.prefix(8))) == .png
                        ? "image/png" : "image/jpeg",
                    "Photo-Width": String(chosen.width),
                    "Photo-Height": String(chosen.height),
                    "Cache-Control": "private, max-age=31536000, immutable",
                ],
                body: chosen.file)
        }
    }

    /// A post's attachments as the client sent them, with each uploaded photo (one with base64
    /// `data`) checked and prepared (``PhotoIntake``), to be stored by ``storePhotos(_:owner:_:)``.
    /// A photo without `data` is taken as it is (a generated picture), its `id` dropped: only
    /// the server names stored photos.
    static func attachments(_ object: WireObject, _ gate: PhotoDecodeGate) throws -> (
        attachments: [MediaModel.Attachment], uploads: [(slot: PhotoSlot, photo: PhotoIntake)]
    ) {
        guard let value = object.optionalValue("attachments") else { return ([], []) }
        guard case .array(let elements) = value else {
            throw APIError.invalidBody("attachments: expected an array, found \(value.briefDescription)")
        }
        var uploads: [(slot: PhotoSlot, photo: PhotoIntake)] = []
        var decoded: [MediaModel.Attachment] = []
        for (index, element) in elements.enumerated() {
            let field = "attachments[\(index)]"
            var json = element
            if case .object(var fields) = element, fields["type"] == "carousel",
                case .array(var items)? = fields["items"]
            {
                for (item, itemJSON) in items.enumerated() {
                    items[item] = try prepare(
                        itemJSON, field: "\(field).items[\(item)]", slot: PhotoSlot(index, item), gate, &uploads)
                }
                fields["items"] = .array(items)
                json = .object(fields)
            } else {
                json = try prepare(element, field: field, slot: PhotoSlot(index, nil), gate, &uploads)
            }
            do {
                let path = WirePath.root.appending("attachments").appending(index: index)
                decoded.append(try MediaModel.Attachment(json: json, at: path))
            } catch {
                throw APIError.invalidBody(error.description)
            }
        }
        return (decoded, uploads)
    }

    /// Where a stored photo goes back into the attachments: the attachment's index and, in a
    /// carousel, the item's.
    struct PhotoSlot: Sendable {
        let attachment: Int
        let item: Int?
        init(_ attachment: Int, _ item: Int?) {
            self.attachment = attachment
            self.item = item
        }
    }

    /// One photo's JSON made decodable: an upload's `data` decoded and prepared, its width,
    /// height and small rendition replaced by the server's own.
    private static func prepare(
        _ json: JSONValue, field: String, slot: PhotoSlot, _ gate: PhotoDecodeGate,
        _ uploads: inout [(slot: PhotoSlot, photo: PhotoIntake)]
    ) throws -> JSONValue {
        guard case .object(var fields) = json, fields["type"] == "photo" else { return json }
        fields["id"] = nil
        if fields["file"] != nil {
            throw APIError.invalidBody(
                "\(field).file: a file path on the client's device means nothing here; send the photo's "
                    + "bytes as base64 'data'")
        }
        guard let data = fields.removeValue(forKey: "data") else { return .object(fields) }
        guard case .string(let base64) = data, let bytes = Data(base64Encoded: base64) else {
            throw APIError.invalidBody("\(field).data: expected the photo file's bytes as base64")
        }
        gate.runHookInline()
        let photo = try PhotoIntake([UInt8](bytes), field: "\(field).data")
        uploads.append((slot, photo))
        fields["width"] = .int(Int64(photo.width))
        fields["height"] = .int(Int64(photo.height))
        fields["pixels"] = photo.pixels.json
        return .object(fields)
    }

    /// Stores prepared photos for `owner` and writes their ids into `attachments`.
    func storePhotos(
        _ uploads: [(slot: PhotoSlot, photo: PhotoIntake)], owner: Int64,
        into attachments: inout [MediaModel.Attachment],
        _ db: borrowing Connection
    ) throws {
        for (slot, photo) in uploads {
            let id = try Self.insertPhoto(
                owner: owner, format: photo.format.rawValue, width: photo.width, height: photo.height,
                original: photo.original, variants: photo.variants, createdAt: nowMilliseconds, db)
            let name = "p\(id)"
            switch (attachments[slot.attachment], slot.item) {
            case (.photo(var stored), nil):
                stored.id = name
                attachments[slot.attachment] = .photo(stored)
            case (.carousel(var items), let item?):
                if case .photo(var stored) = items[item] {
                    stored.id = name
                    items[item] = .photo(stored)
                }
                attachments[slot.attachment] = .carousel(items)
            default: break
            }
        }
    }

    /// Inserts a stored photo (its row and its variants) and returns its row id: what an upload
    /// and the seed data both store.
    static func insertPhoto(
        owner: Int64, format: String, width: Int, height: Int, original: [UInt8],
        variants: [PhotoIntake.Variant], createdAt: Int64, _ db: borrowing Connection
    ) throws -> Int64 {
        try db.execute(
            "INSERT INTO photos (owner, format, width, height, original, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            owner, format, width, height, original, createdAt)
        let id = try db.queryFirst("SELECT last_insert_rowid()") { try $0.int64(0) } ?? 0
        for variant in variants {
            try db.execute(
                "INSERT INTO photo_variants (photo, width, height, jpeg) VALUES (?, ?, ?, ?)", id,
                variant.width,
                variant.height, variant.file)
        }
        return id
    }
}
