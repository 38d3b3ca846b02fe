import Foundation
import Imaging
import MediaModel

/// A photo file on disk as the composer uses it: checked when it is picked and drawn as a
/// preview (a small rendition with the photo's true size and its alt text).
package enum PhotoFile {
    /// The largest file read: bigger files are refused before they are read. It is the server's
    /// own limit (`PostLimits.photoBytes`), so the picker refuses what posting would.
    package static let maximumBytes = PostLimits.photoBytes

    /// Why a file of `bytes` is too big, in a person's words: `it is 12.4 MB and a photo may be
    /// at most 10 MB`. Where the two sizes would read the same in tenths of a megabyte (a file a
    /// few bytes over), both are given in bytes.
    package static func tooBig(_ bytes: Int) -> String {
        let size = megabytes(bytes)
        let limit = megabytes(maximumBytes)
        guard size == limit else { return "it is \(size) and a photo may be at most \(limit)" }
        return "it is \(bytes) bytes and a photo may be at most \(maximumBytes) bytes"
    }

    /// A size for people, in mebibytes to a tenth: "12.4 MB".
    package static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 20) / 2) / (1 << 20)
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }

    /// The file's bytes, or why they cannot be read.
    static func bytes(at path: String) throws(PhotoFileError) -> [UInt8] {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PhotoFileError(path: path, reason: "the file is gone")
        }
        guard !isDirectory.boolValue else { throw PhotoFileError(path: path, reason: "it is a folder") }
        let size = (try? files.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumBytes else {
            throw PhotoFileError(path: path, reason: tooBig(size))
        }
        guard let data = files.contents(atPath: path) else {
            throw PhotoFileError(path: path, reason: "permission denied: you may not read it")
        }
        return [UInt8](data)
    }

    /// Checks that `path` is a JPEG or PNG file within the decoder's limits, from its header
    /// alone (cheap enough for a key press), and returns what the header says.
    package static func check(_ path: String) throws(PhotoFileError) -> ImageInfo {
        let bytes = try bytes(at: path)
        do {
            let info = try ImageDecoder().info(bytes)
            try ImageLimits.standard.check(width: info.width, height: info.height)
            return info
        } catch {
            throw PhotoFileError(path: path, reason: error.message)
        }
    }

    /// The photo as a post carries it inline: its upright width and height, a rendition of at
    /// most `PixelImage.maxSide` pixels a side (decoded with DCT scaling, never at full size for
    /// a JPEG), and the alt text. A PNG's transparent parts are drawn over `background` (the
    /// theme's).
    package static func inlinePhoto(_ picked: PickedPhoto, background: PixelImage.Color)
        throws(PhotoFileError)
        -> Attachment.Photo
    {
        let bytes = try bytes(at: picked.path)
        do {
            let decoder = ImageDecoder(background: background)
            let info = try decoder.info(bytes)
            // The smallest DCT scale at least the rendition's size, then a filtered scale to it.
            let side = Double(PixelImage.maxSide)
            let scale = min(1, side / Double(max(info.width, info.height)))
            let raster = try decoder.decode(
                bytes, minimumWidth: max(1, Int((Double(info.width) * scale).rounded())),
                minimumHeight: max(1, Int((Double(info.height) * scale).rounded())))
            return Attachment.Photo(
                width: info.width, height: info.height, pixels: raster.pixelImage(), altText: picked.altText)
        } catch {
            throw PhotoFileError(path: picked.path, reason: error.message)
        }
    }
}

/// A photo file that cannot be attached: the file and why.
package struct PhotoFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// Why, in words ("not a JPEG or PNG file (it starts with 68 65 6C 6C)").
    package var reason: String

    /// Makes an error.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The file's name, for messages on a narrow screen.
    package var name: String { (path as NSString).lastPathComponent }

    package var description: String { "cannot attach '\(path)': \(reason)" }
}
