/// A position in a JSON document, printed like `media.attachments[2].width`.
public struct WirePath: Hashable, Sendable, CustomStringConvertible {
    /// One step into a document: an object key or an array index.
    public enum Component: Hashable, Sendable {
        /// A field of an object.
        case key(String)
        /// An element of an array (zero-based).
        case index(Int)
    }

    /// The steps from the document's root, outermost first.
    public private(set) var components: [Component]

    /// The document's root.
    public static let root = WirePath([])

    /// Makes a path from its steps.
    public init(_ components: [Component]) { self.components = components }

    /// Makes a path from a `Decoder`'s coding path, so a value decoded inside a larger
    /// `Codable` document reports errors where it sits.
    public init(codingPath: [any CodingKey]) {
        components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }

    /// The path to a field of the object at this path.
    public func appending(_ key: String) -> WirePath { WirePath(components + [.key(key)]) }

    /// The path to an element of the array at this path.
    public func appending(index: Int) -> WirePath { WirePath(components + [.index(index)]) }

    /// The path in dotted form (`media.attachments[2].width`), or `<root>` for the root.
    public var description: String {
        if components.isEmpty { return "<root>" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
