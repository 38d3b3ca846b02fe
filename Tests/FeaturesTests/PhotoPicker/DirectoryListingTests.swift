import AppTesting
import Features
import Foundation
import Testing

@Suite struct DirectoryListingTests {
    /// A folder holding folders, photos in every case of extension, hidden entries and files
    /// that are not photos.
    static func mixedFolder() throws -> String {
        let folder = try TestPhotos.folder()
        for name in ["beta", "Alpha", ".hidden-folder", "zeta.jpg.d"] {
            try FileManager.default.createDirectory(
                atPath: folder + "/" + name, withIntermediateDirectories: false)
        }
        try TestPhotos.write("b.PNG", in: folder)
        try TestPhotos.write("a.jpg", in: folder)
        try TestPhotos.write("C.jpeg", in: folder)
        try TestPhotos.write(".secret.jpg", in: folder)
        try TestPhotos.writeText("hello", as: "notes.txt", in: folder)
        try TestPhotos.writeText("GIF89a", as: "x.gif", in: folder)
        try TestPhotos.writeText("", as: "jpg", in: folder)
        // A link to a folder is a folder; a link to a photo is a photo.
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/link-to-beta", withDestinationPath: "beta")
        try FileManager.default.createSymbolicLink(atPath: folder + "/d.JPG", withDestinationPath: "a.jpg")
        return folder
    }

    @Test func aFolder_listsFoldersFirstThenPhotos_eachInNameOrderIgnoringCase_andNothingElse() throws {
        let folder = try Self.mixedFolder()

        let listing = try DirectoryListing.read(folder)

        #expect(
            listing.entries.map(\.name) == [
                "Alpha", "beta", "link-to-beta", "zeta.jpg.d", "a.jpg", "b.PNG", "C.jpeg", "d.JPG",
            ])
        #expect(listing.entries.prefix(4).allSatisfy { $0.kind == .directory })
        #expect(listing.entries.dropFirst(4).allSatisfy { $0.kind == .image })
        #expect(listing.directoryCount == 4)
        #expect(listing.imageCount == 4)
        #expect(Set(listing.entries.map(\.name)).count == listing.entries.count, "nothing twice")
        #expect(listing.path == DirectoryListing.standardized(folder))
    }

    @Test func anEmptyFolder_listsNothing() throws {
        let listing = try DirectoryListing.read(try TestPhotos.folder())
        #expect(listing.entries.isEmpty)
        #expect(listing.directoryCount == 0 && listing.imageCount == 0)
    }

    @Test func aMissingFolderOrAFile_isRefusedWithTheReason() throws {
        let folder = try TestPhotos.folder()
        let photo = try TestPhotos.write("a.jpg", in: folder)
        #expect(throws: DirectoryListingError(path: folder + "/gone", reason: "it does not exist")) {
            try DirectoryListing.read(folder + "/gone")
        }
        #expect(throws: DirectoryListingError(path: photo, reason: "it is a file, not a folder")) {
            try DirectoryListing.read(photo)
        }
        #expect(
            DirectoryListingError(path: "/x", reason: "it does not exist").description
                == "cannot open '/x': it does not exist")
    }

    @Test(arguments: [
        ("/a/b/../c/./d/", "/a/c/d"), ("/", "/"), ("//a//b", "/a/b"), ("/..", "/"), ("/a/..", "/"),
    ])
    func paths_areStandardized(path: String, expected: String) {
        #expect(DirectoryListing.standardized(path) == expected)
    }

    @Test func theParentOfTheRoot_isNone() {
        #expect(DirectoryListing.parent(of: "/") == nil)
        #expect(DirectoryListing.parent(of: "/a") == "/")
        #expect(DirectoryListing.parent(of: "/a/b/") == "/a")
    }
}

@Suite struct PathCompletionTests {
    /// `harbor/`, `harbour-old/`, `hat.png`, `notes.txt` and a hidden `.hare.jpg`.
    static func folder() throws -> String {
        let folder = try TestPhotos.folder()
        for name in ["harbor", "harbour-old"] {
            try FileManager.default.createDirectory(
                atPath: folder + "/" + name, withIntermediateDirectories: false)
        }
        try TestPhotos.write("hat.png", in: folder)
        try TestPhotos.write(".hare.jpg", in: folder)
        try TestPhotos.writeText("x", as: "harness.txt", in: folder)
        try TestPhotos.write("pier.jpg", in: folder + "/harbor")
        return folder
    }

    @Test func severalMatches_completeToTheirCommonPrefix_andListThem() throws {
        let folder = try Self.folder()
        let result = PathCompletion.complete("h", in: folder, home: nil)
        #expect(result.text == "ha")
        #expect(result.matches == ["harbor", "harbour-old", "hat.png"])

        let further = PathCompletion.complete("har", in: folder, home: nil)
        #expect(further.text == "harbo")
        #expect(further.matches == ["harbor", "harbour-old"])
    }

    @Test func oneFolderMatch_completesWithItsSlash_andOnePhotoWithout() throws {
        let folder = try Self.folder()
        #expect(PathCompletion.complete("harbor", in: folder, home: nil).text == "harbor/")
        #expect(PathCompletion.complete("hat", in: folder, home: nil).text == "hat.png")
        #expect(PathCompletion.complete("harbor/p", in: folder, home: nil).text == "harbor/pier.jpg")
    }

    @Test func noMatch_leavesTheText_andHiddenAndOtherFilesNeverMatch() throws {
        let folder = try Self.folder()
        let none = PathCompletion.complete("harn", in: folder, home: nil)
        #expect(none.text == "harn")
        #expect(none.matches.isEmpty)
        #expect(PathCompletion.complete(".ha", in: folder, home: nil).matches.isEmpty)
    }

    @Test func absoluteAndHomePaths_completeInTheirOwnFolder() throws {
        let folder = try Self.folder()
        #expect(
            PathCompletion.complete(folder + "/harbor/", in: "/", home: nil).text == folder
                + "/harbor/pier.jpg")
        let home = (folder as NSString).deletingLastPathComponent
        let leaf = (folder as NSString).lastPathComponent
        #expect(PathCompletion.complete("~/\(leaf)/hat", in: "/", home: home).text == "~/\(leaf)/hat.png")
        #expect(PathCompletion.resolve("~/\(leaf)", in: "/", home: home) == folder)
        #expect(PathCompletion.resolve("../x", in: "/a/b", home: nil) == "/a/x")
    }

    @Test func aFolderThatCannotBeListed_saysWhy() throws {
        let folder = try Self.folder()
        let result = PathCompletion.complete("gone/x", in: folder, home: nil)
        #expect(result.text == "gone/x")
        #expect(result.problem == "cannot open '\(folder)/gone': it does not exist")
    }
}
