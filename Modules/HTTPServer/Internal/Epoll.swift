import CLinuxEvents
import Glibc

/// Linux's `epoll(7)` and `eventfd(2)` (imported through the CLinuxEvents module map: the Glibc
/// module does not import `sys/epoll.h` or `sys/eventfd.h`).
///
/// The event loop watches each descriptor once (`add`), changes what it waits for only when that
/// changes (`modify`), and `wait` returns just the descriptors that are ready: O(ready) per
/// wait, where `poll(2)` costs O(open connections) in the kernel and in the loop each time.
struct Epoll: ~Copyable {
    /// Readable (or the peer closed).
    static let readable = EPOLLIN.rawValue
    /// Writable.
    static let writable = EPOLLOUT.rawValue
    /// An error on the descriptor (always reported).
    static let error = EPOLLERR.rawValue
    /// Hung up (always reported).
    static let hangUp = EPOLLHUP.rawValue

    /// The epoll descriptor (-1 once closed).
    private(set) var fd: Int32
    /// Room for `capacity` events, filled by `wait`.
    private let events: UnsafeMutablePointer<epoll_event>
    let capacity: Int

    /// Makes an epoll instance (close-on-exec) that returns at most `capacity` events a wait;
    /// nil with `errno` set when it cannot.
    init?(capacity: Int = 256) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.capacity = capacity
        events = .allocate(capacity: capacity)
    }

    deinit {
        events.deallocate()
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Closes the descriptor now (the loop's end), not when the last reference goes: a stopped
    /// server whose object lives on holds no descriptor.
    mutating func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// A non-blocking, close-on-exec `eventfd` counter (-1 with `errno` set on failure).
    static func makeEventFD() -> Int32 {
        eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
    }

    /// Starts watching `descriptor` for `events`, reporting `token` when it is ready.
    @discardableResult
    func add(_ descriptor: Int32, events: UInt32, token: UInt64) -> Bool {
        control(EPOLL_CTL_ADD, descriptor, events: events, token: token)
    }

    /// Changes what `descriptor` is watched for.
    @discardableResult
    func modify(_ descriptor: Int32, events: UInt32, token: UInt64) -> Bool {
        control(EPOLL_CTL_MOD, descriptor, events: events, token: token)
    }

    /// Stops watching `descriptor` (closing it does too).
    @discardableResult
    func remove(_ descriptor: Int32) -> Bool { control(EPOLL_CTL_DEL, descriptor, events: 0, token: 0) }

    private func control(_ operation: Int32, _ descriptor: Int32, events: UInt32, token: UInt64) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        return epoll_ctl(fd, operation, descriptor, &event) == 0
    }

    /// Waits up to `milliseconds` for ready descriptors; returns how many events `event(at:)`
    /// can read (0 on a timeout or an interrupted wait).
    func wait(milliseconds: Int32) -> Int {
        max(0, Int(epoll_wait(fd, events, Int32(capacity), milliseconds)))
    }

    /// The `index`th event of the last wait: what happened, and the token it was watched with.
    func event(at index: Int) -> (events: UInt32, token: UInt64) {
        #if DEBUG
            precondition(index >= 0 && index < capacity, "epoll event \(index) is outside 0..<\(capacity)")
        #endif
        let event = events[index]
        return (event.events, event.data.u64)
    }
}
