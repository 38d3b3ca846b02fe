import Foundation

/// One directory as the photo picker lists it: its folders first, then its photo files (`.jpg`,
/// `.jpeg`, `.png`, in any case), each group in name order ignoring case; hidden entries (a name
/// starting with `.`) and every other file left out.
///
/// ```swift
/// let listing = try DirectoryListing.read("/home/ada/Pictures")
/// listing.entries.map(\.name)  // ["2024", "trips", "IMG_0001.JPG", "pier.png"]
/// ```
package struct DirectoryListing: Sendable, Equatable {
    /// One entry: a folder to open or a photo file to pick.
    package struct Entry: Sendable, Hashable {
        /// What an entry is.
        package enum Kind: Sendable, Hashable {
            /// A directory (or a link to one).
            case directory
            /// A file whose name says JPEG or PNG (its bytes are checked when it is picked).
            case image
        }

        /// The name inside the directory.
        package var name: String
        /// A folder or a photo.
        package var kind: Kind
    }

    /// The directory's absolute path, standardized (no `.`, `..` or trailing `/`).
    package var path: String
    /// Folders, then photo files.
    package var entries: [Entry]

    /// The number of folders listed.
    package var directoryCount: Int { entries.count { $0.kind == .directory } }
    /// The number of photo files listed.
    package var imageCount: Int { entries.count { $0.kind == .image } }

    /// The file name endings the picker lists, lowercased.
    package static let imageExtensions: Set<String> = ["jpg", "jpeg", "png"]

    /// Whether a file named `name` is listed as a photo: its extension is one of
    /// ``imageExtensions``, in any case.
    package static func isImageName(_ name: String) -> Bool {
        imageExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// Reads the directory at `path` (absolute). O(n log n) in its entries.
    ///
    /// - Throws: ``DirectoryListingError`` naming the directory and why it cannot be listed: it
    ///   does not exist, it is a file, or it may not be read.
    package static func read(_ path: String) throws(DirectoryListingError) -> DirectoryListing {
        let path = standardized(path)
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DirectoryListingError(path: path, reason: "it does not exist")
        }
        guard isDirectory.boolValue else {
            throw DirectoryListingError(path: path, reason: "it is a file, not a folder")
        }
        let names: [String]
        do {
            names = try files.contentsOfDirectory(atPath: path)
        } catch {
            let reason =
                files.isReadableFile(atPath: path)
                ? "the system refused to list it" : "permission denied: you may not read it"
            throw DirectoryListingError(path: path, reason: reason)
        }
        var directories: [Entry] = []
        var images: [Entry] = []
        for name in names where !name.hasPrefix(".") {
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: join(path, name), isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                directories.append(Entry(name: name, kind: .directory))
            } else if isImageName(name) {
                images.append(Entry(name: name, kind: .image))
            }
        }
        return DirectoryListing(path: path, entries: sorted(directories) + sorted(images))
    }

    /// Names in order ignoring case; names equal but for case in code point order.
    private static func sorted(_ entries: [Entry]) -> [Entry] {
        entries.sorted {
            let (left, right) = ($0.name.lowercased(), $1.name.lowercased())
            return left == right ? $0.name < $1.name : left < right
        }
    }

    /// `name` inside `directory`.
    package static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// `path` without `.` and `..` parts, repeated or trailing slashes (`/` stays `/`).
    package static func standardized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The directory above `path`, or nil at the root.
    package static func parent(of path: String) -> String? {
        let path = standardized(path)
        guard path != "/" else { return nil }
        return standardized(path + "/..")
    }
}

/// A directory the picker cannot list, and why.
package struct DirectoryListingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory.
    package var path: String
    /// Why it cannot be listed, in words.
    package var reason: String

    /// Makes an error.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "cannot open '\(path)': \(reason)" }
}
