import Foundation
import MediaModel
import ServerAPI
import Wire

extension Mutation {
    /// The files of the photos this change uploads (its durable copies), in order; empty for
    /// a change without photos from disk.
    public var photoFiles: [String] {
        var files: [String] = []
        for attachment in attachments {
            switch attachment {
            case .photo(let photo): if let file = photo.file { files.append(file) }
            case .carousel(let items):
                for case .photo(let photo) in items { if let file = photo.file { files.append(file) } }
            case .video, .unknown: break
            }
        }
        return files
    }

    /// An attachment as a request carries it: a photo with a `file` goes with the file's bytes
    /// as base64 `data` instead of the path; everything else as its wire form.
    static func uploadForm(of attachment: MediaModel.Attachment) throws(TransportError) -> JSONValue {
        switch attachment {
        case .photo(let photo): return try uploadForm(of: photo)
        case .carousel(let items):
            var sent: [JSONValue] = []
            for item in items {
                if case .photo(let photo) = item {
                    sent.append(try uploadForm(of: photo))
                } else {
                    sent.append(item.json)
                }
            }
            return ["type": "carousel", "items": .array(sent)]
        case .video, .unknown: return attachment.json
        }
    }

    private static func uploadForm(of photo: MediaModel.Attachment.Photo) throws(TransportError) -> JSONValue
    {
        guard let file = photo.file else { return photo.json }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            let reason = FileManager.default.fileExists(atPath: file) ? "\(error)" : "no such file"
            throw TransportError(
                .clientError,
                "the photo file '\(file)' this change uploads cannot be read (\(reason)): "
                    + "discard the change and attach the photo again")
        }
        var sent = photo
        sent.file = nil
        guard case .object(var fields) = sent.json else { return sent.json }
        fields["data"] = .string(bytes.base64EncodedString())
        return .object(fields)
    }
}
