/// The type-erased storage of an `AnyListItem`.
@usableFromInline
protocol AnyListItemBox: AnyObject, Sendable {
    var base: any ListDiffable & Sendable { get }
    var modelType: any (ListDiffable & Sendable).Type { get }
    var typeName: String { get }
    var identifierDescription: String { get }
    var contentVersion: Int? { get }
    func identifierEquals(_ other: any AnyListItemBox) -> Bool
    func hashIdentifier(into hasher: inout Hasher)
    func contentEquals(_ other: any AnyListItemBox) -> Bool
    func model<Requested>(as type: Requested.Type) -> Requested?
}

/// The storage of an `AnyListItem` wrapping a `Model`.
@usableFromInline
final class ListItemBox<Model: ListDiffable & Sendable>: AnyListItemBox {
    let model: Model

    @usableFromInline
    init(_ model: Model) {
        self.model = model
    }

    /// Asked only for new and changed items, so the dynamic cast is not paid for every item
    /// of every update.
    @usableFromInline
    var contentVersion: Int? { (model as? any ListContentVersioned)?.contentVersion }

    @usableFromInline
    var base: any ListDiffable & Sendable { model }
    @usableFromInline
    var modelType: any (ListDiffable & Sendable).Type { Model.self }
    @usableFromInline
    var typeName: String { String(describing: Model.self) }
    @usableFromInline
    var identifierDescription: String { String(describing: model.diffIdentifier) }

    /// `other` as a box of the same model type, checked by type identity (cheaper than a
    /// dynamic cast on this hot path).
    @inline(__always)
    func sameType(_ other: any AnyListItemBox) -> ListItemBox<Model>? {
        guard type(of: other) == ListItemBox<Model>.self else { return nil }
        return unsafeDowncast(other, to: ListItemBox<Model>.self)
    }

    @usableFromInline
    func identifierEquals(_ other: any AnyListItemBox) -> Bool {
        guard let other = sameType(other) else { return false }
        return model.diffIdentifier == other.model.diffIdentifier
    }

    @usableFromInline
    func hashIdentifier(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(Model.self))
        hasher.combine(model.diffIdentifier)
    }

    @usableFromInline
    func contentEquals(_ other: any AnyListItemBox) -> Bool {
        guard let other = sameType(other) else { return false }
        return model.isContentEqual(to: other.model)
    }

    @usableFromInline
    func model<Requested>(as type: Requested.Type) -> Requested? {
        // The common case (asking for the stored type) without a dynamic cast; the types are
        // identical, so the bit cast is an identity.
        if Requested.self == Model.self { return unsafeBitCast(model, to: Requested.self) }
        return model as? Requested
    }
}
