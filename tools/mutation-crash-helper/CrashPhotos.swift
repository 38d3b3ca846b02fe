import Foundation
import Imaging
import MediaModel

/// Durable copies of one small JPEG, one per photo post, the way the app keeps a picked photo
/// until its post is confirmed.
struct CrashPhotos {
    let directory: String
    let jpeg: Data
    let raster: Raster

    init(directory: String) throws {
        self.directory = directory
        var rgb: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<48 { rgb += [UInt8(x * 5), UInt8(y * 7), 90] }
        }
        raster = try Raster(width: 48, height: 32, rgb: rgb)
        jpeg = Data(try ImageEncoder.jpeg(raster))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Writes and fsyncs a copy named `name`, and returns the photo that names it.
    func copy(named name: String) throws -> Attachment.Photo {
        let path = directory + "/" + name + ".jpg"
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw HelperError("cannot create the photo copy '\(path)'") }
        defer { try? handle.close() }
        try handle.write(contentsOf: jpeg)
        try handle.synchronize()
        return Attachment.Photo(
            width: raster.width, height: raster.height, pixels: raster.pixelImage(), file: path)
    }
}
