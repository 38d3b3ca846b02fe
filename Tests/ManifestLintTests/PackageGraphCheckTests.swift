import Composition
import Foundation
import ManifestLint
import Testing

@Suite struct PackageGraphCheckTests {
    typealias Target = PackageGraphCheck.Target

    @Test func moduleDependingOnAnApp_isReported() {
        let check = PackageGraphCheck(targets: [
            Target(name: "Features", path: "Modules/Features", dependencies: ["PhotosApp"]),
            Target(name: "PhotosApp", path: "Apps/Photos/PhotosApp", dependencies: []),
        ])
        #expect(
            check.run().map(\.description) == [
                "Package.swift:1:1: error: shared target 'Features' (Modules/Features) depends on 'PhotosApp' of app 'Photos'; shared code must ask a socket instead"
            ])
    }

    @Test func appDependingOnAnotherApp_isReported() {
        let check = PackageGraphCheck(targets: [
            Target(name: "NotesApp", path: "Apps/Notes/NotesApp", dependencies: ["PhotosApp"]),
            Target(name: "PhotosApp", path: "Apps/Photos/PhotosApp", dependencies: []),
        ])
        #expect(check.run().map(\.code) == ["app-depends-on-app"])
    }

    @Test func lowerLayerDependingOnAHigherOne_isReported() {
        let check = PackageGraphCheck(targets: [
            Target(name: "Backend", path: "Modules/Backend", dependencies: ["Networking"]),
            Target(name: "Networking", path: "Modules/Networking", dependencies: []),
        ])
        #expect(
            check.run().map(\.message) == [
                "module 'Backend' depends on 'Networking', but it may only use Basics, COpenSSL, Composition, Imaging, MediaModel, Storage, Wire "
                    + "(the dependency rules: PackageGraphCheck.allowedDependencies, and the README)"
            ])
    }

    @Test func dumpPackageJSON_isRead() throws {
        let json = """
            {"targets": [
              {"name": "Composition", "path": "Modules/Composition", "type": "regular", "dependencies": []},
              {"name": "Sockets", "path": "Sockets", "type": "regular",
               "dependencies": [{"byName": ["Composition", null]}, {"target": ["MediaModel", null]}]}
            ]}
            """
        let check = try PackageGraphCheck(dumpPackageJSON: Data(json.utf8))
        #expect(check.targets.map(\.dependencies) == [[], ["Composition", "MediaModel"]])
        #expect(check.run().isEmpty)
    }

    @Test func dumpPackageJSON_readsKindsExclusionsAndPlugins() throws {
        let json = """
            {"targets": [
              {"name": "PrismApp", "path": "Apps/Prism/PrismApp", "type": "regular", "dependencies": [],
               "pluginUsages": [{"plugin": ["ManifestEmbedder", null]}]},
              {"name": "CJPEG", "path": "Modules/CJPEG", "type": "system", "dependencies": []},
              {"name": "LintTests", "path": "Tests/LintTests", "type": "test", "dependencies": [],
               "exclude": ["Golden"], "resources": [{"path": "Fixtures", "rule": {"copy": {}}}]}
            ]}
            """
        let check = try PackageGraphCheck(dumpPackageJSON: Data(json.utf8))
        #expect(check.targets.map(\.kind) == [.regular, .system, .test])
        #expect(check.targets.map(\.plugins) == [["ManifestEmbedder"], [], []])
        #expect(check.targets.map(\.excluded) == [[], [], ["Golden", "Fixtures"]])
    }

    @Test func repositoryPackageGraph_followsTheRules() throws {
        let check = try PackageGraphCheck.dumpingPackage(at: LintFixtures.packageRoot)
        #expect(check.targets.contains { $0.name == "Composition" })
        #expect(check.run().map(\.description) == [])
    }

    @Test func screens_andWhatTheyBuildOn_linkNeitherTheLiveClientNorOpenSSL() throws {
        // The screens compile against the API's interface: a screen test runs on a stub
        // transport, and only the composition (Networking, AppRuntime) links sockets and TLS.
        let check = try PackageGraphCheck.dumpingPackage(at: LintFixtures.packageRoot)
        let byName = Dictionary(check.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func closure(_ name: String) -> Set<String> {
            var seen: Set<String> = []
            var next = [name]
            while let current = next.popLast() {
                for dependency in byName[current]?.dependencies ?? [] where seen.insert(dependency).inserted {
                    next.append(dependency)
                }
            }
            return seen
        }
        for module in ["Features", "DirectMessages", "FeedCaching", "Mutations", "ServerAPI"] {
            let reached = closure(module)
            #expect(reached.contains("Wire"), "\(module) should reach Wire's Transport")
            #expect(
                reached.isDisjoint(with: ["HTTPClient", "COpenSSL", "Backend", "Networking"]),
                "\(module) reaches \(reached.intersection(["HTTPClient", "COpenSSL", "Backend", "Networking"]).sorted())"
            )
        }
        #expect(closure("Networking").contains("HTTPClient"))
    }

    @Test func repositoryTargets_importExactlyWhatTheyDeclare() throws {
        let check = try PackageGraphCheck.dumpingPackage(at: LintFixtures.packageRoot)
        #expect(check.targets.count > 50)
        #expect(check.dependencyDiagnostics(root: LintFixtures.packageRoot).map(\.description) == [])
    }
}

