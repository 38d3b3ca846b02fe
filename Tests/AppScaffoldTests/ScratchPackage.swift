import Foundation

/// A package tree in a fresh temporary directory, shaped like the repository where `new-app`
/// looks: a Package.swift with the list of apps and a few targets, Apps/Strand and Apps/Prism,
/// their manifests, and two sockets. Removed when released.
final class ScratchPackage {
    /// The package root.
    let root: String

    /// Package.swift as the scratch package starts.
    static let packageText = """
        // swift-tools-version: 6.2
        import PackageDescription

        let apps = [
            "Prism",
            "Strand",
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
    static let strandFiles = [
        "Apps/Strand/StrandApp/Strand.swift": """
        import AppRuntime
        import Composition
        import Sockets

        /// Strand, the text-first app: its providers and its definition.
        public enum Strand {
            /// Strand's app id, as its manifest names it.
            public static let id = "strand"

            /// The providers that make Strand itself.
            public static let providers = Catalog(providers: [
                Provider(id: "strand.branding", fills: .branding) { _ in StrandBranding() },
                Provider(id: "strand.tabs", fills: .tabs) { _ in StrandTabs() },
            ])

            /// The variable naming Strand's data directory.
            public static let dataDirectoryVariable = "STRAND_DATA_DIR"

            /// Strand's definition, with the manifest compiled in from Manifests/strand.json.
            public static let definition = AppDefinition(
                id: id, catalog: providers, manifest: BundledManifest.value)
        }

        """,
        "Apps/Strand/StrandApp/Providers/StrandBranding.swift": """
        import Sockets

        /// Strand's name, green accent and thread glyph.
        struct StrandBranding: Branding {
            let appName = "Strand"
            let accentColor = RGBColor(hex: 0x3DDC97)
            let logoGlyph = "@"
            let tagline = "Say it in words. Follow the thread."
        }

        """,
        "Apps/Strand/StrandApp/Providers/StrandTabs.swift": """
        import Sockets

        /// Strand's tab bar.
        struct StrandTabs: Tabs {
            let tabs = [Tab(title: "Home", destination: .home, glyph: "⌂")]
        }

        """,
        "Apps/Strand/strand/main.swift": """
        import AppRuntime
        import StrandApp

        await AppLauncher.main(Strand.definition)

        """,
        "Manifests/strand.json": """
        {
            "app": "strand",
            "displayName": "Strand",
            "version": "0.1.0",
            "sockets": {
                "branding": "strand.branding",
                "tabs": "strand.tabs"
            },
            "services": ["storage.database"]
        }

        """,
    ]

    /// Everything else the scratch package holds, by path.
    static let otherFiles = [
        "Apps/Prism/PrismApp/Prism.swift": "public enum Prism {}\n",
        "Apps/Prism/prism/main.swift": "import PrismApp\n",
        "Manifests/prism.json": "{ \"app\": \"prism\" }\n",
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
        for (path, text) in Self.strandFiles.merging(Self.otherFiles, uniquingKeysWith: { first, _ in first })
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
