// swift-tools-version: 6.2
// One package, several apps: shared modules composed into each app through sockets, manifests
// and a service graph. See README.md for the layout and the dependency rules.
import PackageDescription

// MARK: - The apps

/// Every app, one line each. An app is its folder, Apps/<Name>/ (the library <Name>App with its
/// providers, the executable <name>), and its manifest, Manifests/<name>.json. Everything that needs
/// the list of apps derives it from this one: the products and targets below, and the `AllApps`
/// library (generated) that manifest-lint, bench and the tests read. `swift run new-app <Name>
/// --like <app>` writes a new app and adds its line.
let apps = [
    "Prism",
    "Relay",
    "Strand",
]

/// Every app's library, as a dependency.
let appLibraries = apps.map { Target.Dependency.target(name: "\($0)App") }

// MARK: - Target kinds, each mapped to its folder

/// A shared module under Modules/.
func module(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: "Modules/\(name)")
}

/// An app's library (its socket providers and AppDefinition), with its manifest embedded by the
/// build plugin from Manifests/<app>.json.
func appLibrary(_ app: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(
        name: "\(app)App", dependencies: dependencies, path: "Apps/\(app)/\(app)App",
        plugins: [.plugin(name: "ManifestEmbedder")])
}

/// An app's executable: main.swift only, launching the app's definition.
func appExecutable(_ app: String) -> Target {
    .executableTarget(
        name: app.lowercased(), dependencies: [.target(name: "\(app)App"), "AppRuntime"],
        path: "Apps/\(app)/\(app.lowercased())")
}

/// A tool under tools/.
func tool(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: "tools/\(name)")
}

/// A library a tool is built from, under tools/ (so its logic is testable).
func toolLibrary(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, path: "tools/\(name)")
}

/// The tests of a module, app or tool, under Tests/<Name>Tests.
func tests(
    _ name: String, _ dependencies: [Target.Dependency], exclude: [String] = [], resources: [Resource]? = nil
) -> Target {
    .testTarget(
        name: "\(name)Tests", dependencies: dependencies, path: "Tests/\(name)Tests", exclude: exclude,
        resources: resources)
}

// MARK: - The package

