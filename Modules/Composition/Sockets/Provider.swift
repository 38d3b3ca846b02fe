/// Something a provider needs besides its own code: another socket's contract, or a running
/// service.
public enum ProviderNeed: Sendable, Hashable, CustomStringConvertible {
    /// The provider reads another socket while it is built (`context.socket(...)`).
    case socket(String)
    /// The provider's contract uses this service at run time, so it must be enabled.
    case service(String)

    /// `socket NAME` or `service NAME`, as diagnostics name a requirement.
    public var description: String {
        switch self {
        case .socket(let id): "socket '\(id)'"
        case .service(let id): "service '\(id)'"
        }
    }
}

/// An implementation that fills one socket, with a stable id (`"example.branding"`).
///
/// ```swift
/// Provider(id: "example.branding", fills: .branding) { _ in ExampleBranding() }
/// ```
///
/// Apps and modules publish providers in a `Catalog`; a manifest binds one per socket.
public struct Provider: Sendable {
    /// The provider's stable id.
    public let id: String
    /// The socket it fills.
    public let socket: SocketDescriptor
    /// The sockets and services it needs.
    public let needs: [ProviderNeed]
    /// Where the provider is declared.
    public let location: SourceLocation
    /// Builds the boxed contract.
    let make: @Sendable (ProviderContext) throws -> any AnyObject & Sendable

    /// Declares a provider of `socket`'s contract.
    public init<Contract>(
        id: String, fills socket: Socket<Contract>, needs: [ProviderNeed] = [],
        file: String = #filePath, line: Int = #line, column: Int = #column,
        make: @escaping @Sendable (ProviderContext) throws -> Contract
    ) {
        self.id = id
        self.socket = socket.descriptor
        self.needs = needs
        self.location = SourceLocation(declaredAt: file, line: line, column: column)
        self.make = { context in SocketBox<Contract>(try make(context)) }
    }

    /// The sockets this provider reads while it is built.
    public var socketNeeds: [String] {
        needs.compactMap { if case .socket(let id) = $0 { id } else { nil } }
    }

    /// The services this provider's contract uses.
    public var serviceNeeds: [String] {
        needs.compactMap { if case .service(let id) = $0 { id } else { nil } }
    }
}

/// What a provider sees while it is built: the sockets it declared in `needs`, already built.
public struct ProviderContext: Sendable {
    /// The provider being built.
    public let providerID: String
    /// The sockets built so far.
    let registry: SocketRegistry
    /// The socket ids the provider declared.
    let declared: Set<String>

    /// The contract filling `socket`, which the provider must list in its `needs`.
    public func socket<Contract>(_ socket: Socket<Contract>) throws(CompositionError) -> Contract {
        guard declared.contains(socket.id) else {
            throw CompositionError(
                "provider '\(providerID)' reads socket '\(socket.id)' without declaring it; add .socket(\"\(socket.id)\") to its needs"
            )
        }
        return registry[socket]
    }
}

/// A composition problem found while building an app (a provider that failed, an undeclared
/// need), with a message saying what to fix.
public struct CompositionError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong and how to fix it.
    public var message: String

    /// Makes an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
