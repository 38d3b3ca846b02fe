/// Any `ListDiffable` model behind one type, so a list can hold several model types.
///
/// Identity is the pair (model type, `diffIdentifier`): a `Photo` and a `Caption` with the
/// same identifier are different items. Content equality asks the model's own
/// `isContentEqual(to:)`, and is false across types. `base` gives the model back, for a data
/// source choosing a section controller by type.
///
/// ```swift
/// let items = [AnyListItem(photo), AnyListItem(caption)]
/// let result = ListDiff.diff(old: shown, new: items)
/// ```
public struct AnyListItem: ListDiffable, Sendable, CustomStringConvertible {
    /// The identity of an item: its model type and the model's `diffIdentifier`.
    public struct Identifier: Hashable, Sendable, CustomStringConvertible {
        let box: any AnyListItemBox

        /// Whether both name the same model type and equal identifiers.
        public static func == (lhs: Identifier, rhs: Identifier) -> Bool {
            lhs.box.identifierEquals(rhs.box)
        }

        /// Hashes the model type and identifier.
        public func hash(into hasher: inout Hasher) {
            box.hashIdentifier(into: &hasher)
        }

        /// The model type's name and the identifier: `Photo(42)`.
        public var description: String { "\(box.typeName)(\(box.identifierDescription))" }
    }

    @usableFromInline
    let box: any AnyListItemBox

    /// Wraps `model` (an `AnyListItem` is not wrapped twice). Inlinable, so a data source
    /// wrapping its models gets a version specialized for their type.
    @inlinable
    public init<Model: ListDiffable & Sendable>(_ model: Model) {
        // A type comparison, not a dynamic cast: this runs once per item on every update.
        if Model.self == AnyListItem.self {
            self = unsafeBitCast(model, to: AnyListItem.self)
        } else {
            box = ListItemBox(model)
        }
    }

    /// The wrapped model.
    public var base: any ListDiffable & Sendable { box.base }

    /// The wrapped model's type.
    public var modelType: any (ListDiffable & Sendable).Type { box.modelType }

    /// The wrapped model as `type`, or nil if it is another type. `AnyListItem.self` gives the
    /// item itself.
    public func model<Model>(as type: Model.Type) -> Model? {
        if Model.self == AnyListItem.self { return unsafeBitCast(self, to: Model.self) }
        return box.model(as: type)
    }

    /// The model's own content version, when it declares one (`ListContentVersioned`).
    public var contentVersion: Int? { box.contentVersion }

    /// The item's identity: model type and identifier.
    public var diffIdentifier: Identifier { Identifier(box: box) }

    /// Whether `other` wraps a model of the same type whose content equals this one's.
    public func isContentEqual(to other: AnyListItem) -> Bool {
        box.contentEquals(other.box)
    }

    /// One line about the item: type, identifier, and the model's own description when it
    /// has one. `Photo(42): sunset over the bay`.
    public var description: String {
        let identity = diffIdentifier.description
        guard let describable = box.base as? any CustomStringConvertible else { return identity }
        return "\(identity): \(describable.description)"
    }
}