let package = Package(
    name: "Loom",
    products: [
        .executable(name: "manifest-lint", targets: ["manifest-lint"]),
        .executable(name: "backend-server", targets: ["backend-server"]),
        .executable(name: "bench", targets: ["bench"]),
        .executable(name: "hello-world", targets: ["hello-world"]),
        .executable(name: "mutation-score", targets: ["mutation-score"]),
        .executable(name: "new-app", targets: ["new-app"]),
    ] + apps.map { .executable(name: $0.lowercased(), targets: [$0.lowercased()]) },
    targets: [
        // Shared modules (lower layers first).
        module("Basics"),
        module("Composition", ["Basics"]),
        module("CommandLineKit", ["Basics"]),
        module("MediaModel", ["Basics"]),
        .systemLibrary(name: "CSQLite", path: "Modules/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        module("Storage", ["CSQLite", "Composition"]),
        // PostgreSQL behind Storage's interface, through the system's libpq (Debian's libpq-dev):
        // linked by the backend's server and tools, never by an app.
        .systemLibrary(name: "CLibPQ", path: "Modules/CLibPQ", providers: [.apt(["libpq-dev"])]),
        module("PostgresStorage", ["CLibPQ", "Storage", "CommandLineKit"]),
        .systemLibrary(name: "COpenSSL", path: "Modules/COpenSSL", providers: [.apt(["libssl-dev"])]),
        module("Wire", ["Basics"]),
        // Photos: the system's libjpeg-turbo and libpng, our small C layer that catches their
        // fatal errors (setjmp), and Imaging on top.
        .systemLibrary(name: "CJPEG", path: "Modules/CJPEG", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CPNG", path: "Modules/CPNG", providers: [.apt(["libpng-dev"])]),
        // A C target does not autolink the libraries its system-library dependencies name (only a
        // Swift import does), so it names them itself.
        .target(
            name: "CImageCodecs", dependencies: ["CJPEG", "CPNG"], path: "Modules/CImageCodecs",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]),
        module("Imaging", ["CImageCodecs", "MediaModel"]),
        module("ListEngine"),
        module("TerminalUI", ["ListEngine", "CommandLineKit"]),
        module("Backend", ["Basics", "COpenSSL", "Composition", "Wire", "MediaModel", "Storage", "Imaging"]),
        // The networking stack: the API's interface (the typed client over any transport), the live
        // HTTP/1.1 + TLS client, the feed cache, the mutation manager, and Networking composing
        // their services into one catalog (the only module of the stack that links the live client).
        module("ServerAPI", ["Basics", "Composition", "Wire", "MediaModel"]),
        module("HTTPClient", ["COpenSSL", "Composition", "Wire"]),
        module("FeedCaching", ["Basics", "Composition", "Wire", "MediaModel", "Storage", "ServerAPI"]),
        module(
            "Mutations",
            ["Basics", "Composition", "Wire", "MediaModel", "Storage", "ServerAPI", "FeedCaching"]),
        module(
            "Networking", ["Composition", "Storage", "ServerAPI", "HTTPClient", "FeedCaching", "Mutations"]),
        // Linux's epoll and eventfd, which the Glibc module does not import (C library: no link).
        .systemLibrary(name: "CLinuxEvents", path: "Modules/CLinuxEvents"),
        module("HTTPServer", ["Basics", "Wire", "CLinuxEvents"]),
        .target(name: "Sockets", dependencies: ["Composition", "MediaModel"], path: "Sockets"),
        module(
            "Features",
            [
                "Basics", "Composition", "Sockets", "MediaModel", "Storage", "Wire", "ServerAPI",
                "FeedCaching",
                "Mutations",
                "ListEngine",
                "TerminalUI", "Imaging",
            ]),
        // Direct messages: the inbox and a conversation, composed by the apps that fill `direct`.
        module(
            "DirectMessages",
            [
                "Composition", "Features", "Sockets", "MediaModel", "ServerAPI", "Mutations", "TerminalUI",
                "Wire",
            ]),
        module(
            "AppRuntime",
            [
                "Basics", "Composition", "CommandLineKit", "Sockets", "MediaModel", "Wire", "Backend",
                "Storage",
                "ServerAPI", "HTTPClient", "FeedCaching", "Mutations", "Networking", "TerminalUI", "Features",
                "DirectMessages",
            ]),

        // Tools.
        tool("manifest-embed", ["Composition"]),
        .plugin(
            name: "ManifestEmbedder", capability: .buildTool(), dependencies: ["manifest-embed"],
            path: "tools/ManifestEmbedder"),
        toolLibrary("ManifestLint", ["Basics", "Composition", "CommandLineKit", "Sockets", "MediaModel"]),
        // Every app's definition, in the order of `apps` (the code is generated by the AppIndex plugin).
        .target(
            name: "AllApps", dependencies: ["Composition"] + appLibraries, path: "tools/AllApps",
            plugins: [.plugin(name: "AppIndex")]),
        tool("app-index", []),
        .plugin(
            name: "AppIndex", capability: .buildTool(), dependencies: ["app-index"], path: "tools/AppIndex"),
        tool("manifest-lint", ["ManifestLint", "AllApps"]),
        toolLibrary("AppScaffold", ["Basics", "CommandLineKit"]),
        tool("new-app", ["AppScaffold"]),
        tool(
            "backend-server",
            ["HTTPServer", "Backend", "CommandLineKit", "Wire", "PostgresStorage", "Storage"]),
        tool("hello-world", []),
        toolLibrary("MutationTesting", ["Basics", "CommandLineKit"]),
        tool("mutation-score", ["MutationTesting"]),
        tool(
            "mutation-crash-helper",
            [
                "Basics", "Networking", "ServerAPI", "HTTPClient", "Mutations", "Backend", "Wire",
                "MediaModel",
                "Storage", "Imaging",
            ]),
        tool(
            "bench",
            [
                "Basics", "Composition", "Sockets", "AllApps", "ManifestLint", "Storage", "CSQLite",
                "Networking", "ServerAPI", "FeedCaching", "Mutations",
                "MediaModel", "ListEngine", "Features", "AppRuntime", "TerminalUI", "Backend",
                "Wire",
                "HTTPServer", "Imaging", "CommandLineKit", "DirectMessages", "PostgresStorage",
            ]),

        // Tests.
        tests("Basics", ["Basics", "COpenSSL"]),
        tests("Composition", ["Composition"]),
        tests("CommandLineKit", ["CommandLineKit"]),
        tests("MediaModel", ["MediaModel", "Basics"]),
        tests("Storage", ["Storage"]),
        .target(
            name: "PostgresTesting", dependencies: ["PostgresStorage", "Storage"],
            path: "Tests/PostgresTesting"),
        tests("PostgresStorage", ["PostgresStorage", "PostgresTesting", "Storage"]),
        tests("Wire", ["Wire"]),
        tests("Imaging", ["Imaging", "CImageCodecs", "MediaModel", "Basics", "PhotoTesting"]),
        .target(
            name: "ListEngineTesting", dependencies: ["ListEngine", "Basics"], path: "Tests/ListEngineTesting"
        ),
        tests("ListEngine", ["ListEngine", "ListEngineTesting", "Basics"]),
        .target(name: "TerminalUITesting", dependencies: ["TerminalUI"], path: "Tests/TerminalUITesting"),
        tests("TerminalUI", ["TerminalUI", "TerminalUITesting", "ListEngine", "Basics"]),
        .target(name: "SocketTesting", path: "Tests/SocketTesting"),
        .target(name: "PhotoTesting", dependencies: ["Imaging", "MediaModel"], path: "Tests/PhotoTesting"),
        .target(
            name: "ServerTesting", dependencies: ["HTTPServer", "Wire", "SocketTesting", "CommandLineKit"],
            path: "Tests/ServerTesting"),
        tests(
            "Backend",
            [
                "Backend", "Wire", "MediaModel", "Mutations", "ServerAPI", "Storage", "CommandLineKit",
                "ServerTesting", "backend-server",
                "PhotoTesting", "Imaging", "PostgresStorage", "PostgresTesting",
            ]),
        .target(
            name: "NetworkingTesting",
            dependencies: [
                "Backend", "Composition", "FeedCaching", "MediaModel", "Networking", "ServerAPI", "Storage",
                "Wire",
            ],
            path: "Tests/NetworkingTesting"),
        tests(
            "ServerAPI",
            [
                "ServerAPI", "HTTPClient", "NetworkingTesting", "Backend", "HTTPServer", "MediaModel",
                "Mutations", "Storage", "Wire", "backend-server", "Imaging", "PhotoTesting", "Basics",
            ]),
        tests(
            "HTTPClient",
            [
                "HTTPClient", "ServerAPI", "NetworkingTesting", "Networking", "Backend", "Composition",
                "MediaModel", "Mutations", "Storage", "Wire", "SocketTesting", "CommandLineKit",
            ]),
        tests(
            "FeedCaching",
            [
                "FeedCaching", "NetworkingTesting", "Networking", "ServerAPI", "Backend", "MediaModel",
                "Mutations", "Storage",
                "Wire",
            ]),
        tests(
            "Mutations",
            [
                "Mutations", "Networking", "ServerAPI", "FeedCaching", "Backend", "Basics", "CommandLineKit",
                "Composition", "MediaModel", "Storage", "Wire", "NetworkingTesting", "mutation-crash-helper",
                "PostgresStorage", "ServerTesting", "backend-server",
            ]),
        tests(
            "Networking",
            [
                "Networking", "NetworkingTesting", "ServerAPI", "FeedCaching", "Backend", "Composition",
                "MediaModel", "Storage", "Wire",
            ]),
        tests("Sockets", ["Sockets", "Composition", "MediaModel"]),
        tests(
            "HTTPServer",
            [
                "HTTPServer", "HTTPClient", "Backend", "Networking", "ServerAPI", "Mutations", "Wire",
                "MediaModel",
                "Storage", "SocketTesting", "ServerTesting", "PhotoTesting", "Imaging",
            ]),
        tests(
            "Security",
            [
                "Backend", "HTTPServer", "HTTPClient", "ServerAPI", "Wire", "MediaModel", "Storage",
                "ServerTesting", "backend-server", "ManifestLint", "ManifestLintTesting", "CommandLineKit",
                "Composition", "PhotoTesting", "PostgresStorage", "PostgresTesting",
            ]),
        tests(
            "AppRuntime",
            [
                "AppRuntime", "Composition", "CommandLineKit", "Backend", "Mutations", "Wire", "Features",
                "TerminalUI", "DirectMessages", "MediaModel", "ServerAPI",
            ]),
        .target(
            name: "AppTesting",
            dependencies: [
                "Features", "AppRuntime", "Backend", "ServerAPI", "Wire", "MediaModel", "Composition",
                "CommandLineKit", "Mutations", "ListEngine", "Imaging", "AllApps", "Sockets",
                "TerminalUI", "TerminalUITesting",
            ],
            path: "Tests/AppTesting"),
        tests(
            "Features",
            [
                "Features", "AppTesting", "MediaModel", "Imaging", "PhotoTesting", "TerminalUI", "Wire",
                "ServerAPI",
                "FeedCaching", "Mutations", "Composition", "Sockets",
            ]),
        tests(
            "Apps",
            [
                "AppTesting", "AllApps", "Backend", "Features", "AppRuntime", "Composition",
                "CommandLineKit",
                "Sockets", "MediaModel", "ServerAPI", "TerminalUI", "TerminalUITesting",
            ]),
        .target(
            name: "ManifestLintTesting",
            dependencies: ["ManifestLint", "CommandLineKit", "Composition", "AllApps"],
            path: "Tests/ManifestLintTesting"),
        tests(
            "ManifestLint",
            [
                "ManifestLint", "ManifestLintTesting", "Composition", "CommandLineKit", "AllApps", "Sockets",
                "MediaModel",
            ]),
        tests("MutationTesting", ["MutationTesting", "CommandLineKit"]),
        tests("AppScaffold", ["AppScaffold", "CommandLineKit"]),
        tests(
            "CrossAppRegression",
            [
                "AppTesting", "Features", "AppRuntime", "Composition", "CommandLineKit", "Sockets", "Backend",
                "ManifestLint", "Basics", "ListEngine", "Networking", "TerminalUITesting", "MediaModel",
                "ServerAPI", "FeedCaching", "Mutations", "TerminalUI", "Wire", "HTTPServer", "PhotoTesting",
                "Storage", "mutation-crash-helper", "ServerTesting", "DirectMessages",
            ],
            exclude: ["Golden"]),
    ]
        + apps.flatMap {
            [appLibrary($0, ["Composition", "Sockets", "MediaModel", "AppRuntime"]), appExecutable($0)]
        }
)

// MARK: - Settings every Swift target shares

for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}

// MARK: - Release builds link the Swift runtime and Foundation into each executable

// `-static-stdlib` (what `--static-swift-stdlib` does, made the default for release builds): an
// app then maps 12 shared objects instead of 26 at launch and resolves far fewer symbols, which
// was most of a warm launch's time before `main` (AppRuntime's WholeProcessLaunch article has the
// figures). It must reach every compile as well as the link, so it is set on every Swift target
// a release executable is built from (not the tests' support libraries, which need Swift Testing,
// a dynamic library only). Debug builds and the tests stay dynamic. `hello-world` is left
// dynamic on purpose: it is `bench process`'s baseline, a plain Foundation program.
let staticInRelease = BuildSettingCondition.when(configuration: .release)
for target in package.targets
where [.regular, .executable].contains(target.type) && target.name != "hello-world"
    && !(target.path ?? "").hasPrefix("Tests/")
{
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-static-stdlib"], staticInRelease)]
    if target.type == .executable {
        target.linkerSettings =
            (target.linkerSettings ?? []) + [.unsafeFlags(["-static-stdlib"], staticInRelease)]
    }
}
