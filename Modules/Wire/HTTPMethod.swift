/// An HTTP request method (`GET`, `POST`, ...). A struct rather than an enum so a method this
/// build does not know (read off a socket) is still representable and can be answered with 405.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method as written on the request line, upper case (`"GET"`).
    public let rawValue: String

    /// Wraps a method name; it is upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// Reads data.
    public static let get = HTTPMethod(rawValue: "GET")
    /// Creates something or performs an action.
    public static let post = HTTPMethod(rawValue: "POST")
    /// Puts a resource in a state (idempotent).
    public static let put = HTTPMethod(rawValue: "PUT")
    /// Removes a resource or a state.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// Changes part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// Like GET without a body.
    public static let head = HTTPMethod(rawValue: "HEAD")

    /// The method name.
    public var description: String { rawValue }
}
