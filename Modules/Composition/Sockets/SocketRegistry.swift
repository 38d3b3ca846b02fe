/// The contracts an app runs with, one per socket: built once at launch by `AppHost`, immutable
/// after, and safe to read from any thread without locks.
///
/// ```swift
/// let branding = registry[.branding]
/// print(branding.appName)
/// ```
///
/// A lookup reads the socket's slot from a contiguous array and reinterprets the box without a
/// dynamic cast: O(1), a few nanoseconds (see `bench registry`). Tests can replace any socket
/// with `overriding(_:with:)`.
public struct SocketRegistry: Sendable {
    /// One box per slot (nil where the registry has no contract for that slot). Owns the boxes.
    let slots: [(any AnyObject & Sendable)?]
    /// The same boxes as unretained pointers, for lookups that need no reference counting.
    @usableFromInline let unretained: UnretainedBoxes
    /// The socket id of each filled slot, for messages.
    let ids: [Int: String]
    /// Which provider filled each socket id (absent for defaults; ``overrideProvider`` for a
    /// socket `overriding(_:with:)` filled).
    public let providers: [String: String]
    /// The provider id recorded for a socket `overriding(_:with:)` filled.
    public static let overrideProvider = "override"
    /// Whether `overriding(_:with:)` filled any socket: the provider ids then no longer say
    /// which code fills every socket.
    public var hasOverrides: Bool { providers.values.contains(Self.overrideProvider) }

    init(slots: [(any AnyObject & Sendable)?], ids: [Int: String], providers: [String: String]) {
        self.slots = slots
        self.unretained = UnretainedBoxes(
            pointers: slots.map { $0.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) } })
        self.ids = ids
        self.providers = providers
    }

    /// An empty registry: every lookup of an optional socket gives its default.
    public init() {
        self.init(slots: [], ids: [:], providers: [:])
    }

    /// The contract filling `socket`.
    ///
    /// A registry built by `AppHost` holds every socket of the app's catalog (validation
    /// guarantees each required socket is bound). Asking for an optional socket the registry
    /// does not hold gives its default; asking for a required socket it does not hold is a
    /// programming error (the socket is missing from the app's catalog) and stops the program
    /// with a message naming it.
    ///
    /// The lookup reads the box through an unretained pointer, so it counts no references
    /// beyond copying the contract out.
    @inlinable
    public subscript<Contract>(socket: Socket<Contract>) -> Contract {
        let slot = socket.slot
        let pointers = unretained.pointers
        if slot < pointers.count, let raw = pointers[slot] {
            #if DEBUG
                precondition(
                    Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() is SocketBox<Contract>,
                    "socket '\(socket.id)' holds a contract of another type")
            #endif
            return Unmanaged<SocketBox<Contract>>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.value }
        }
        return missing(socket)
    }

    /// Lends the contract filling `socket` to `body` without copying it: the fastest way to read
    /// a socket on a hot path (no reference counting at all).
    ///
    /// ```swift
    /// let pageSize = registry.with(.feedPolicy) { $0.pageSize }
    /// ```
    @inlinable
    public func with<Contract, Result>(
        _ socket: Socket<Contract>, _ body: (borrowing Contract) throws -> Result
    ) rethrows -> Result {
        let slot = socket.slot
        let pointers = unretained.pointers
        if slot < pointers.count, let raw = pointers[slot] {
            return try Unmanaged<SocketBox<Contract>>.fromOpaque(raw)._withUnsafeGuaranteedRef {
                try body($0.value)
            }
        }
        return try body(missing(socket))
    }

    @usableFromInline
    func missing<Contract>(_ socket: Socket<Contract>) -> Contract {
        if let value = socket.defaultContract() { return value }
        preconditionFailure(
            "required socket '\(socket.id)' is not in this registry; list it in the app's catalog and bind it in its manifest"
        )
    }

    /// Whether the registry holds a contract for `socket` (defaults count when it was built with
    /// them).
    public func contains<Contract>(_ socket: Socket<Contract>) -> Bool {
        socket.slot < slots.count && slots[socket.slot] != nil
    }

    /// A copy of this registry in which `socket` is filled by `contract`. For tests and previews.
    public func overriding<Contract>(_ socket: Socket<Contract>, with contract: Contract) -> SocketRegistry {
        var slots = self.slots
        if slots.count <= socket.slot {
            slots.append(contentsOf: repeatElement(nil, count: socket.slot + 1 - slots.count))
        }
        slots[socket.slot] = SocketBox(contract)
        var ids = self.ids
        ids[socket.slot] = socket.id
        var providers = self.providers
        providers[socket.id] = Self.overrideProvider
        return SocketRegistry(slots: slots, ids: ids, providers: providers)
    }
}

/// Unretained pointers to a registry's boxes.
///
/// Invariant (why it is `@unchecked Sendable`): the pointers are made once, from boxes that the
/// same registry's `slots` array owns, and never change; boxes are immutable `Sendable` objects,
/// so reading through a pointer from any thread is safe for as long as the registry exists.
@usableFromInline
struct UnretainedBoxes: @unchecked Sendable {
    @usableFromInline let pointers: [UnsafeRawPointer?]

    init(pointers: [UnsafeRawPointer?]) {
        self.pointers = pointers
    }
}
