import AppRuntime
import Composition
import Sockets

/// Relay, the messaging app: direct messages are the whole app (the inbox is its first tab, and
/// its manifest enables no feed). Its providers and its definition. The executable only launches
/// `Relay.definition`; everything else is shared.
public enum Relay {
    /// Relay's app id, as its manifest names it.
    public static let id = "relay"

    /// The providers that make Relay itself.
    public static let providers = Catalog(providers: [
        Provider(id: "relay.branding", fills: .branding) { _ in RelayBranding() },
        Provider(id: "relay.feedPolicy", fills: .feedPolicy) { _ in RelayFeedPolicy() },
        Provider(id: "relay.postLayout", fills: .postLayout) { _ in RelayPostLayout() },
        Provider(id: "relay.composerPolicy", fills: .composerPolicy) { _ in RelayComposerPolicy() },
        Provider(id: "relay.replyModel", fills: .replyModel) { _ in RelayReplyModel() },
        Provider(id: "relay.tabs", fills: .tabs) { _ in RelayTabs() },
        Provider(id: "relay.onboarding", fills: .onboarding) { _ in RelayOnboarding() },
        Provider(id: "relay.direct", fills: .direct) { _ in RelayDirect() },
    ])

    /// Everything Relay can be composed from: the shared sockets and services, and its providers.
    public static let catalog = Catalog.merging([SharedCatalog.catalog, providers])

    /// Relay's definition: its catalog and the manifest compiled in from Manifests/relay.json.
    public static let definition = AppDefinition(id: id, catalog: catalog, manifest: BundledManifest.value)
}
