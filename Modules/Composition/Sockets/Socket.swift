import Synchronization

/// Whether an app must fill a socket or may leave it to its default.
public enum SocketRequirement: String, Sendable, Hashable {
    /// Every app's manifest must bind a provider.
    case required
    /// A manifest may leave the socket unbound; the socket's default is used.
    case optional
}

/// A typed key for one pluggable capability: an id (`"feedPolicy"`), the contract (a protocol,
/// usually spelled `any FeedPolicy`), and whether an app must fill it.
///
/// Code asks a registry for a socket and gets the contract, never a concrete type:
///
/// ```swift
/// let policy = registry[.feedPolicy]   // any FeedPolicy
/// ```
///
/// Each socket owns a slot index, assigned once when the key is made, so a registry lookup is
/// an array read (O(1), lock-free) rather than a dictionary search with a dynamic cast. The key
/// itself is just that index (its id, summary and default live in a table beside it), so passing
/// one around costs nothing. Declare sockets once, as constants, not in loops.
public struct Socket<Contract: Sendable>: Sendable, Hashable {
    /// The slot this socket's contract occupies in every registry.
    @usableFromInline let slot: Int

    private init(
        id: String, summary: String, requirement: SocketRequirement, makeDefault: (@Sendable () -> Contract)?,
        location: SourceLocation
    ) {
        var makeBox: (@Sendable () -> any AnyObject & Sendable)?
        if let makeDefault {
            makeBox = { SocketBox<Contract>(makeDefault()) }
        }
        slot = SocketTable.register { slot in
            SocketDescriptor(
                id: id, summary: summary, requirement: requirement, slot: slot, contract: Contract.self,
                location: location, makeDefaultBox: makeBox)
        }
    }

    /// A socket every app's manifest must bind.
    public static func required(
        _ id: String, summary: String, file: String = #filePath, line: Int = #line, column: Int = #column
    ) -> Socket {
        Socket(
            id: id, summary: summary, requirement: .required, makeDefault: nil,
            location: SourceLocation(declaredAt: file, line: line, column: column))
    }

    /// A socket a manifest may leave unbound, in which case `defaultValue` fills it.
    public static func optional(
        _ id: String, summary: String, file: String = #filePath, line: Int = #line, column: Int = #column,
        default defaultValue: @escaping @Sendable () -> Contract
    ) -> Socket {
        Socket(
            id: id, summary: summary, requirement: .optional, makeDefault: defaultValue,
            location: SourceLocation(declaredAt: file, line: line, column: column))
    }

    /// The socket without its contract type, as catalogs and validators see it.
    public var descriptor: SocketDescriptor { SocketTable.descriptor(slot) }

    /// The socket's id, as manifests name it.
    public var id: String { descriptor.id }
    /// One line saying what the socket decides.
    public var summary: String { descriptor.summary }
    /// Whether every app must bind a provider.
    public var requirement: SocketRequirement { descriptor.requirement }
    /// Where the socket is declared.
    public var location: SourceLocation { descriptor.location }

    /// The socket's default contract, for an optional socket.
    public func defaultContract() -> Contract? {
        guard let box = descriptor.makeDefaultBox?() else { return nil }
        return unsafeDowncast(box, to: SocketBox<Contract>.self).value
    }
}

/// A socket seen without its contract type: what a catalog lists and a validator checks.
public struct SocketDescriptor: Sendable {
    /// The socket's id.
    public let id: String
    /// One line saying what the socket decides.
    public let summary: String
    /// Whether every app must bind a provider.
    public let requirement: SocketRequirement
    /// The registry slot of the socket.
    let slot: Int
    /// The contract's type.
    let contract: any Any.Type
    /// The contract's type name, for messages (`FeedPolicy`). Made when asked for: naming a
    /// type looks through every protocol conformance in the process the first time, and doing it
    /// for each of the sockets declared cost about 5% of a launch's CPU.
    public var contractName: String { String(describing: contract) }
    /// Where the socket is declared.
    public let location: SourceLocation
    /// Makes the boxed default contract of an optional socket.
    let makeDefaultBox: (@Sendable () -> any AnyObject & Sendable)?
}

/// Every socket declared in the process, by slot: the metadata a `Socket` key points at.
enum SocketTable {
    private static let descriptors = Mutex<[SocketDescriptor]>([])

    /// Appends a socket's descriptor, made for the slot it gets, and returns that slot.
    static func register(_ make: (Int) -> SocketDescriptor) -> Int {
        descriptors.withLock { list in
            let slot = list.count
            list.append(make(slot))
            return slot
        }
    }

    /// The descriptor of a slot handed out by `register`.
    static func descriptor(_ slot: Int) -> SocketDescriptor {
        descriptors.withLock { $0[slot] }
    }

    /// How many slots have been handed out so far.
    static var count: Int { descriptors.withLock { $0.count } }
}

/// A class box holding one contract, so a registry can keep contracts of different types in one
/// array and read them back without a dynamic cast.
@usableFromInline
final class SocketBox<Contract: Sendable>: Sendable {
    @usableFromInline let value: Contract

    @usableFromInline init(_ value: Contract) {
        self.value = value
    }
}
