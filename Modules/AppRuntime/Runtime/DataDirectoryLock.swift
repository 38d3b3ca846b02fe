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
/// The hold is a POSIX record lock (`fcntl(F_SETLK)`) on `app.lock` in the directory. Such a lock
/// belongs to the process, so the system lets go when the process ends, however it ends, and a
/// child the process forks never holds it. (A `flock` belonged to the open file, which a forked
/// child shares until it execs: a test that spawned processes kept a stopped session's directory
/// locked for a moment, and the next session on it was refused.) Within one process, a table of
/// the directories held makes a second session conflict with the first. The holder writes its
/// process id into the file, so a second instance can say who holds it.
///
/// ```swift
/// let lock = try DataDirectoryLock.acquire(directory: "/home/ada/.local/share/loom/notes", app: "notes")
/// defer { lock.release() }
/// ```
package final class DataDirectoryLock: Sendable {
    /// The lock file's name in the data directory.
    package static let fileName = "app.lock"

    /// The lock files this process holds: a second session in the same process is refused
    /// through this table (a process's own record locks never conflict with each other).
    private static let held = Mutex<Set<String>>([])

    /// The lock file.
    package let path: String
    private let descriptor: Mutex<Int32>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    /// Takes the hold on `directory` for `app`, or says who has it.
    package static func acquire(directory: String, app: String) throws(DataDirectoryLockError)
        -> DataDirectoryLock
    {
        let path = directory + "/" + fileName
        guard held.withLock({ $0.insert(path).inserted }) else {
            throw DataDirectoryLockError(app: app, directory: directory, holder: getpid(), problem: nil)
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let problem = String(cString: strerror(errno))
            _ = held.withLock { $0.remove(path) }
            throw DataDirectoryLockError(app: app, directory: directory, holder: nil, problem: problem)
        }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, F_SETLK, &lock) == 0 else {
            let failure = errno
            let busy = failure == EAGAIN || failure == EACCES
            let holder = busy ? Self.holder(descriptor) : nil
            close(descriptor)
            _ = held.withLock { $0.remove(path) }
            throw DataDirectoryLockError(
                app: app, directory: directory, holder: holder,
                problem: busy ? nil : String(cString: strerror(failure)))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return DataDirectoryLock(path: path, descriptor: descriptor)
    }

    /// The process id the holder wrote, if it is readable.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Lets go of the directory (closing the file ends the record lock); calling it again does
    /// nothing.
    package func release() {
        let released = descriptor.withLock { descriptor -> Bool in
            guard descriptor >= 0 else { return false }
            close(descriptor)
            descriptor = -1
            return true
        }
        if released { _ = Self.held.withLock { $0.remove(path) } }
    }

    deinit { release() }
}

/// A data directory another session holds, or whose lock file cannot be opened.
package struct DataDirectoryLockError: Error, Sendable, CustomStringConvertible {
    /// The app asking (its id, such as `notes`).
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
