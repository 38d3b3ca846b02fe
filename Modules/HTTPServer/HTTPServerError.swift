/// The server could not start: what went wrong, where, and what to do about it.
///
/// ```swift
/// do { server = try HTTPServer.start(configuration, handler: backend.handle) } catch {
///     print(error)   // cannot listen on 127.0.0.1:8080: the address is already in use ...
/// }
/// ```
public struct HTTPServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Hashable, Sendable {
        /// The host is not an IP address, the port is out of range, or no interface has it.
        case invalidAddress
        /// Another process listens on the address.
        case addressInUse
        /// The port needs privileges this process lacks.
        case permissionDenied
        /// A socket call failed for another reason (the message quotes the system's).
        case socketFailed
        /// The configuration is inconsistent (a limit or timeout that is zero or negative).
        case invalidConfiguration
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, quoting the offending value, and how to fix it.
    public let message: String

    /// Makes an error.
    public init(code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
