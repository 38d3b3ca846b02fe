import Foundation
import Imaging
import MediaModel

/// The app's durable copies of photo files picked from disk, in `<data-dir>/uploads`: what a
/// post's journaled change points at until the server has the photos.
///
/// At submit, each picked file is read, checked (at most ``maximumBytes``, a JPEG or PNG that
/// decodes within Imaging's limits) and given its small rendition (Imaging's thumbnail path,
/// at most 64 pixels a side) and real size, and all together must fit one post's body
/// (``maximumPostPhotoBytes`` as sent); then all are copied and fsynced (file and folder)
/// before the change is journaled. A refusal copies nothing. A copy is deleted by
/// ``sweep(keeping:)`` once no change waiting in the journal (pending, failed or held) names it:
/// after its change is confirmed or discarded, and at launch for a copy whose change never got
/// journaled (a kill between the copy and the journal's commit).
@MainActor
final class PhotoCopies {
    /// The largest photo file accepted, in bytes: the backend's own limit
    /// (`PostLimits.photoBytes`), so the server never refuses for size what the app let through.
    static let maximumBytes = PhotoFile.maximumBytes
    /// The most a post's photos may come to as sent (base64 in the post's JSON body): the
    /// backend reads at most 40 MiB for a post, and this leaves 64 KiB of it for the text and the
    /// rest of the JSON. Checked at submit, so a post the server would refuse as too large is
    /// never journaled.
    static let maximumPostPhotoBytes = (40 << 20) - (64 << 10)

    /// The folder of the copies.
    let directory: String
    /// Copies made for a change not journaled yet: a sweep keeps them.
    private var unjournaled: Set<String> = []

    /// What a PNG's transparent parts are drawn over in the renditions: the theme's background.
    let background: PixelImage.Color

    init(directory: String, background: PixelImage.Color) {
        self.directory = directory
        self.background = background
    }

    /// Checks the picked files and makes their copies, in picking order: one photo attachment
    /// each, carrying its copy as ``MediaModel/Attachment/Photo/file`` and its alt text.
    ///
    /// - Throws: ``PhotoRefusal`` naming the first file refused; no copy is left behind.
    func copy(_ files: [PickedPhoto]) throws(PhotoRefusal) -> [Attachment.Photo] {
        var checked: [(photo: Attachment.Photo, bytes: [UInt8], format: ImageFormat)] = []
        for picked in files {
            let (bytes, photo, format) = try Self.check(picked, background: background)
            checked.append((photo, bytes, format))
        }
        let sent = checked.reduce(0) { $0 + 4 * (($1.bytes.count + 2) / 3) }
        guard sent <= Self.maximumPostPhotoBytes else {
            throw PhotoRefusal(
                "cannot post these \(checked.count) photos together: they come to \(PhotoFile.megabytes(sent)) as sent "
                    + "and a post carries at most \(PhotoFile.megabytes(Self.maximumPostPhotoBytes)); post fewer at a time"
            )
        }
        var made: [Attachment.Photo] = []
        for item in checked {
            let path =
                directory + "/" + UUID().uuidString.lowercased() + (item.format == .png ? ".png" : ".jpg")
            do {
                try Self.writeDurably(item.bytes, to: path, in: directory)
            } catch {
                discardUnjournaled(made.compactMap(\.file))
                throw PhotoRefusal("cannot keep a copy of the photo in '\(directory)': \(error)")
            }
            unjournaled.insert(path)
            var photo = item.photo
            photo.file = path
            made.append(photo)
        }
        return made
    }

    /// The copies' change is journaled (or could not be): a sweep may now judge them by the
    /// journal alone.
    func settle(_ paths: [String]) {
        unjournaled.subtract(paths)
    }

    /// Deletes copies made for a change that was never journaled.
    func discardUnjournaled(_ paths: [String]) {
        settle(paths)
        for path in paths { Self.remove(path) }
    }

    /// Deletes every copy in the folder that `referenced` (the files of the changes still in the
    /// journal) does not name, except copies whose change is being journaled.
    func sweep(keeping referenced: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names {
            let path = directory + "/" + name
            if !referenced.contains(path) && !unjournaled.contains(path) { Self.remove(path) }
        }
    }

    /// Reads and checks one picked file.
    private static func check(_ picked: PickedPhoto, background: PixelImage.Color) throws(PhotoRefusal) -> (
        [UInt8], Attachment.Photo, ImageFormat
    ) {
        let name = (picked.path as NSString).lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: picked.path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        else {
            throw PhotoRefusal("cannot attach '\(name)': there is no file at '\(picked.path)'")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: picked.path))?[.size] as? Int,
            size > maximumBytes
        {
            throw PhotoRefusal("cannot attach '\(name)': \(PhotoFile.tooBig(size))")
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: picked.path)))
        } catch {
            throw PhotoRefusal("cannot attach '\(name)': it cannot be read (\(error))")
        }
        guard bytes.count <= maximumBytes else {
            throw PhotoRefusal("cannot attach '\(name)': \(PhotoFile.tooBig(bytes.count))")
        }
        let decoder = ImageDecoder(background: background)
        do {
            let info = try decoder.info(bytes)
            let pixels = try decoder.thumbnail(bytes, width: min(info.width, PixelImage.maxSide)).pixelImage()
            let photo = Attachment.Photo(
                width: info.width, height: info.height, pixels: pixels, altText: picked.altText)
            return (bytes, photo, info.format)
        } catch {
            throw PhotoRefusal("cannot attach '\(name)': \(error.message)")
        }
    }

    /// Writes `bytes` to a new file at `path` and fsyncs it and its folder, so the copy survives
    /// a power cut once this returns.
    private static func writeDurably(_ bytes: [UInt8], to path: String, in directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + written, buffer.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = POSIXErrorCode(rawValue: errno) ?? .EIO
                remove(path)
                throw POSIXError(code)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            remove(path)
            throw POSIXError(code)
        }
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Deletes a copy. A copy that cannot be deleted stays until the next sweep.
    private static func remove(_ path: String) {
        unlink(path)
    }
}

/// Why picked photos cannot go with a post, in a person's words.
struct PhotoRefusal: Error, CustomStringConvertible {
    /// What is wrong, naming the file.
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
