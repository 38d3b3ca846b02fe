import Composition
import MediaModel
import Sockets

/// Every app's composer against what the backend accepts: a composer that lets a person write a
/// post the server then refuses is an error at the manifest's `composerPolicy` binding.
///
/// The backend's limits are declared once, in ``PostLimits`` (MediaModel): the characters of a
/// text (``PostLimits/textCharacters``) and the photos of a carousel
/// (``PostLimits/carouselItems``). An app's composer policy is whatever its manifest binds, so
/// the check composes each app from its manifest on disk and asks the policy.
public struct ComposerLimitCheck: Sendable {
    /// Makes the check.
    public init() {}

    /// The problems of `app` composed with `manifest` (read from the file the diagnostics name).
    /// An app that does not compose is left to ``ManifestCheck``, which says why.
    public func run(app: AppDefinition, manifest: Manifest, contents: String) -> [Diagnostic] {
        let definition = AppDefinition(
            id: app.id, catalog: app.catalog,
            manifest: EmbeddedManifest(path: manifest.file, contents: contents))
        guard let registry = try? AppHost.compose(definition).registry else { return [] }
        let policy = registry[.composerPolicy]
        let provider = registry.providers["composerPolicy"] ?? "the default composer policy"
        let location =
            manifest.sockets.first { $0.socket == "composerPolicy" }?.providerLocation
            ?? SourceLocation(file: manifest.file, line: 1, column: 1)
        var found: [Diagnostic] = []
        if policy.textLimit > PostLimits.textCharacters {
            found.append(
                Diagnostic(
                    at: location, code: "composer-over-backend-limit",
                    "'\(provider)' lets a post have \(policy.textLimit) characters, but the backend accepts at most \(PostLimits.textCharacters) (PostLimits.textCharacters); lower the composer's textLimit"
                ))
        }
        if policy.textLimit < 1 {
            found.append(
                Diagnostic(
                    at: location, code: "composer-limit-empty",
                    "'\(provider)' has a textLimit of \(policy.textLimit); a post could never have text"))
        }
        if policy.media != .forbidden && policy.carouselLimit > PostLimits.carouselItems {
            found.append(
                Diagnostic(
                    at: location, code: "composer-over-backend-limit",
                    "'\(provider)' lets a carousel hold \(policy.carouselLimit) photos, but the backend accepts at most \(PostLimits.carouselItems) (PostLimits.carouselItems); lower the composer's carouselLimit"
                ))
        }
        return found
    }
}
