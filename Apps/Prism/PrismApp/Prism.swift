import AppRuntime
import Composition
import Sockets

/// Prism, the photo-first app: its providers and its definition. The executable only launches
/// `Prism.definition`; everything else is shared.
public enum Prism {
    /// Prism's app id, as its manifest names it.
    public static let id = "prism"

    /// The providers that make Prism itself.
    public static let providers = Catalog(providers: [
        Provider(id: "prism.branding", fills: .branding) { _ in PrismBranding() },
        Provider(id: "prism.feedPolicy", fills: .feedPolicy) { _ in PrismFeedPolicy() },
        Provider(id: "prism.postLayout", fills: .postLayout) { _ in PrismPostLayout() },
        Provider(id: "prism.composerPolicy", fills: .composerPolicy) { _ in PrismComposerPolicy() },
        Provider(id: "prism.replyModel", fills: .replyModel) { _ in PrismReplyModel() },
        Provider(id: "prism.tabs", fills: .tabs) { _ in PrismTabs() },
        Provider(id: "prism.theme", fills: .theme) { _ in PrismTheme() },
        Provider(id: "prism.direct", fills: .direct) { _ in PrismDirect() },
    ])

    /// Everything Prism can be composed from: the shared sockets and services, and its providers.
    public static let catalog = Catalog.merging([SharedCatalog.catalog, providers])

    /// Prism's definition: its catalog and the manifest compiled in from Manifests/prism.json.
    public static let definition = AppDefinition(id: id, catalog: catalog, manifest: BundledManifest.value)
}
