import AllApps
import Composition
import Foundation
import ManifestLint
import ManifestLintTesting
import Testing

enum LintFixtures {
    /// The package root.
    static let packageRoot = LintRun.packageRoot

    static let apps = LintRun.apps

    /// The app whose manifest each fixture breaks (``LintRun/modelApp``): its id is written into
    /// the fixtures and into the diagnostics expected of them, for `APP`.
    static var id: String { LintRun.modelApp.id }

    /// A manifest of the model app broken one way: its bytes, written as `<id>.json`. Each
    /// fixture keeps the lines and columns its expected diagnostic names whatever the app's id
    /// (the id stands last on its line, or is cut where the break is).
    static func manifest(_ fixture: String) throws -> [UInt8] {
        let id = id
        func sockets(_ lines: [String]) -> String {
            "{\n    \"app\": \"\(id)\",\n    \"displayName\": \"Fixture\",\n    \"version\": \"0.1.0\",\n"
                + "    \"sockets\": {\n" + lines.map { "        " + $0 }.joined(separator: ",\n")
                + "\n    },\n    \"services\": []\n}\n"
        }
        func bound(_ socket: String, _ provider: String? = nil) -> String {
            "\"\(socket)\": \"\(id).\(provider ?? socket)\""
        }
        switch fixture {
        case "malformed-json":
            return Array(sockets([bound("branding") + ","]).utf8)
        case "unknown-key":
            return Array(
                "{\n    \"app\": \"\(id)\",\n    \"displayName\": \"Fixture\",\n    \"version\": \"0.1.0\",\n    \"socket\": {},\n    \"services\": []\n}\n"
                    .utf8)
        case "missing-socket":
            return Array(
                sockets(["branding", "feedPolicy", "postLayout", "replyModel", "tabs"].map { bound($0) }).utf8
            )
        case "unknown-provider":
            return Array(
                sockets([
                    bound("branding"), bound("feedPolicy", "feed"), bound("postLayout"),
                    bound("composerPolicy"),
                    bound("replyModel"), bound("tabs"),
                ]).utf8)
        case "wrong-socket":
            return Array(
                sockets([
                    bound("branding"), bound("feedPolicy"), bound("postLayout"), bound("composerPolicy"),
                    bound("replyModel", "tabs"), bound("tabs"),
                ]).utf8)
        case "empty":
            return []
        case "not-utf8":
            // A Latin-1 "é" (0xE9) in the id's place: line 2, column 16.
            return Array("{\n    \"app\": \"\(id.prefix(3))".utf8) + [0xE9]
                + Array("\(id.dropFirst(3))\"\n}\n".utf8)
        case "duplicate-key":
            return Array(sockets([bound("branding"), bound("branding")]).utf8)
        case "unknown-app":
            return Array(
                "{\n    \"app\": \"\(misspelled)\",\n    \"displayName\": \"Fixture\",\n    \"version\": \"0.1.0\",\n    \"sockets\": {},\n    \"services\": []\n}\n"
                    .utf8)
        default:
            throw FixtureError(description: "no fixture named '\(fixture)'")
        }
    }

    /// The model app's id with its second letter left out: one edit from the real one.
    static var misspelled: String { String(id.prefix(1) + id.dropFirst(2)) }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
    }

    /// The diagnostics of checking `fixture`, written alone to a scratch directory, against the
    /// model app alone.
    static func problems(_ fixture: String) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lint-fixture-\(fixture)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(try manifest(fixture)).write(to: URL(fileURLWithPath: "\(directory)/\(id).json"))
        let result = ManifestCheck(apps: [LintRun.modelApp]).run(
            directory: directory, displayDirectory: "Manifests")
        return result.diagnostics.map(\.description)
    }
}
