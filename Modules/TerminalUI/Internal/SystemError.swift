import Glibc

/// Text for `errno` values.
enum SystemError {
    /// The system's description of `code`, e.g. "Inappropriate ioctl for device".
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "unknown error" }
        return String(cString: text)
    }
}
