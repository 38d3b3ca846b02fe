import CommandLineKit
import Foundation
import Testing

@Suite struct PackageRootTests {
    /// A package root with a nested folder, in a fresh temporary directory.
    func scratch() throws -> (root: String, nested: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("root-\(UUID().uuidString)")
            .path
        let nested = root + "/Sources/Deep"
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.2\n".utf8).write(
            to: URL(fileURLWithPath: root + "/Package.swift"))
        return (root, nested)
    }

    @Test func withoutAGivenPath_theNearestDirectoryUpHoldingPackageSwift_isTheRoot() throws {
        let (root, nested) = try scratch()
        #expect(PackageRoot.find(nil, from: nested) == root)
        #expect(PackageRoot.find(nil, from: root) == root)
    }

    @Test func aGivenPath_isTheRootOnlyWhenItHoldsPackageSwift_relativeToTheDirectory() throws {
        let (root, nested) = try scratch()
        #expect(PackageRoot.find(root, from: "/") == root)
        let parent = (root as NSString).deletingLastPathComponent
        let name = (root as NSString).lastPathComponent
        #expect(PackageRoot.find(name, from: parent) == parent + "/" + name)
        #expect(
            PackageRoot.find(nested, from: "/") == nil,
            "a given folder without Package.swift is not searched up")
    }

    @Test func noPackageAnywhereUp_isNil() {
        #expect(PackageRoot.find(nil, from: "/proc/self") == nil)
    }
}
