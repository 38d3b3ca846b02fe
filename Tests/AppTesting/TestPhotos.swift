import AppRuntime
@_spi(Testing) import Backend
import Features
import Foundation
import Imaging
import MediaModel

/// Real photo files for tests: JPEG and PNG files encoded with Imaging into a folder of the
/// test's own, for the composer's picker and the `attach` script command.
///
/// ```swift
/// let folder = try TestPhotos.folder()
/// let pier = try TestPhotos.write("pier.jpg", in: folder)  // the file's absolute path
/// ```
package enum TestPhotos {
    /// A fresh empty folder in the test process's temporary root, which is removed when the
    /// process exits (and swept if it died).
    package static func folder() throws -> String {
        try BackendServer.makeTemporaryDirectory("photos")
    }

    /// A photo of `width` × `height` (the top half `top`, the bottom half `bottom`, so its art
    /// shows which way up it is), written as `name` in `folder`: a JPEG unless the name ends in
    /// `.png` (in any case). Returns the file's path.
    @discardableResult
    package static func write(
        _ name: String, in folder: String, width: Int = 96, height: Int = 64,
        top: PixelImage.Color = .init(red: 230, green: 120, blue: 30),
        bottom: PixelImage.Color = .init(red: 30, green: 90, blue: 200)
    ) throws -> String {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            let color = y < height / 2 ? top : bottom
            for _ in 0..<width { rgb += [color.red, color.green, color.blue] }
        }
        let raster = try Raster(width: width, height: height, rgb: rgb)
        let bytes =
            name.lowercased().hasSuffix(".png") ? try ImageEncoder.png(raster) : try ImageEncoder.jpeg(raster)
        let path = (folder as NSString).appendingPathComponent(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// One JPEG photo shared by the tests of this process that only need some photo to post
    /// (`sample.jpg`, 96 × 64), written on first use.
    package static func sample() throws -> String { try shared.get() }

    private static let shared = Result { try write("sample.jpg", in: folder()) }

    /// Attaches ``sample()`` to the composer `shell` shows, as picking it in the photo picker
    /// does.
    @MainActor
    package static func attachSample(in shell: AppShell?) throws {
        guard let composer = shell?.currentScreen as? ComposerScreen else {
            throw PhotoFileError(path: try sample(), reason: "the composer is not on screen")
        }
        try composer.attach(path: try sample())
    }

    /// Writes `contents` as `name` in `folder` (a file that is not an image, whatever its name).
    @discardableResult
    package static func writeText(_ contents: String, as name: String, in folder: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
