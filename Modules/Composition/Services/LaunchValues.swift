/// A key for one value the launcher hands to services and providers (a data directory, a
/// server URL, a clock), with the value used when the launcher sets none.
///
/// ```swift
/// public enum DataDirectoryKey: LaunchValueKey {
///     public static let defaultValue = "/tmp/app"
/// }
/// let directory = context.values[DataDirectoryKey.self]
/// ```
public protocol LaunchValueKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value when none was set.
    static var defaultValue: Value { get }
}

/// Values the launcher decided (from flags, the environment or a test) for services and
/// providers to read. Type-keyed, so modules declare their own keys without a shared list.
public struct LaunchValues: Sendable {
    private var storage: [ObjectIdentifier: any Sendable] = [:]

    /// No values: every key reads its default.
    public init() {}

    /// The value for `key`, or its default.
    public subscript<Key: LaunchValueKey>(key: Key.Type) -> Key.Value {
        get { (storage[ObjectIdentifier(key)] as? Key.Value) ?? Key.defaultValue }
        set { storage[ObjectIdentifier(key)] = newValue }
    }

    /// Whether a value was set for `key`.
    public func contains<Key: LaunchValueKey>(_ key: Key.Type) -> Bool {
        storage[ObjectIdentifier(key)] != nil
    }
}
