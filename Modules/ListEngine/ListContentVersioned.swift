/// A model that names its own content version, so row heights measured for it stay valid
/// across adapters and launches.
///
/// Without it, an adapter numbers content versions itself, and a height cached for an item is
/// only found again by the same adapter. With it, the layout cache key is (identifier, the
/// model's `contentVersion`, width): heights an app stored on disk (say, with its feed cache)
/// can be put into a `ListLayoutCache` before the list first shows, so no row is measured on
/// the UI path.
///
/// The version must change whenever anything its rows show changes.
public protocol ListContentVersioned {
    /// A number that changes whenever the model's rows would change.
    var contentVersion: Int { get }
}
