/// What an occurrence keeps of its item: the whole item, when it is small (then matched
/// pairs' content is compared while matching, with both in cache), just its identifier (then
/// content is compared afterwards, from the arrays), or just its identifier's 64-bit hash
/// (then the identifiers of matched pairs are checked afterwards, from the arrays, too).
@usableFromInline
protocol HeckelKey {
    associatedtype Item: ListDiffable
    /// What matching compares: equal items have equal identities.
    associatedtype Identity: Equatable
    /// Whether the key holds the whole item (and so can compare content).
    static var holdsItem: Bool { get }
    /// Whether equal identities may still be different identifiers (a hash), so every matched
    /// pair's identifiers must be checked against the arrays.
    static var identityIsHash: Bool { get }
    init(_ item: Item)
    var identity: Identity { get }
    /// The identity's 64-bit platform hash: its top 32 bits pick the bucket, its bottom 32 the
    /// slot in the bucket's table.
    var hashBits: UInt64 { get }
    /// Whether the items' content is equal (only asked when `holdsItem`).
    func isContentEqual(to other: Self) -> Bool
}

extension HeckelKey {
    /// A platform hash as 64 bits.
    @inlinable @inline(__always)
    static func bits(_ hash: Int) -> UInt64 { UInt64(UInt(bitPattern: hash)) }
}

/// A key holding the whole item.
@usableFromInline
struct HeckelItemKey<Item: ListDiffable>: HeckelKey {
    @usableFromInline let item: Item

    @inlinable static var holdsItem: Bool { true }
    @inlinable static var identityIsHash: Bool { false }
    @inlinable init(_ item: Item) { self.item = item }
    @inlinable var identity: Item.DiffIdentifier { item.diffIdentifier }
    @inlinable var hashBits: UInt64 { Self.bits(item.diffIdentifier.hashValue) }
    @inlinable func isContentEqual(to other: Self) -> Bool { item.isContentEqual(to: other.item) }
}

/// A key holding only the item's identifier.
@usableFromInline
struct HeckelIdentifierKey<Item: ListDiffable>: HeckelKey {
    @usableFromInline let identity: Item.DiffIdentifier

    @inlinable static var holdsItem: Bool { false }
    @inlinable static var identityIsHash: Bool { false }
    @inlinable init(_ item: Item) { identity = item.diffIdentifier }
    @inlinable var hashBits: UInt64 { Self.bits(identity.hashValue) }
    @inlinable func isContentEqual(to other: Self) -> Bool { true }
}

/// A key holding only the 64-bit hash of the item's identifier, made once per item.
///
/// For identifiers that live behind a pointer (a `String` of more than 15 bytes, an
/// `AnyHashable`): copying one into an occurrence retains its storage, comparing two reads
/// both, and dropping it releases it again, each a cache miss at a random address when done
/// bucket by bucket. With this key the identifier is read once, in array order, to hash it;
/// matching compares hashes alone, and `finish` checks each matched pair's identifiers in new's
/// order, where the reads mostly run forward through memory. Two different identifiers with
/// equal hashes make that check fail, and the diff is then made again with `HeckelIdentifierKey`.
@usableFromInline
struct HeckelHashKey<Item: ListDiffable>: HeckelKey {
    @usableFromInline let identity: UInt64

    @inlinable static var holdsItem: Bool { false }
    @inlinable static var identityIsHash: Bool { true }
    @inlinable init(_ item: Item) { identity = Self.bits(item.diffIdentifier.hashValue) }
    @inlinable var hashBits: UInt64 { identity }
    @inlinable func isContentEqual(to other: Self) -> Bool { true }
}
