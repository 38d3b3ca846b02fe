import AppRuntime
import Composition
import Sockets

/// Strand, the text-first app: its providers and its definition. The executable only launches
/// `Strand.definition`; everything else is shared.
public enum Strand {
    /// Strand's app id, as its manifest names it.
    public static let id = "strand"

    /// The providers that make Strand itself.
    public static let providers = Catalog(providers: [
        Provider(id: "strand.branding", fills: .branding) { _ in StrandBranding() },
        Provider(id: "strand.feedPolicy", fills: .feedPolicy) { _ in StrandFeedPolicy() },
        Provider(id: "strand.postLayout", fills: .postLayout) { _ in StrandPostLayout() },
        Provider(id: "strand.composerPolicy", fills: .composerPolicy) { _ in StrandComposerPolicy() },
        Provider(id: "strand.replyModel", fills: .replyModel) { _ in StrandReplyModel() },
        Provider(id: "strand.tabs", fills: .tabs) { _ in StrandTabs() },
        Provider(id: "strand.onboarding", fills: .onboarding) { _ in StrandOnboarding() },
    ])

    /// Everything Strand can be composed from: the shared sockets and services, and its providers.
    public static let catalog = Catalog.merging([SharedCatalog.catalog, providers])

    /// Strand's definition: its catalog and the manifest compiled in from Manifests/strand.json.
    public static let definition = AppDefinition(id: id, catalog: catalog, manifest: BundledManifest.value)
}
