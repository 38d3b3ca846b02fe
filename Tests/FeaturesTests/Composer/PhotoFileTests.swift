import AppTesting
import Features
import Foundation
import Imaging
import MediaModel
import PhotoTesting
import Testing

@Suite struct PhotoFileTests {
    @Test func onePhoto_isAPhotoWithItsTrueSizeASmallRenditionAndItsAltText() throws {
        let folder = try TestPhotos.folder()
        let pier = try TestPhotos.write("pier.jpg", in: folder, width: 320, height: 200)

        let photo = try PhotoFile.inlinePhoto(
            PickedPhoto(path: pier, altText: "The pier"), background: .init(red: 0, green: 0, blue: 0))

        #expect(photo.width == 320 && photo.height == 200)
        #expect(photo.pixels.width == 64 && photo.pixels.height == 40)
        #expect(photo.altText == "The pier")
        // The top half is the top colour: the rendition is upright.
        #expect(photo.pixels.pixel(x: 32, y: 5).map { $0.red > 150 && $0.blue < 100 } == true)
    }

    @Test func aTransparentPNGsPreview_isDrawnOverTheThemesBackground() throws {
        // Given a PNG whose left half is transparent, and a theme's background
        let folder = try TestPhotos.folder()
        let path = try PhotoBytes.write(
            PhotoBytes.pngWithTransparency(width: 128, height: 64), named: "glass.png", in: folder)
        let background = PixelImage.Color(red: 28, green: 26, blue: 23)

        // When its preview is made
        let photo = try PhotoFile.inlinePhoto(PickedPhoto(path: path), background: background)

        // Then the transparent half shows the background, never the hidden color or black
        #expect(photo.pixels.pixel(x: 4, y: 16) == background)
        #expect(photo.pixels.pixel(x: 60, y: 16) == PixelImage.Color(red: 255, green: 0, blue: 0))
    }

    @Test func aTallPNG_keepsItsShapeInItsRendition() throws {
        let folder = try TestPhotos.folder()
        let tall = try TestPhotos.write("tall.png", in: folder, width: 40, height: 120)

        let photo = try PhotoFile.inlinePhoto(
            PickedPhoto(path: tall), background: .init(red: 0, green: 0, blue: 0))

        #expect(photo.width == 40 && photo.height == 120)
        #expect(photo.pixels.width == 21 && photo.pixels.height == 64)
        #expect(photo.altText == nil)
    }

    @Test func aFileThatIsNotAPhoto_aCutFileAndAMissingFile_sayWhich() throws {
        let folder = try TestPhotos.folder()
        let text = try TestPhotos.writeText("hello", as: "notes.jpg", in: folder)
        let whole = try Data(
            contentsOf: URL(
                fileURLWithPath: try TestPhotos.write("whole.jpg", in: folder, width: 320, height: 240)))
        let cut = folder + "/cut.jpg"
        try whole.prefix(whole.count - 40).write(to: URL(fileURLWithPath: cut))

        #expect(
            throws: PhotoFileError(path: text, reason: "not a JPEG or PNG file (it starts with 68 65 6C 6C)")
        ) {
            try PhotoFile.check(text)
        }
        #expect(throws: PhotoFileError(path: folder + "/gone.jpg", reason: "the file is gone")) {
            try PhotoFile.check(folder + "/gone.jpg")
        }
        #expect(throws: PhotoFileError(path: folder, reason: "it is a folder")) {
            try PhotoFile.check(folder)
        }
        // The header of a cut file is whole: only decoding finds the cut.
        #expect(try PhotoFile.check(cut).width == 320)
        let error = try #require(throws: PhotoFileError.self) {
            try PhotoFile.inlinePhoto(PickedPhoto(path: cut), background: .init(red: 0, green: 0, blue: 0))
        }
        #expect(error.path == cut)
        #expect(error.description.hasPrefix("cannot attach '\(cut)': "))
    }
}
