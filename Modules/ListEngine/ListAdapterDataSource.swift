/// Supplies a `ListAdapter` with the items to show and a section controller for each.
///
/// ```swift
/// extension FeedScreen: ListAdapterDataSource {
///     func listItems() -> [AnyListItem] { posts.map(AnyListItem.init) + [AnyListItem(footer)] }
///     func sectionController(for item: AnyListItem) -> (any ListSectionController<Line>)? {
///         switch item.base {
///         case is Post: PostController()
///         case is Footer: FooterController()
///         default: nil  // the adapter shows a fallback row and reports a diagnostic
///         }
///     }
/// }
/// ```
@MainActor
public protocol ListAdapterDataSource<Row>: AnyObject {
    /// The row content the list view draws.
    associatedtype Row

    /// The items to show, in order. Identifiers should be unique; the adapter keeps the first
    /// of any duplicates and reports them.
    func listItems() -> [AnyListItem]

    /// A new controller for `item`, or nil if none claims it (it then gets a fallback row).
    func sectionController(for item: AnyListItem) -> (any ListSectionController<Row>)?
}
