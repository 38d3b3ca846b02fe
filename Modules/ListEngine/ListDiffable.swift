/// A value a list can diff: it has a stable identity and can tell whether its content changed.
///
/// Two values with equal `diffIdentifier`s are the same item (perhaps in different versions);
/// `isContentEqual(to:)` then says whether it looks the same. Both must be pure: the diff may
/// run on any task and call them any number of times.
///
/// ```swift
/// struct Post: ListDiffable {
///     let id: Int
///     var text: String
///     var diffIdentifier: Int { id }
///     func isContentEqual(to other: Post) -> Bool { text == other.text }
/// }
/// ```
public protocol ListDiffable {
    /// The type of the identity that stays the same across versions of the item.
    associatedtype DiffIdentifier: Hashable

    /// The identity of the item: equal identifiers mean "the same item".
    var diffIdentifier: DiffIdentifier { get }

    /// Whether this item, known to have the same identifier as `other`, shows the same content.
    func isContentEqual(to other: Self) -> Bool
}
