import Glibc

/// Small wrappers over the POSIX calls the server makes.
enum Posix {
    /// The monotonic clock in nanoseconds (never jumps with the wall clock).
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Names the calling thread (at most 15 bytes kept), so that `top -H`, `perf` and a debugger
    /// tell the server's threads apart from the process's others.
    static func nameThisThread(_ name: String) {
        _ = setThreadName?(pthread_self(), String(name.utf8.prefix(15)) ?? name)
    }

    /// glibc's `pthread_setname_np` (a GNU extension, not in the Glibc module), looked up once.
    private static let setThreadName: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)
    }()

    /// `strerror` of an error number: `"Address already in use"`.
    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Makes a descriptor non-blocking and close-on-exec; false when either call fails.
    @discardableResult
    static func makeNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
        return fcntl(fd, F_SETFD, FD_CLOEXEC) == 0
    }

    /// Sets an integer socket option, ignoring failure (the options used are optimisations).
    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Raises the soft limit on open descriptors to the hard limit (or as near as the kernel
    /// allows). Returns the soft limit in force afterwards.
    @discardableResult
    static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            // An unlimited hard limit is above what the kernel takes (`fs.nr_open`); try 2^20.
            if setrlimit(resource, &raised) != 0 && limit.rlim_cur < 1 << 20 {
                raised.rlim_cur = min(limit.rlim_max, 1 << 20)
                _ = setrlimit(resource, &raised)
            }
            _ = getrlimit(resource, &limit)
        }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// Whether bytes wait unread on a socket (without taking them, and without waiting).
    static func hasInputWaiting(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// The machine's physical memory in bytes (nil when it cannot be learnt).
    static func physicalMemory() -> Int? {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let size = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, size > 0 else { return nil }
        return pages.multipliedReportingOverflow(by: size).overflow ? Int.max : pages * size
    }

    /// glibc's `malloc_trim` (not in the Glibc module), looked up once; nil elsewhere.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// Hands the heap's free memory back to the system (`malloc_trim(0)`). Freed buffers of a
    /// megabyte or so stay in the process otherwise: glibc serves them from its heap once it has
    /// seen such buffers freed, and keeps what it frees there.
    static func returnFreeMemory() { _ = mallocTrim?(0) }

    private static func cString(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `"127.0.0.1:52344"` or `"[::1]:52344"` for a peer address.
    static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var ip = address.pointee.sin_addr
                    inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
                    return "\(cString(text)):\(UInt16(bigEndian: address.pointee.sin_port))"
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var ip = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count))
                    return "[\(cString(text))]:\(UInt16(bigEndian: address.pointee.sin6_port))"
                }
            }
        default:
            return "unknown"
        }
    }
}