/// The dependency-truth check: each target's imports against its declared dependencies, on
/// scratch packages written to a temporary directory.
@Suite struct PackageGraphImportTests {
    typealias Target = PackageGraphCheck.Target

    @Test func undeclaredImport_isAnErrorAtItsFirstImportingLine_sayingHowToFixIt() throws {
        // Given AppRuntime importing ListEngine in two files without declaring it
        let package = try ScratchPackage([
            "Package.swift": """
            // swift-tools-version: 6.2
            import PackageDescription

            let package = Package(
                name: "Scratch",
                targets: [
                    .target(name: "Basics", path: "Modules/Basics"),
                    .target(name: "ListEngine", path: "Modules/ListEngine"),
                    .target(name: "AppRuntime", dependencies: ["Basics"], path: "Modules/AppRuntime"),
                ]
            )
            """,
            "Modules/Basics/Basics.swift": "public enum Basics {}\n",
            "Modules/ListEngine/ListEngine.swift": "import Foundation\n",
            "Modules/AppRuntime/Runtime.swift": """
            import Basics
            import Foundation
            // import ListEngine (a comment is not an import)
            @testable import ListEngine
            """,
            "Modules/AppRuntime/Session.swift": "import ListEngine\nimport Synchronization\n",
        ])
        defer { package.remove() }
        let check = PackageGraphCheck(targets: [
            Target(name: "Basics", path: "Modules/Basics", dependencies: []),
            Target(name: "ListEngine", path: "Modules/ListEngine", dependencies: []),
            Target(name: "AppRuntime", path: "Modules/AppRuntime", dependencies: ["Basics"]),
        ])

        // When the imports are checked
        let diagnostics = check.dependencyDiagnostics(root: package.root)

        // Then one error names the first importing line, the other file and the fix
        #expect(
            diagnostics.map(\.description) == [
                "Modules/AppRuntime/Runtime.swift:4:1: error: target 'AppRuntime' imports 'ListEngine' without declaring it (here and in 1 other file); add \"ListEngine\" to the dependencies of target 'AppRuntime' in Package.swift"
            ])
        #expect(diagnostics.map(\.code) == ["undeclared-import"])
    }

    @Test(
        arguments: [
            ("@_exported import ListEngine", "ListEngine"),
            ("internal import ListEngine", "ListEngine"),
            ("package import ListEngine", "ListEngine"),
            ("public import ListEngine", "ListEngine"),
            ("@_spi(Testing) @testable import ListEngine", "ListEngine"),
            ("@preconcurrency import ListEngine", "ListEngine"),
            ("import struct ListEngine.ListDiff", "ListEngine"),
            ("import ListEngine.Internal", "ListEngine"),
            ("#if canImport(ListEngine)\n#endif", "ListEngine"),
            ("@testable import backend_server", "backend-server"),
            ("import Foundation\nimport Testing\nimport Glibc", nil),
            ("// import ListEngine", nil),
            ("/* import ListEngine */", nil),
            ("let text = \"import ListEngine\"", nil),
            ("let text = \"\"\"\n    import ListEngine\n    \"\"\"", nil),
            ("let important = ListEngine.self", nil),
        ] as [(String, String?)])
    func importForms_countAsImportsOfTheirModule(source: String, imported: String?) throws {
        let package = try ScratchPackage(["Modules/AppRuntime/Runtime.swift": source + "\n"])
        defer { package.remove() }
        let check = PackageGraphCheck(targets: [
            Target(name: "ListEngine", path: "Modules/ListEngine", dependencies: []),
            Target(name: "backend-server", path: "tools/backend-server", dependencies: [], kind: .executable),
            Target(name: "AppRuntime", path: "Modules/AppRuntime", dependencies: []),
        ])
        let diagnostics = check.dependencyDiagnostics(root: package.root)
        #expect(
            diagnostics.map(\.description)
                == (imported.map {
                    [
                        "Modules/AppRuntime/Runtime.swift:1:1: error: target 'AppRuntime' imports '\($0)' without declaring it; add \"\($0)\" to the dependencies of target 'AppRuntime' in Package.swift"
                    ]
                } ?? []),
            "\(source)")
    }

    @Test func unusedDependency_isAnErrorAtItsPackageSwiftLine() throws {
        // Given AppRuntime declaring ListEngine and the system library CJPEG and importing neither
        let package = try ScratchPackage([
            "Package.swift": """
            // swift-tools-version: 6.2
            import PackageDescription

            let package = Package(
                name: "Scratch",
                targets: [
                    .target(name: "Basics", path: "Modules/Basics"),
                    .target(name: "ListEngine", path: "Modules/ListEngine"),
                    .systemLibrary(name: "CJPEG", path: "Modules/CJPEG"),
                    .target(
                        name: "AppRuntime",
                        dependencies: [
                            "Basics",
                            "ListEngine", "CJPEG",
                        ],
                        path: "Modules/AppRuntime"),
                ]
            )
            """,
            "Modules/AppRuntime/Runtime.swift": "import Basics\n",
        ])
        defer { package.remove() }
        let check = PackageGraphCheck(targets: [
            Target(name: "Basics", path: "Modules/Basics", dependencies: []),
            Target(name: "ListEngine", path: "Modules/ListEngine", dependencies: []),
            Target(name: "CJPEG", path: "Modules/CJPEG", dependencies: [], kind: .system),
            Target(
                name: "AppRuntime", path: "Modules/AppRuntime",
                dependencies: ["Basics", "ListEngine", "CJPEG"]),
        ])

        // When the imports are checked
        let diagnostics = check.dependencyDiagnostics(root: package.root)

        // Then each unused dependency is an error at its line and column in Package.swift
        #expect(
            diagnostics.map(\.description) == [
                "Package.swift:14:17: error: target 'AppRuntime' declares a dependency on 'ListEngine' but none of its sources (Modules/AppRuntime) imports it; remove \"ListEngine\" from the dependencies of target 'AppRuntime' in Package.swift",
                "Package.swift:14:31: error: target 'AppRuntime' declares a dependency on 'CJPEG' but none of its sources (Modules/AppRuntime) imports it; remove \"CJPEG\" from the dependencies of target 'AppRuntime' in Package.swift (a C target that needs the library links it itself, with linkerSettings)",
            ])
        #expect(diagnostics.map(\.code) == ["unused-dependency", "unused-dependency"])
    }

    @Test func dependencyDeclaredThroughAHelper_isFoundInTheHelpersCall() throws {
        // Given targets declared through helper functions, the way the repository's Package.swift does
        let package = try ScratchPackage([
            "Package.swift": """
            // swift-tools-version: 6.2
            import PackageDescription

            func module(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
                .target(name: name, dependencies: dependencies, path: "Modules/\\(name)")
            }

            func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
                .testTarget(name: "\\(name)Tests", dependencies: dependencies, path: "Tests/\\(name)Tests")
            }

            let package = Package(
                name: "Scratch",
                targets: [
                    module("Basics"),
                    module("Wire", ["Basics"]),
                    tests("Basics", ["Basics"]),
                    tests("Wire", ["Wire", "Basics"]),
                ]
            )
            """,
            "Modules/Wire/Wire.swift": "import Basics\n",
            "Tests/BasicsTests/BasicsTests.swift": "import Basics\n",
            "Tests/WireTests/WireTests.swift": "import Testing\nimport Wire\n",
        ])
        defer { package.remove() }
        let check = PackageGraphCheck(targets: [
            Target(name: "Basics", path: "Modules/Basics", dependencies: []),
            Target(name: "Wire", path: "Modules/Wire", dependencies: ["Basics"]),
            Target(name: "BasicsTests", path: "Tests/BasicsTests", dependencies: ["Basics"], kind: .test),
            Target(
                name: "WireTests", path: "Tests/WireTests", dependencies: ["Wire", "Basics"], kind: .test),
        ])
        #expect(
            check.dependencyDiagnostics(root: package.root).map(\.description) == [
                "Package.swift:18:32: error: target 'WireTests' declares a dependency on 'Basics' but none of its sources (Tests/WireTests) imports it; remove \"Basics\" from the dependencies of target 'WireTests' in Package.swift"
            ])
    }

    @Test func cTargetDependencyWhoseHeadersItDoesNotInclude_isUnused() throws {
        // Given a C target declaring two system libraries and including the headers of one
        let package = try ScratchPackage([
            "Package.swift": """
            // swift-tools-version: 6.2
            import PackageDescription

            let package = Package(
                name: "Scratch",
                targets: [
                    .systemLibrary(name: "CJPEG", path: "Modules/CJPEG"),
                    .systemLibrary(name: "CPNG", path: "Modules/CPNG"),
                    .target(
                        name: "CImageCodecs", dependencies: ["CJPEG", "CPNG"], path: "Modules/CImageCodecs",
                        linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]),
                ]
            )
            """,
            "Modules/CJPEG/module.modulemap":
                "module CJPEG [system] {\n    header \"shim.h\"\n    link \"jpeg\"\n}\n",
            "Modules/CJPEG/shim.h": "#include <stddef.h>\n#include <stdio.h>\n#include <jpeglib.h>\n",
            "Modules/CPNG/module.modulemap":
                "module CPNG [system] {\n    header \"shim.h\"\n    link \"png16\"\n}\n",
            "Modules/CPNG/shim.h": "#include <stdio.h>\n#include <png.h>\n",
            "Modules/CImageCodecs/ImageCodecs.c":
                "#include \"ImageCodecs.h\"\n#include <stdio.h>\n#include <jpeglib.h>\n",
            "Modules/CImageCodecs/include/ImageCodecs.h": "#include <stddef.h>\n",
        ])
        defer { package.remove() }
        let check = PackageGraphCheck(targets: [
            Target(name: "CJPEG", path: "Modules/CJPEG", dependencies: [], kind: .system),
            Target(name: "CPNG", path: "Modules/CPNG", dependencies: [], kind: .system),
            Target(name: "CImageCodecs", path: "Modules/CImageCodecs", dependencies: ["CJPEG", "CPNG"]),
        ])
        #expect(
            check.dependencyDiagnostics(root: package.root).map(\.description) == [
                "Package.swift:10:59: error: target 'CImageCodecs' declares a dependency on 'CPNG' but none of its sources (Modules/CImageCodecs) includes its headers (png.h); remove \"CPNG\" from the dependencies of target 'CImageCodecs' in Package.swift"
            ])
    }

    @Test func cleanPackage_withToolchainModules_plugins_executablesAndExcludedFiles_hasNoDiagnostics() throws
    {
        let package = try ScratchPackage([
            "Package.swift": "// swift-tools-version: 6.2\n",
            "Modules/Composition/Composition.swift": "import Foundation\nimport Synchronization\n",
            "Modules/CJPEG/module.modulemap": "module CJPEG [system] {\n    header \"shim.h\"\n}\n",
            "Modules/CJPEG/shim.h": "#include <stdio.h>\n#include <jpeglib.h>\n",
            "Modules/CImageCodecs/ImageCodecs.c": "#include \"ImageCodecs.h\"\n#include <jpeglib.h>\n",
            "Modules/CImageCodecs/include/ImageCodecs.h": "#include <stddef.h>\n",
            "Modules/Imaging/Imaging.swift": """
            internal import CImageCodecs
            public import struct Composition.Manifest
            #if canImport(Glibc)
                import Glibc
            #endif
            """,
            // Composition is imported by the code the ManifestEmbedder plugin generates.
            "Apps/Prism/PrismApp/Prism.swift": "import Foundation\n",
            "tools/manifest-embed/main.swift": "import Composition\n",
            "tools/ManifestEmbedder/ManifestEmbedder.swift": "import PackagePlugin\n",
            "Tests/ImagingTests/ImagingTests.swift": "@testable import Imaging\nimport Testing\n",
            "Tests/ImagingTests/Golden/Old.swift": "import Composition\n",
            "Tests/ImagingTests/Fixtures/Fixture.swift": "import Composition\n",
        ])
        defer { package.remove() }
        let check = PackageGraphCheck(targets: [
            Target(name: "Composition", path: "Modules/Composition", dependencies: []),
            Target(name: "CJPEG", path: "Modules/CJPEG", dependencies: [], kind: .system),
            Target(name: "CImageCodecs", path: "Modules/CImageCodecs", dependencies: ["CJPEG"]),
            Target(name: "Imaging", path: "Modules/Imaging", dependencies: ["CImageCodecs", "Composition"]),
            Target(
                name: "PrismApp", path: "Apps/Prism/PrismApp", dependencies: ["Composition"],
                plugins: ["ManifestEmbedder"]),
            Target(
                name: "manifest-embed", path: "tools/manifest-embed", dependencies: ["Composition"],
                kind: .executable),
            Target(
                name: "ManifestEmbedder", path: "tools/ManifestEmbedder", dependencies: ["manifest-embed"],
                kind: .plugin),
            // The tests run the executable, so they declare it without importing it.
            Target(
                name: "ImagingTests", path: "Tests/ImagingTests",
                dependencies: ["Imaging", "manifest-embed"],
                kind: .test, excluded: ["Golden", "Fixtures"]),
        ])
        #expect(check.dependencyDiagnostics(root: package.root).map(\.description) == [])
    }

    @Test func pluginWhoseGeneratedCodeImportsAnUndeclaredModule_isAnErrorAtTheTarget() throws {
        // Given PrismApp using ManifestEmbedder, whose generated code imports Composition, without
        // declaring Composition
        let package = try ScratchPackage([
            "Package.swift": """
            // swift-tools-version: 6.2
            import PackageDescription

            let package = Package(
                name: "Scratch",
                targets: [
                    .target(name: "Composition", path: "Modules/Composition"),
                    .target(
                        name: "PrismApp", path: "Apps/Prism/PrismApp",
                        plugins: [.plugin(name: "ManifestEmbedder")]),
                ]
            )
            """,
            "Apps/Prism/PrismApp/Prism.swift": "import Foundation\n",
        ])
        defer { package.remove() }
        let check = PackageGraphCheck(targets: [
            Target(name: "Composition", path: "Modules/Composition", dependencies: []),
            Target(
                name: "PrismApp", path: "Apps/Prism/PrismApp", dependencies: [], plugins: ["ManifestEmbedder"]
            ),
        ])
        #expect(
            check.dependencyDiagnostics(root: package.root).map(\.description) == [
                "Package.swift:10:37: error: target 'PrismApp' uses plugin 'ManifestEmbedder', whose generated code imports 'Composition', without declaring it; add \"Composition\" to the dependencies of target 'PrismApp' in Package.swift"
            ])
    }

    @Test func generatedImports_areTheImportsOfManifestEmbedsTemplate() throws {
        // The plugin runs manifest-embed, whose output is the Swift text inside its string literal.
        let source = try String(
            contentsOfFile: "\(LintFixtures.packageRoot)/tools/manifest-embed/main.swift", encoding: .utf8)
        let template = try #require(
            source.components(separatedBy: "let source = \"\"\"").dropFirst().first?.components(
                separatedBy: "\"\"\""
            ).first)
        let imports = template.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            return words.count == 2 && words[0] == "import" ? String(words[1]) : nil
        }
        #expect(imports == ["Composition"])
        #expect(PackageGraphCheck.generatedImports["ManifestEmbedder"] == ["Composition"])
    }

    @Test func generatedImports_areTheImportsOfAppIndexsOutput() throws {
        // app-index writes Composition's import, then one import per app library it is given.
        let source = try String(
            contentsOfFile: "\(LintFixtures.packageRoot)/tools/app-index/main.swift", encoding: .utf8)
        #expect(source.contains(#"import Composition\n""#))
        #expect(source.contains(#"for library in libraries { text += "import \(library)\n" }"#))
        #expect(PackageGraphCheck.generatedImports["AppIndex"] == ["Composition"])
        #expect(PackageGraphCheck.pluginsImportingApps == ["AppIndex"])
        #expect(Set(PackageGraphCheck.generatedImports.keys) == ["ManifestEmbedder", "AppIndex"])
    }
}

/// A package on disk: each file, by its path from the root, with its text.
struct ScratchPackage {
    let root: String

    init(_ files: [String: String]) throws {
        root =
            FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)").path
        for (path, text) in files {
            let url = URL(fileURLWithPath: "\(root)/\(path)")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
