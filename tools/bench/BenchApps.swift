import AllApps
import Composition
import MediaModel
import Sockets

/// The apps a suite measures, chosen by what their registries say rather than by name, so the
/// bench keeps working as apps are added or renamed.
enum BenchApps {
    /// A bench that needs an app of a kind the package does not have.
    struct Missing: Error, CustomStringConvertible {
        let kind: String
        var description: String {
            "no app in the package is \(kind) (apps: \(AllApps.ids.joined(separator: ", ")))"
        }
    }

    /// The first app with a Home tab whose feed shows text-only posts (an app without Home, such
    /// as a messages-only one, has no feed to measure even when its feed policy says text).
    static func textFirst() throws -> AppDefinition {
        try first("text-first (a Home tab whose feed shows text-only posts)") {
            hasHome($0) && $0[.feedPolicy].shows(.text)
        }
    }

    /// The first app with a Home tab whose posts need a photo.
    static func photoFirst() throws -> AppDefinition {
        try first("photo-first (a Home tab, and posts that need a photo)") {
            hasHome($0) && $0[.composerPolicy].media == .required
        }
    }

    private static func hasHome(_ registry: SocketRegistry) -> Bool {
        registry[.tabs].tabs.contains { $0.destination == .home }
    }

    private static func first(_ kind: String, where trait: (SocketRegistry) -> Bool) throws -> AppDefinition {
        for app in AllApps.definitions {
            if let registry = try? AppHost.compose(app).registry, trait(registry) { return app }
        }
        throw Missing(kind: kind)
    }
}
