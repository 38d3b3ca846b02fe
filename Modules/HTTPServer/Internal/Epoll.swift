import Glibc

/// Linux's `epoll(7)` and `eventfd(2)`, which the Glibc module does not import (`sys/epoll.h`
/// and `sys/eventfd.h` are not in its module map): the calls are looked up once in the C
/// library, and `struct epoll_event` is read and written as bytes, in the kernel's layout.
///
/// The event loop watches each descriptor once (`add`), changes what it waits for only when that
/// changes (`modify`), and `wait` returns just the descriptors that are ready: O(ready) per
/// wait, where `poll(2)` costs O(open connections) in the kernel and in the loop each time.
struct Epoll: ~Copyable {
    /// Readable (or the peer closed).
    static let readable: UInt32 = 0x001
    /// Writable.
    static let writable: UInt32 = 0x004
    /// An error on the descriptor (always reported).
    static let error: UInt32 = 0x008
    /// Hung up (always reported).
    static let hangUp: UInt32 = 0x010

    /// `struct epoll_event` is packed on x86-64 (a 32-bit mask, then 64 bits of data at offset
    /// 4); elsewhere the data is aligned to 8.
    #if arch(x86_64)
        static let eventSize = 12
        static let dataOffset = 4
    #else
        static let eventSize = 16
        static let dataOffset = 8
    #endif

    private typealias Create = @convention(c) (Int32) -> Int32
    private typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    private typealias MakeEventFD = @convention(c) (UInt32, Int32) -> Int32

    private struct Calls {
        let create: Create
        let control: Control
        let wait: Wait
        let eventFD: MakeEventFD
    }

    /// The C library's functions, or nil when one is missing (not Linux's C library).
    private static let calls: Calls? = {
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
        }
        guard let create = symbol("epoll_create1", as: Create.self),
            let control = symbol("epoll_ctl", as: Control.self),
            let wait = symbol("epoll_wait", as: Wait.self),
            let eventFD = symbol("eventfd", as: MakeEventFD.self)
        else { return nil }
        return Calls(create: create, control: control, wait: wait, eventFD: eventFD)
    }()

    /// The epoll descriptor.
    let fd: Int32
    private let calls: Calls
    /// Room for `capacity` events, filled by `wait`.
    private let events: UnsafeMutableRawPointer
    let capacity: Int

    /// Makes an epoll instance (close-on-exec) that returns at most `capacity` events a wait;
    /// nil with `errno` set when it cannot.
    init?(capacity: Int = 256) {
        guard let calls = Self.calls else {
            errno = ENOSYS
            return nil
        }
        let fd = calls.create(Int32(O_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.calls = calls
        self.capacity = capacity
        events = UnsafeMutableRawPointer.allocate(byteCount: capacity * Self.eventSize, alignment: 8)
    }

    deinit {
        events.deallocate()
        Glibc.close(fd)
    }

    /// A non-blocking, close-on-exec `eventfd` counter (-1 with `errno` set on failure).
    static func makeEventFD() -> Int32 {
        guard let calls else {
            errno = ENOSYS
            return -1
        }
        return calls.eventFD(0, Int32(O_NONBLOCK | O_CLOEXEC))
    }

    /// Starts watching `descriptor` for `events`, reporting `token` when it is ready.
    @discardableResult
    func add(_ descriptor: Int32, events: UInt32, token: UInt64) -> Bool {
        control(1, descriptor, events: events, token: token)
    }

    /// Changes what `descriptor` is watched for.
    @discardableResult
    func modify(_ descriptor: Int32, events: UInt32, token: UInt64) -> Bool {
        control(3, descriptor, events: events, token: token)
    }

    /// Stops watching `descriptor` (closing it does too).
    @discardableResult
    func remove(_ descriptor: Int32) -> Bool { control(2, descriptor, events: 0, token: 0) }

    private func control(_ operation: Int32, _ descriptor: Int32, events: UInt32, token: UInt64) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: Self.eventSize, alignment: 8) { event in
            event.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            event.storeBytes(of: token, toByteOffset: Self.dataOffset, as: UInt64.self)
            return calls.control(fd, operation, descriptor, event.baseAddress) == 0
        }
    }

    /// Waits up to `milliseconds` for ready descriptors; returns how many events `event(at:)`
    /// can read (0 on a timeout or an interrupted wait).
    func wait(milliseconds: Int32) -> Int {
        let count = calls.wait(fd, events, Int32(capacity), milliseconds)
        return max(0, Int(count))
    }

    /// The `index`th event of the last wait: what happened, and the token it was watched with.
    func event(at index: Int) -> (events: UInt32, token: UInt64) {
        #if DEBUG
            precondition(index >= 0 && index < capacity, "epoll event \(index) is outside 0..<\(capacity)")
        #endif
        let base = events + index * Self.eventSize
        return (
            base.loadUnaligned(fromByteOffset: 0, as: UInt32.self),
            base.loadUnaligned(fromByteOffset: Self.dataOffset, as: UInt64.self)
        )
    }
}
