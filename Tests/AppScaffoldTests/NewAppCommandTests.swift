import AppScaffold
import CommandLineKit
import Foundation
import Testing

@Suite struct NewAppCommandTests {
    /// Runs `new-app` on `package`, from a directory outside it unless `directory` is given.
    func run(_ arguments: [String], in package: ScratchPackage, from directory: String? = nil) -> (
        status: Int32, output: String, error: String
    ) {
        let output = CapturedTextOutput()
        let status = NewAppCommand.run(
            arguments: (directory == nil ? ["--package-dir", package.root] : []) + arguments, output: output,
            currentDirectory: directory ?? "/")
        return (status, output.output, output.error)
    }

    @Test func newApp_writesTheModelsFilesRenamed() throws {
        let package = try ScratchPackage()
        let before = try package.snapshot()

        let (status, _, error) = run(["Quill", "--like", "tundra"], in: package)

        #expect(status == 0)
        #expect(error == "")
        let after = try package.snapshot()
        let added = Set(after.keys).subtracting(before.keys).sorted()
        #expect(
            added == [
                "Apps/Quill/", "Apps/Quill/QuillApp/", "Apps/Quill/QuillApp/Providers/",
                "Apps/Quill/QuillApp/Providers/QuillBranding.swift",
                "Apps/Quill/QuillApp/Providers/QuillTabs.swift",
                "Apps/Quill/QuillApp/Quill.swift", "Apps/Quill/quill/", "Apps/Quill/quill/main.swift",
                "Manifests/quill.json",
            ])
        #expect(Set(before.keys).subtracting(after.keys).isEmpty)
        let changed = before.keys.filter { after[$0] != before[$0] }
        #expect(changed == ["Package.swift"])

