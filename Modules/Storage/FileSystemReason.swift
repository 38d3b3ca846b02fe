import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a file or directory could not be made or used, in words a person understands (`'/etc/passwd'
/// is a file, not a directory`, `permission denied: you cannot write in '/var/lib'`, `no space
/// left on the device`), read from the POSIX error beneath Foundation's. On Linux Foundation's own
/// description is often only `The operation could not be completed. (NSCocoaErrorDomain error
/// 512.)`, which says nothing a person can act on.
///
/// ```swift
/// do {
///     try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
/// } catch {
///     throw MyError("cannot create '\(path)': \(FileSystemReason.describe(error, at: path)); ...")
/// }
/// ```
public enum FileSystemReason {
    /// Why `error`, thrown while making or using `path`, happened, in words.
    public static func describe(_ error: any Error, at path: String) -> String {
        guard let code = posixCode(of: error) else {
            return "the system refused without saying why"
        }
        return describe(posixCode: code, at: path)
    }

    /// Why a POSIX error `code` (`ENOTDIR`, `EACCES`, …) happened at `path`, in words.
    public static func describe(posixCode code: Int32, at path: String) -> String {
        switch code {
        case ENOTDIR, EEXIST:
            if let file = firstNonDirectory(in: path) { return "'\(file)' is a file, not a directory" }
            return code == ENOTDIR
                ? "a part of the path is not a directory"
                : "something that is not a directory is already there"
        case EACCES, EPERM:
            if let parent = deepestExisting(path) {
                return "permission denied: you cannot write in '\(parent)'"
            }
            return "permission denied"
        case ENOSPC: return "no space left on the device"
        case EDQUOT: return "your disk quota is used up"
        case EROFS: return "the file system is read-only"
        case ENOENT: return "a part of the path does not exist"
        case ENAMETOOLONG: return "the path is too long"
        case ELOOP: return "the path has a loop of symbolic links"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    /// The POSIX error code beneath `error` (a `POSIXError`, an `NSPOSIXErrorDomain` error, or a
    /// Cocoa file error and the error underlying it), if there is one.
    static func posixCode(of error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let bridged = error as NSError
        if bridged.domain == NSPOSIXErrorDomain { return Int32(bridged.code) }
        if let underlying = bridged.userInfo[NSUnderlyingErrorKey] as? any Error,
            let code = posixCode(of: underlying)
        {
            return code
        }
        guard bridged.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: bridged.code) {
        case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileWriteFileExists: return EEXIST
        default: return nil
        }
    }

    /// The first path on the way to `path` (`path` included) that exists and is not a directory.
    static func firstNonDirectory(in path: String) -> String? {
        for prefix in prefixes(of: path) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: prefix, isDirectory: &isDirectory) else {
                return nil
            }
            if !isDirectory.boolValue { return prefix }
        }
        return nil
    }

    /// The longest path on the way to `path` (`path` included) that exists.
    static func deepestExisting(_ path: String) -> String? {
        prefixes(of: path).last { FileManager.default.fileExists(atPath: $0) }
    }

    /// `/a`, `/a/b`, `/a/b/c` for `/a/b/c` (relative paths likewise, without the leading `/`).
    private static func prefixes(of path: String) -> [String] {
        var current = path.hasPrefix("/") ? "/" : ""
        return path.split(separator: "/").map { component in
            current += (current.isEmpty || current == "/" ? "" : "/") + component
            return current
        }
    }
}
