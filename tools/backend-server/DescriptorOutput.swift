import CommandLineKit

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output and standard error written with `write(2)`, whatever reads them.
///
/// Foundation's `FileHandle.write` stops the process when a write fails, and a write fails with
/// `EPIPE` as soon as the program reading the output has gone (`backend-server | head -1`, or
/// `| tee` after Ctrl-C, which reaches tee too). Here a failed write is simply lost: the server
/// keeps serving when nobody reads what it prints. (SIGPIPE must be ignored, which `main` does
/// first.)
struct DescriptorOutput: TextOutput {
    /// Writes `text` to standard output; a failure loses the text.
    func write(_ text: String) { Self.write(text, to: 1) }

    /// Writes `text` to standard error; a failure loses the text.
    func writeError(_ text: String) { Self.write(text, to: 2) }

    /// Writes all of `text` to `descriptor`, retrying short and interrupted writes, until done
    /// or a write fails.
    static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress.map { $0 + sent }, bytes.count - sent)
            }
            if count > 0 {
                sent += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
