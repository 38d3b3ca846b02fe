import Foundation
import Storage
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive hold on an app's data directory for as long as one session runs on it, so two
/// app processes never share one journal (the second one's changes were refused: the journal's
/// next sequence lives in memory).
///
/// The hold is a `flock` on `app.lock` in the directory, which belongs to one open of the file:
/// a second session conflicts with the first even in the same process, and the system lets go
/// when the process ends, however it ends. The holder writes its process id into the file, so a
/// second instance can say who holds it.
///
/// ```swift
/// let lock = try DataDirectoryLock.acquire(directory: "/home/ada/.local/share/loom/strand", app: "strand")
/// defer { lock.release() }
/// ```
package final class DataDirectoryLock: Sendable {
    /// The lock file's name in the data directory.
    package static let fileName = "app.lock"

    /// The lock file.
    package let path: String
    /// The open lock file, or -1 once released.
    private let descriptor: Mutex<Int32>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    /// Takes the data directory `directory` for this session, or says who has it.
    ///
    /// - Throws: `DataDirectoryLockError` when another session holds it, or the lock file cannot
    ///   be opened.
    package static func acquire(directory: String, app: String) throws(DataDirectoryLockError)
        -> DataDirectoryLock
    {
        let path = directory + "/" + fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DataDirectoryLockError(
                app: app, directory: directory, holder: nil, problem: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            let holder = failure == EWOULDBLOCK ? Self.holder(descriptor) : nil
            close(descriptor)
            throw DataDirectoryLockError(
                app: app, directory: directory, holder: holder,
                problem: failure == EWOULDBLOCK ? nil : String(cString: strerror(failure)))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return DataDirectoryLock(path: path, descriptor: descriptor)
    }

    /// The process id written in the lock file by its holder, if readable.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Lets the directory go (the file stays; only the hold ends). Calling it again does nothing.
    package func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }
}

/// A data directory another session holds, or whose lock file cannot be opened.
package struct DataDirectoryLockError: Error, Sendable, CustomStringConvertible {
    /// The app asking (`strand`).
    package var app: String
    /// The data directory.
    package var directory: String
    /// The process holding the directory, when it said.
    package var holder: Int32?
    /// Why the lock file could not be used, when that is the trouble (nil: another holds it).
    package var problem: String?

    package var description: String {
        if let problem {
            return
                "cannot lock the data directory '\(directory)': \(problem); pass --data-dir with a directory "
                + "you can write to"
        }
        let who = holder.map { "another app (process \($0))" } ?? "another app"
        return
            "the data directory '\(directory)' is in use by \(who); quit that one first, or pass --data-dir "
            + "with another directory (two apps on one directory would refuse each other's changes)"
    }
}
