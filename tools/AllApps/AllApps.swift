import Composition

/// Every app in the package, in the order of Package.swift's `apps` list.
///
/// Nothing here names an app: the AppIndex build plugin generates `AllApps.definitions` from this
/// target's dependencies on the apps' libraries, and Package.swift derives those from its one list
/// of apps. manifest-lint, bench and the tests read the apps from here, so a new app (`swift run
/// new-app <Name> --like <app>`) reaches all of them without another edit.
public enum AllApps {
    /// The app whose id is `id` (its manifest's `app`), if the package has one.
    public static func definition(id: String) -> AppDefinition? {
        definitions.first { $0.id == id }
    }

    /// Every app's id, in the order of ``definitions``.
    public static var ids: [String] { definitions.map(\.id) }

    /// Where the list of apps is kept, for messages that name an app the package does not have.
    public static let registeredIn =
        "Package.swift's `apps` list (an app is Apps/<Name>/ plus Manifests/<name>.json)"
}
