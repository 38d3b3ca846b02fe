/// One `name=value` pair of a request's query string, decoded.
public struct QueryItem: Hashable, Sendable {
    /// The name (`"cursor"`).
    public var name: String
    /// The value (`"1714564800000.0.42"`); empty for a bare `?flag`.
    public var value: String

    /// Makes a query item.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
