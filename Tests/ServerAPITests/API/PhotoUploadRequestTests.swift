import Foundation
import MediaModel
import Mutations
import ServerAPI
import Testing
import Wire

/// A photo waiting to be uploaded: its journal form names the copy, its request carries the bytes.
@Suite struct PhotoUploadRequestTests {
    static func copy(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "copy-\(UUID().uuidString).jpg"
        ).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let pixels = PixelImage(width: 2, height: 1, filledWith: .init(red: 10, green: 20, blue: 30))

    @Test func aPhotoWithACopy_isJournaledByPath_andSentAsItsBytes() throws {
        // Given a post whose photo is a copy on disk
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 250]
        let path = try Self.copy(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let photo = Attachment.Photo(width: 40, height: 20, pixels: Self.pixels, altText: "a dot", file: path)
        let mutation = Mutation.post(text: "dot", attachments: [.carousel([.photo(photo), .photo(photo)])])

        // When its request is made
        let request = try mutation.request(clientToken: "tok", bearerToken: nil)

        // Then the change keeps the path, not the bytes (the journal stores the attachments' wire
        // form); the request carries the bytes, not the path
        #expect(mutation.photoFiles == [path, path])
        let stored = JSONValue.array(mutation.attachments.map(\.json)).serialized()
        #expect(String(decoding: stored, as: UTF8.self).contains(path))
        #expect(!String(decoding: stored, as: UTF8.self).contains(Data(bytes).base64EncodedString()))
        let body = try JSONValue(parsing: request.body)
        guard case .object(let root) = body, case .array(let attachments)? = root["attachments"],
            case .object(let carousel)? = attachments.first, case .array(let items)? = carousel["items"],
            case .object(let first)? = items.first
        else {
            Issue.record("unexpected body \(String(decoding: request.body, as: UTF8.self))")
            return
        }
        #expect(first["data"] == .string(Data(bytes).base64EncodedString()))
        #expect(first["file"] == nil)
        #expect(first["alt"] == .string("a dot"))
        #expect(items.count == 2)
    }

    @Test func aCopyThatIsGone_makesAPermanentErrorSayingWhatToDo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gone-\(UUID().uuidString).jpg"
        ).path
        let photo = Attachment.Photo(width: 4, height: 2, pixels: Self.pixels, file: path)

        #expect {
            _ = try Mutation.post(text: "", attachments: [.photo(photo)]).request(
                clientToken: "t", bearerToken: nil)
        } throws: { error in
            guard let error = error as? TransportError else { return false }
            return error.disposition == .permanent
                && error.detail
                    == "the photo file '\(path)' this change uploads cannot be read (no such file): discard the "
                    + "change and attach the photo again"
        }
    }
}
