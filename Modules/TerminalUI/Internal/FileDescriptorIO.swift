import Glibc

/// Small, careful wrappers over file-descriptor calls.
enum FileDescriptorIO {
    /// Writes all of `bytes` to `fd`, retrying on EINTR/EAGAIN; gives up on other errors.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            var stalls = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                    stalls = 0
                } else if written < 0 && (errno == EINTR || errno == EAGAIN) && stalls < 1000 {
                    stalls += 1
                    if errno == EAGAIN { usleep(1000) }
                } else {
                    return
                }
            }
        }
    }

    /// The window size of the terminal on `fd`, or nil when it cannot be read (or is 0×0).
    static func windowSize(_ fd: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}
