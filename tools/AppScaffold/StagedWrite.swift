import Foundation
import Glibc

/// Writes a new app all at once or not at all: everything is written into a staging folder inside
/// the package root first (the same disk, so moving is a rename), then moved into place, the app's
/// folder first and Package.swift last. When a step fails, the steps before it are undone, so the
/// package is left as it was.
struct StagedWrite {
    /// Moves `source` to `destination`; `replacing` says whether a file there is replaced (only
    /// Package.swift's is). Tests swap it to fail a step.
    typealias Move = (_ source: String, _ destination: String, _ replacing: Bool) throws -> Void

    /// The package root.
    let root: String
    /// How a staged item is moved into place.
    var move: Move = StagedWrite.rename

    /// Writes `folders` and `files` (paths relative to the root, all new) and replaces
    /// Package.swift's text with `packageText`.
    ///
    /// - Throws: a refusal saying which step failed; nothing is left written, unless undoing
    ///   failed too, which the refusal then says, naming what to remove.
    func write(folders: [String], files: [ScaffoldFile], packageText: String) throws(ScaffoldRefusal) {
        let staging = "\(root)/.new-app-staging-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: staging) }  // Only ever a scratch copy.
        do {
            for folder in folders {
                try FileManager.default.createDirectory(
                    atPath: "\(staging)/\(folder)", withIntermediateDirectories: true)
            }
            for file in files {
                let path = "\(staging)/\(file.path)"
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.contents).write(to: URL(fileURLWithPath: path))
                if let permissions = file.permissions {
                    try FileManager.default.setAttributes(
                        [.posixPermissions: permissions], ofItemAtPath: path)
                }
            }
            try Data(packageText.utf8).write(to: URL(fileURLWithPath: "\(staging)/Package.swift"))
        } catch {
            throw ScaffoldRefusal("cannot write the new app into \(staging): \(error.localizedDescription)")
        }
        // The top of what is new: folders and files whose parent is not new.
        let new = Set(folders)
        let tops =
            folders.filter { !new.contains(Self.parent($0)) }
            + files.map(\.path).filter { !new.contains(Self.parent($0)) }
        var moved: [String] = []
        do {
            for top in tops {
                try move("\(staging)/\(top)", "\(root)/\(top)", false)
                moved.append(top)
            }
            try move("\(staging)/Package.swift", "\(root)/Package.swift", true)
        } catch {
            let reason = error is CocoaError ? error.localizedDescription : "\(error)"
            var message = "cannot move the new app into place: \(reason)"
            var left: [String] = []
            for path in moved.reversed() {
                do { try FileManager.default.removeItem(atPath: "\(root)/\(path)") } catch {
                    left.append(path)
                }
            }
            message +=
                left.isEmpty
                ? "; nothing was written"
                : "; could not remove \(left.joined(separator: ", ")): remove by hand"
            throw ScaffoldRefusal(message)
        }
    }

    /// Renames `source` to `destination` (same disk); refuses to replace an existing item unless
    /// `replacing`.
    static func rename(_ source: String, _ destination: String, _ replacing: Bool) throws(ScaffoldRefusal) {
        if !replacing, FileManager.default.fileExists(atPath: destination) {
            throw ScaffoldRefusal("\(destination) already exists")
        }
        guard Glibc.rename(source, destination) == 0 else {
            throw ScaffoldRefusal(
                "cannot rename \(source) to \(destination): \(String(cString: strerror(errno)))")
        }
    }

    private static func parent(_ path: String) -> String {
        (path as NSString).deletingLastPathComponent
    }
}
