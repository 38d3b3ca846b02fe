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

    @Test func repositoryPackageGraph_followsTheRules() throws {
        let check = try PackageGraphCheck.dumpingPackage(at: LintFixtures.packageRoot)
        #expect(check.targets.contains { $0.name == "Composition" })
        #expect(check.run().map(\.description) == [])
    }
}
