import Foundation

/// A package tree in a fresh temporary directory, shaped like the repository where `new-app`
/// looks: a Package.swift with the list of apps and a few targets, Apps/Tundra and Apps/Pebble,
/// their manifests, and two sockets. Removed when released.
final class ScratchPackage {
    /// The package root.
    let root: String

    /// Package.swift as the scratch package starts.
    static let packageText = """
        // swift-tools-version: 6.2
        import PackageDescription

        let apps = [
            "Pebble",
            "Tundra",
        ]

        func module(_ name: String) -> Target { .target(name: name, path: "Modules/\\(name)") }
        func tool(_ name: String) -> Target { .executableTarget(name: name, path: "tools/\\(name)") }

        let package = Package(
            name: "Scratch",
            products: [.executable(name: "bench", targets: ["bench"])],
            targets: [
                module("Features"),
                tool("bench"),
                .target(name: "AllApps", path: "tools/AllApps"),
                .target(
                    name: "Backend", path: "Modules/Backend"),
            ] + apps.map { .target(name: "\\($0)App", path: "Apps/\\($0)/\\($0)App") }
        )

        """

    /// The model app's files, by path.
    static let tundraFiles = [
        "Apps/Tundra/TundraApp/Tundra.swift": """
        import AppRuntime
        import Composition
        import Sockets

        /// Tundra, the text-first app: its providers and its definition.
        public enum Tundra {
            /// Tundra's app id, as its manifest names it.
            public static let id = "tundra"

            /// The providers that make Tundra itself.
            public static let providers = Catalog(providers: [
                Provider(id: "tundra.branding", fills: .branding) { _ in TundraBranding() },
                Provider(id: "tundra.tabs", fills: .tabs) { _ in TundraTabs() },
            ])

            /// The variable naming Tundra's data directory.
            public static let dataDirectoryVariable = "TUNDRA_DATA_DIR"

            /// Tundra's definition, with the manifest compiled in from Manifests/tundra.json.
            public static let definition = AppDefinition(
                id: id, catalog: providers, manifest: BundledManifest.value)
        }

        """,
        "Apps/Tundra/TundraApp/Providers/TundraBranding.swift": """
        import Sockets

        /// Tundra's name, green accent and thread glyph.
        struct TundraBranding: Branding {
            let appName = "Tundra"
            let accentColor = RGBColor(hex: 0x3DDC97)
            let logoGlyph = "@"
            let tagline = "Say it in words. Follow the thread."
        }

        """,
        "Apps/Tundra/TundraApp/Providers/TundraTabs.swift": """
        import Sockets

        /// Tundra's tab bar.
        struct TundraTabs: Tabs {
            let tabs = [Tab(title: "Home", destination: .home, glyph: "⌂")]
        }

        """,
        "Apps/Tundra/tundra/main.swift": """
        import AppRuntime
        import TundraApp

        await AppLauncher.main(Tundra.definition)

        """,
        "Manifests/tundra.json": """
        {
            "app": "tundra",
            "displayName": "Tundra",
            "version": "0.1.0",
            "sockets": {
                "branding": "tundra.branding",
                "tabs": "tundra.tabs"
            },
            "services": ["storage.database"]
        }

        """,
    ]

    /// Everything else the scratch package holds, by path.
    static let otherFiles = [
        "Apps/Pebble/PebbleApp/Pebble.swift": "public enum Pebble {}\n",
        "Apps/Pebble/pebble/main.swift": "import PebbleApp\n",
        "Manifests/pebble.json": "{ \"app\": \"pebble\" }\n",
        "Modules/Features/Features.swift": "public enum Features {}\n",
        "Modules/Backend/Backend.swift": "public enum Backend {}\n",
        "tools/bench/main.swift": "print(\"bench\")\n",
        "tools/AllApps/AllApps.swift": "public enum AllApps {}\n",
        "Tests/FeaturesTests/FeaturesTests.swift": "import Features\n",
        "Sockets/Branding.swift": """
        @usableFromInline let brandingSocket = Socket<any Branding>.required(
            "branding", summary: "the app's name, accent color and logo glyph")

        """,
        "Sockets/Tabs.swift": """
        @usableFromInline let tabsSocket = Socket<any Tabs>.required(
            "tabs", summary: "the tabs of the tab bar and their order")

        """,
        "Sockets/Direct.swift": """
        @usableFromInline let directSocket = Socket<(any Direct)?>.optional(
            "direct", summary: "direct messages (empty: no messages)", default: { nil })

        """,
    ]

    /// Makes the tree.
    init() throws {
        root =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("new-app-tests-\(UUID().uuidString)").path
        try write("Package.swift", Self.packageText)
        for (path, text) in Self.tundraFiles.merging(Self.otherFiles, uniquingKeysWith: { first, _ in first })
        {
            try write(path, text)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Writes `text` to `path` (relative to the root), making its folders.
    func write(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: "\(root)/\(path)")
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The text of the file at `path` (relative to the root).
    func read(_ path: String) throws -> String {
        try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8)
    }

    /// Every file and folder under the root, hidden ones too: a file's path maps to its bytes, a
    /// folder's (ending in `/`) to nothing.
    func snapshot() throws -> [String: Data] {
        var tree: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: root) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(root)/\(path)", isDirectory: &isDirectory)
            if isDirectory.boolValue {
                tree[path + "/"] = Data()
            } else {
                tree[path] = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(path)"))
            }
        }
        return tree
    }
}
