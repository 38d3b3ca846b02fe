/// What an occurrence keeps of its item: the whole item, when it is small (then matched
/// pairs' content is compared while matching, with both in cache), or just its identifier
/// (then content is compared afterwards, from the arrays).
@usableFromInline
protocol HeckelKey {
    associatedtype Item: ListDiffable
    /// Whether the key holds the whole item (and so can compare content).
    static var holdsItem: Bool { get }
    init(_ item: Item)
    var identifier: Item.DiffIdentifier { get }
    /// Whether the items' content is equal (only asked when `holdsItem`).
    func isContentEqual(to other: Self) -> Bool
}

/// A key holding the whole item.
@usableFromInline
struct HeckelItemKey<Item: ListDiffable>: HeckelKey {
    @usableFromInline let item: Item

    @inlinable static var holdsItem: Bool { true }
    @inlinable init(_ item: Item) { self.item = item }
    @inlinable var identifier: Item.DiffIdentifier { item.diffIdentifier }
    @inlinable func isContentEqual(to other: Self) -> Bool { item.isContentEqual(to: other.item) }
}

/// A key holding only the item's identifier.
@usableFromInline
struct HeckelIdentifierKey<Item: ListDiffable>: HeckelKey {
    @usableFromInline let identifier: Item.DiffIdentifier

    @inlinable static var holdsItem: Bool { false }
    @inlinable init(_ item: Item) { identifier = item.diffIdentifier }
    @inlinable func isContentEqual(to other: Self) -> Bool { true }
}
