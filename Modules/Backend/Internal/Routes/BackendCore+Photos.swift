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
    /// width that is not a whole number from 1 to 16,384. A photo goes with its post: once the
    /// post is deleted its photos are 404 too.
    func photo(_ route: RouteRequest) throws -> Response {
        let name = route.parameter("id")
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
            let variants =
                try Self.photoRow(named: name, db).map { id in
                    try db.query(
                        "SELECT width, height, jpeg FROM photo_variants WHERE photo = ? ORDER BY width", id,
                        map: { row in (width: try row.int(0), height: try row.int(1), file: try row.data(2)) }
                    )
                } ?? []
            guard let largest = variants.last else {
                throw APIError.notFound("no photo with id '\(name.prefix(60))'")
            }
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

    /// The row of the stored photo called `name`: an upload's random name (`p` and 32 lowercase
    /// hex digits), or a photo stored before names (the seed's) by its row id (`p<n>`, no
    /// leading zero), never by the row id of a photo that has a name. Nil for anything else.
    static func photoRow(named name: String, _ db: borrowing Connection) throws -> Int64? {
        if PhotoName.isRandom(name) {
            return try db.queryFirst("SELECT id FROM photos WHERE name = ?", name) { try $0.int64(0) }
        }
        let digits = name.utf8.dropFirst()
        guard name.hasPrefix("p"), !digits.isEmpty else { return nil }
        guard digits.first != UInt8(ascii: "0"), digits.count <= 18,
            digits.allSatisfy({ (48...57).contains($0) }),
            let id = Int64(String(decoding: digits, as: UTF8.self))
        else { return nil }
        return try db.queryFirst("SELECT id FROM photos WHERE id = ? AND name IS NULL", id) {
            try $0.int64(0)
        }
    }

    /// Deletes the stored photos a post carries (its attachments' and carousel items' photo ids)
    /// with their variants. A photo stored before names may be shared by seed posts: it is kept
    /// while another post still carries it.
    func deletePhotos(of post: PostRow, _ db: borrowing Connection) throws {
        let media = try JSONValue(parsing: Data(post.json))
        guard case .object(let fields) = media, case .array(let attachments)? = fields["attachments"] else {
            return
        }
        var names: [String] = []
        for attachment in attachments {
            guard case .object(let fields) = attachment else { continue }
            var photos: [JSONValue] = [attachment]
            if case .array(let items)? = fields["items"] { photos = items }
            for case .object(let photo) in photos {
                if photo["type"] == .string("photo"), case .string(let name)? = photo["id"] {
                    names.append(name)
                }
            }
        }
        for name in names {
            guard let id = try Self.photoRow(named: name, db) else { continue }
            if !PhotoName.isRandom(name) {
                // The media JSON is a blob: the needle is bound as bytes in both dialects.
                let contains = db.dialect == .sqlite ? "instr(json, ?) > 0" : "position(? in json) > 0"
                let carried =
                    try db.queryFirst(
                        "SELECT 1 FROM posts WHERE id != ? AND deleted = 0 AND \(contains)", post.id,
                        Array("\"id\":\"\(name)\"".utf8), map: { _ in true }) ?? false
                if carried { continue }
            }
            try db.execute("DELETE FROM photo_variants WHERE photo = ?", id)
            try db.execute("DELETE FROM photos WHERE id = ?", id)
        }
    }

    /// A post's attachments as the client sent them, checked without decoding anything: their
    /// number, each carousel's items (``PostLimits/carouselItems``), attachments of unknown types
    /// (at most ``PostLimits/unknownAttachmentBytes``), and each uploaded photo (one with base64
    /// `data`) from its bytes and header (``PhotoIntake/check(_:field:)``), the photos' decoded
    /// pixels together within ``maximumDecodedPixelsPerPost``. A photo without `data` is taken as
    /// it is (a generated picture), its `id` dropped: only the server names stored photos.
    static func checkedAttachments(_ object: WireObject) throws(APIError) -> CheckedAttachments {
        guard let value = object.optionalValue("attachments") else { return CheckedAttachments() }
        guard case .array(let elements) = value else {
            throw APIError.invalidBody("attachments: expected an array, found \(value.briefDescription)")
        }
        guard elements.count <= maximumAttachments else {
            throw APIError.invalidBody(
                "attachments: \(elements.count) attachments is over the limit of \(maximumAttachments)")
        }
        var checked = CheckedAttachments()
        for (index, element) in elements.enumerated() {
            let field = "attachments[\(index)]"
            if case .object(var fields) = element, fields["type"] == "carousel",
                case .array(var items)? = fields["items"]
            {
                guard items.count <= PostLimits.carouselItems else {
                    throw APIError.invalidBody(
                        "\(field).items: \(items.count) items is over the limit of \(PostLimits.carouselItems) "
                            + "in one carousel")
                }
                for (item, itemJSON) in items.enumerated() {
                    items[item] = try check(
                        itemJSON, field: "\(field).items[\(item)]", slot: PhotoSlot(index, item),
                        known: ["photo", "video"], &checked.photos)
                }
                fields["items"] = .array(items)
                checked.elements.append(.object(fields))
            } else {
                checked.elements.append(
                    try check(
                        element, field: field, slot: PhotoSlot(index, nil),
                        known: ["photo", "video", "carousel"],
                        &checked.photos))
            }
        }
        let pixels = checked.photos.reduce(0) { $0 + $1.pixels }
        guard pixels <= maximumDecodedPixelsPerPost else {
            throw APIError(
                status: 413, code: "photo_too_large",
                message:
                    "attachments: decoding this post's photos would hold \(PhotoIntake.megapixels(pixels)) "
                    + "megapixels in all, over the limit of \(PhotoIntake.megapixels(maximumDecodedPixelsPerPost)) "
                    + "megapixels for one post; send fewer or smaller photos")
        }
        return checked
    }

    /// The most decoded pixels (``PhotoIntake/check(_:field:)``) the photos of one post may hold
    /// together: a carousel of ten phone photos (a JPEG is decoded at about 1,280 pixels wide,
    /// 2 to 3 megapixels), eight 12-megapixel PNGs, or two of the largest photos accepted.
    static let maximumDecodedPixelsPerPost = 100_000_000

    /// The longest a post's photos may take to decode, added up (time waiting for a turn is
    /// not counted): a post within the pixel budget takes a few seconds at most.
    static let maximumDecodeTimePerPost: Duration = .seconds(30)

    /// A post's attachments checked (``checkedAttachments(_:)``), their photos not yet decoded.
    struct CheckedAttachments: Sendable {
        /// The attachments' JSON, photos without their `data` and `id`.
        var elements: [JSONValue] = []
        /// The photos to decode, in order.
        var photos: [PendingPhoto] = []
    }

    /// An uploaded photo checked from its header, to be decoded.
    struct PendingPhoto: Sendable {
        let slot: PhotoSlot
        /// Names the photo's data in errors (`attachments[0].items[1].data`).
        let field: String
        let bytes: [UInt8]
        /// The pixels its decode holds.
        let pixels: Int
    }

    /// Decodes the checked photos within the server's budget, off the caller's thread
    /// (``PhotoDecodeGate``), and gives the attachments with each photo's true size and small
    /// rendition, and the photos to store.
    ///
    /// - Throws: the ``PhotoIntake`` errors of a photo; 413 `photo_too_costly` when the photos
    ///   take longer than ``maximumDecodeTimePerPost``; 503 `busy` when too many photos wait.
    func preparedAttachments(_ checked: CheckedAttachments) async throws -> (
        attachments: [MediaModel.Attachment], uploads: [(slot: PhotoSlot, photo: PhotoIntake)]
    ) {
        var elements = checked.elements
        var uploads: [(slot: PhotoSlot, photo: PhotoIntake)] = []
        var spent = Duration.zero
        for pending in checked.photos {
            let (photo, took) = try await photoGate.run(pixels: pending.pixels) {
                try PhotoIntake(pending.bytes, field: pending.field)
            }
            spent += took
            guard spent <= Self.maximumDecodeTimePerPost else {
                throw APIError(
                    status: 413, code: "photo_too_costly",
                    message: "attachments: decoding this post's photos took longer than "
                        + "\(Self.maximumDecodeTimePerPost), the limit for one post; send fewer or smaller photos"
                )
            }
            uploads.append((pending.slot, photo))
            func filled(_ json: JSONValue) -> JSONValue {
                guard case .object(var fields) = json else { return json }
                fields["width"] = .int(Int64(photo.width))
                fields["height"] = .int(Int64(photo.height))
                fields["pixels"] = photo.pixels.json
                return .object(fields)
            }
            let element = elements[pending.slot.attachment]
            if let item = pending.slot.item, case .object(var fields) = element,
                case .array(var items)? = fields["items"]
            {
                items[item] = filled(items[item])
                fields["items"] = .array(items)
                elements[pending.slot.attachment] = .object(fields)
            } else {
                elements[pending.slot.attachment] = filled(element)
            }
        }
        var attachments: [MediaModel.Attachment] = []
        for (index, json) in elements.enumerated() {
            do {
                let path = WirePath.root.appending("attachments").appending(index: index)
                attachments.append(try MediaModel.Attachment(json: json, at: path))
            } catch {
                throw APIError.invalidBody(error.description)
            }
        }
        return (attachments, uploads)
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

    /// One attachment's JSON checked: an upload's `data` taken out and checked from its header
    /// (added to `photos`), an attachment of a type not in `known` held to its size.
    private static func check(
        _ json: JSONValue, field: String, slot: PhotoSlot, known: Set<String>, _ photos: inout [PendingPhoto]
    ) throws(APIError) -> JSONValue {
        guard case .object(var fields) = json else { return json }
        if case .string(let type)? = fields["type"], !known.contains(type) {
            let bytes = json.serialized().count
            guard bytes <= PostLimits.unknownAttachmentBytes else {
                throw APIError.invalidBody(
                    "\(field): an attachment of unknown type '\(type.prefix(40))' is \(bytes) bytes of JSON, over "
                        + "the limit of \(PostLimits.unknownAttachmentBytes) for a type this server does not know"
                )
            }
            return json
        }
        guard fields["type"] == "photo" else { return json }
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
        let photo = [UInt8](bytes)
        let pixels = try PhotoIntake.check(photo, field: "\(field).data")
        photos.append(PendingPhoto(slot: slot, field: "\(field).data", bytes: photo, pixels: pixels))
        return .object(fields)
    }

    /// Stores prepared photos for `owner` and writes their ids into `attachments`.
    func storePhotos(
        _ uploads: [(slot: PhotoSlot, photo: PhotoIntake)], owner: Int64,
        into attachments: inout [MediaModel.Attachment],
        _ db: borrowing Connection
    ) throws {
        for (slot, photo) in uploads {
            let name = PhotoName.make()
            _ = try Self.insertPhoto(
                owner: owner, name: name, format: photo.format.rawValue, width: photo.width,
                height: photo.height, original: photo.original, variants: photo.variants,
                createdAt: nowMilliseconds, db)
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
    /// and the seed data both store. An upload has a `name` (its id, `p` and 32 random hex
    /// digits); a seed photo has none and is known by its row id (`p<n>`).
    static func insertPhoto(
        owner: Int64, name: String? = nil, format: String, width: Int, height: Int, original: [UInt8],
        variants: [PhotoIntake.Variant], createdAt: Int64, _ db: borrowing Connection
    ) throws -> Int64 {
        let id =
            try db.queryFirst(
                """
                INSERT INTO photos (owner, name, format, width, height, original, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
                """, owner, name, format, width, height, original, createdAt
            ) { try $0.int64(0) } ?? 0
        for variant in variants {
            try db.execute(
                "INSERT INTO photo_variants (photo, width, height, jpeg) VALUES (?, ?, ?, ?)", id,
                variant.width,
                variant.height, variant.file)
        }
        return id
    }
}