        let library = try package.read("Apps/Quill/QuillApp/Quill.swift")
        #expect(library.contains("\npublic enum Quill {\n"))
        #expect(library.contains("/// Quill, the text-first app: its providers and its definition.\n"))
        #expect(library.contains("public static let id = \"quill\"\n"))
        #expect(
            library.contains(
                "Provider(id: \"quill.branding\", fills: .branding) { _ in QuillBranding() },"))
        #expect(library.contains("Provider(id: \"quill.tabs\", fills: .tabs) { _ in QuillTabs() },"))
        #expect(library.contains("= \"QUILL_DATA_DIR\"\n"))
        #expect(library.contains("compiled in from Manifests/quill.json.\n"))
        #expect(
            try package.read("Apps/Quill/quill/main.swift")
                == "import AppRuntime\nimport QuillApp\n\nawait AppLauncher.main(Quill.definition)\n")
        let branding = try package.read("Apps/Quill/QuillApp/Providers/QuillBranding.swift")
        #expect(branding.contains("struct QuillBranding: Branding {\n    let appName = \"Quill\"\n"))
        let manifest = try package.read("Manifests/quill.json")
        #expect(manifest.contains("\"app\": \"quill\",\n    \"displayName\": \"Quill\","))
        #expect(manifest.contains("\"branding\": \"quill.branding\",\n        \"tabs\": \"quill.tabs\"\n"))

        // Apart from the renames, each file is its model's, byte for byte.
        for (modelPath, modelText) in ScratchPackage.tundraFiles {
            let path = renamed(modelPath)
            #expect(try package.read(path) == renamed(modelText), "\(path)")
            #expect(!(try package.read(path)).lowercased().contains("tundra"), "\(path)")
        }
    }

    @Test(arguments: [("Aurora", 0), ("Quill", 1), ("Zephyr", 2)])
    func newApp_addsOneLineToTheAppsListInSortedPosition(name: String, position: Int) throws {
        let package = try ScratchPackage()
        let before = ScratchPackage.packageText.split(separator: "\n", omittingEmptySubsequences: false)

        let (status, _, _) = run([name, "--like", "Tundra"], in: package)

        #expect(status == 0)
        var after = try package.read("Package.swift").split(separator: "\n", omittingEmptySubsequences: false)
        let firstApp = try #require(before.firstIndex(of: "    \"Pebble\","))
        #expect(after.count == before.count + 1)
        #expect(after[firstApp + position] == "    \"\(name)\",")
        after.remove(at: firstApp + position)
        #expect(after == before, "every other line is as it was")
    }

    @Test func newApp_printsTheFilesItWroteAndWhatToDoNext() throws {
        let package = try ScratchPackage()

        let (status, output, _) = run(["Quill", "--like", "tundra"], in: package)

        #expect(status == 0)
        #expect(
            output == """
                new-app: wrote Quill, a copy of Tundra (Tundra → Quill, tundra → quill, TUNDRA → QUILL):
                  Apps/Quill/QuillApp/Providers/QuillBranding.swift
                  Apps/Quill/QuillApp/Providers/QuillTabs.swift
                  Apps/Quill/QuillApp/Quill.swift
                  Apps/Quill/quill/main.swift
                  Manifests/quill.json
                  Package.swift: added "Quill" to the list of apps

                Next:
                  1. Build and run it (so far it is Tundra under a new name):
                       swift build
                       swift run quill
                       swift run quill --headless
                  2. Check the manifests; the socket matrix has a column for quill:
                       swift run manifest-lint
                       swift run manifest-lint matrix
                  3. Make it Quill: each socket is filled as Tundra fills it; edit the providers that should \
                differ:
                       branding (Apps/Quill/QuillApp/Providers/QuillBranding.swift): \
                the app's name, accent color and logo glyph
                       tabs (Apps/Quill/QuillApp/Providers/QuillTabs.swift): \
                the tabs of the tab bar and their order
                     Tundra leaves these to their defaults; Quill may fill them (a provider in Providers/, \
                a line in Quill.swift and in its manifest):
                       direct (Sockets/Direct.swift): direct messages (empty: no messages)
                     Manifests/quill.json binds each socket to its provider.
                  4. Record the cross-app suite's goldens with quill in them, and review them:
                       LOOM_RECORD_GOLDEN=1 swift test --filter CrossAppRegressionTests
                       git status --short Tests/CrossAppRegressionTests/Golden

                """)
    }

    @Test func packageRoot_isFoundFromASubfolder() throws {
        let package = try ScratchPackage()

        let (status, _, error) = run(
            ["Quill", "--like", "pebble"], in: package, from: "\(package.root)/Modules/Features")

        #expect(status == 0, "\(error)")
        #expect(FileManager.default.fileExists(atPath: "\(package.root)/Apps/Quill/QuillApp/Quill.swift"))
        #expect(FileManager.default.fileExists(atPath: "\(package.root)/Apps/Quill/quill/main.swift"))
    }

    @Test func help_documentsTheArgumentsRefusalsAndExitStatuses() throws {
        let package = try ScratchPackage()

        let (status, output, error) = run(["--help"], in: package)

        #expect(status == 0)
        #expect(error == "")
        #expect(output == NewAppCommand.spec.helpText + "\n")
        #expect(output.hasPrefix("usage: new-app NAME --like APP [--package-dir DIR]\n"))
        for text in [
            "--like APP", "--package-dir DIR", "--version", "NAME  the new app's name",
            "refused (nothing is written)",
            "ending in App", "Swift keyword", "exit status: 0 when the app was written, 1 when refused",
            "2 on a usage error",
        ] {
            #expect(output.contains(text), "\(text)")
        }
    }

    @Test func version_printsTheToolsVersion() throws {
        let package = try ScratchPackage()
        #expect(run(["--version"], in: package) == (0, "new-app \(ToolVersion.current)\n", ""))
    }

    @Test(arguments: [
        (["--like", "tundra"], "missing the new app's name, such as 'Quill': new-app NAME --like APP"),
        (["Quill"], "missing --like APP, the app to copy: one of Pebble, Tundra"),
        (["Quill", "Ink", "--like", "tundra"], "unexpected argument 'Ink'"),
        (["Quill", "--like"], "option '--like' needs a value APP"),
        (["Quill", "--like", "tundra", "--dry-run"], "unknown option '--dry-run'"),
    ])
    func usageErrors_exitTwoAndWriteNothing(arguments: [String], message: String) throws {
        let package = try ScratchPackage()
        let before = try package.snapshot()

        let (status, output, error) = run(arguments, in: package)

        #expect(status == 2)
        #expect(output == "")
        #expect(error == "new-app: error: \(message)\nRun 'new-app --help' for usage.\n")
        #expect(try package.snapshot() == before)
    }

    @Test func noPackageRoot_isAUsageErrorNamingWhereItLooked() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
            "no-package-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let output = CapturedTextOutput()

        let given = NewAppCommand.run(
            arguments: ["Quill", "--like", "tundra", "--package-dir", empty], output: output,
            currentDirectory: "/")
        let searched = NewAppCommand.run(
            arguments: ["Quill", "--like", "tundra"], output: output, currentDirectory: empty)

        #expect(given == 2)
        #expect(searched == 2)
        let run = "Run 'new-app --help' for usage."
        #expect(
            output.error.split(separator: "\n") == [
                "new-app: error: no Package.swift in '\(empty)' (given with --package-dir); "
                    + "pass the package's root",
                "\(run)",
                "new-app: error: no Package.swift found in '\(empty)' or its parents; pass --package-dir",
                "\(run)",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty) == [])
    }

    private func renamed(_ text: String) -> String {
        text.replacingOccurrences(of: "Tundra", with: "Quill").replacingOccurrences(
            of: "tundra", with: "quill"
        )
        .replacingOccurrences(of: "TUNDRA", with: "QUILL")
    }
}
