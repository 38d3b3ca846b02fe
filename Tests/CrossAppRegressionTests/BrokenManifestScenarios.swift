import AppRuntime
import AppTesting
import CommandLineKit
import Composition
import Foundation
import Testing

/// An engineer's slip in an app's manifest: the app refuses to start and says where and what,
/// in the file's own lines and columns, every problem once, in the file's order.
@Suite @MainActor struct BrokenManifestScenarios {
    /// `app` with its manifest's text changed by `edit`.
    static func definition(_ app: ShippedApp, _ edit: (String) -> String) -> AppDefinition {
        let manifest = app.definition.manifest
        return AppDefinition(
            id: app.id, catalog: app.definition.catalog,
            manifest: EmbeddedManifest(path: manifest.path, contents: edit(manifest.contents)))
    }

    /// What the app says when started (`--version` reads the manifest and nothing else; a
    /// launch checks it against the catalog too).
    static func start(_ definition: AppDefinition, launching: Bool) async throws -> (
        status: Int32, errors: String
    ) {
        if launching {
            let run = await HeadlessHarness.run(
                definition, script: "frame\n", directories: try TestDirectories.make(), oracle: false)
            return (run.status, run.errors)
        }
        let output = CapturedTextOutput()
        let status = await AppLauncher.run(definition, arguments: ["--version"], output: output)
        return (status, output.error)
    }

    /// A slip, how to make it in an app's manifest, and what the app must say (each line after
    /// the app's first, `<file>:<line>:<column>: error: ...`, in the file's order).
    struct Slip {
        let name: String
        let launching: Bool
        let edit: (String) -> String
        let expected: (_ file: String, _ text: String) -> [String]
    }

    static let slips: [Slip] = [
        // Saved empty (an editor's crash, a bad merge): said to be empty, with the keys it needs.
        Slip(
            name: "blank", launching: false, edit: { _ in "\n  \t\n" },
            expected: { file, _ in
                [
                    "\(file):1:1: error: manifest is empty; expected a JSON object with the keys \"app\", \"displayName\", \"version\", \"sockets\", \"services\""
                ]
            }),
        // A generated value gone wrong: nesting past the limit is refused where it passes it
        // (the top-level object is the first level, so the 256th bracket makes 257).
        Slip(
            name: "nested too deep", launching: false,
            edit: { text in
                text.replacingOccurrences(
                    of: "\"version\": \"0.1.0\"",
                    with: "\"version\": " + String(repeating: "[", count: 300)
                        + String(repeating: "]", count: 300))
            },
            expected: { file, text in
                let at = position(of: "[", in: text)
                return [
                    "\(file):\(at.line):\(at.column + 255): error: invalid JSON: JSON nested deeper than 256 levels"
                ]
            }),
        // Two problems: both are said, the missing key (at the object's start) first.
        Slip(
            name: "a key deleted, a name made a number", launching: false,
            edit: { text in
                text.replacingOccurrences(of: "    \"version\": \"0.1.0\",\n", with: "")
                    .replacing(#/"displayName": "[^"]*"/#, with: "\"displayName\": 7")
            },
            expected: { file, text in
                let name = position(of: "7,", in: text)
                return [
                    "\(file):1:1: error: manifest is missing the required key 'version'",
                    "\(file):\(name.line):\(name.column): error: 'displayName' must be a string, found a number 7",
                ]
            }),
        // A service written as an object, with its events as one string and no id: the events
        // are what is wrong (the missing id follows from it and is not said again).
        Slip(
            name: "events not an array", launching: false,
            edit: { $0.replacingOccurrences(of: "\"photo.art\"", with: "{\"events\": \"launch\"}") },
            expected: { file, text in
                let value = position(of: "\"launch\"", in: text)
                return [
                    "\(file):\(value.line):\(value.column): error: 'events' must be an array of lifecycle event names, found a string"
                ]
            }),
        Slip(
            name: "a service's id under another key", launching: false,
            edit: { $0.replacingOccurrences(of: "\"photo.art\"", with: "{\"name\": \"photo.art\"}") },
            expected: { file, text in
                let key = position(of: "\"name\"", in: text)
                return [
                    "\(file):\(key.line):\(key.column): error: unknown key 'name' in service entry (allowed keys: id, events)"
                ]
            }),
        // A control character pasted in: named by its code, not drawn.
        Slip(
            name: "a control character", launching: false,
            edit: { $0.replacingOccurrences(of: "\"version\"", with: "\u{7F}\"version\"") },
            expected: { file, text in
                let at = position(of: "\u{7F}", in: text)
                return [
                    "\(file):\(at.line):\(at.column): error: invalid JSON: expected a string key in the object, found byte 0x7F"
                ]
            }),
        // Checked against the catalog at launch: a name too long for the title bar, where it
        // is written, and a service enabled twice.
        Slip(
            name: "a display name too long", launching: true,
            edit: {
                $0.replacingOccurrences(
                    of: "\"displayName\": \"", with: "\"displayName\": \"" + String(repeating: "x", count: 65)
                )
            },
            expected: { file, text in
                let value = position(of: "\"xxx", in: text)
                let name = text.components(separatedBy: "\"displayName\": \"")[1].prefix { $0 != "\"" }
                let shown = String(repeating: "x", count: 60) + "… (\(name.count) characters)"
                return [
                    "\(file):\(value.line):\(value.column): error: display name '\(shown)' is too long; it may have at most 64 characters"
                ]
            }),
        Slip(
            name: "a service enabled twice", launching: true,
            edit: { $0.replacingOccurrences(of: "\"photo.art\"", with: "\"photo.art\", \"photo.art\"") },
            expected: { file, text in
                let first = position(of: "\"photo.art\"", in: text)
                return [
                    "\(file):\(first.line):\(first.column + 13): error: service 'photo.art' is enabled twice (first at line \(first.line), column \(first.column))"
                ]
            }),
    ]

    /// The first line and column (1-based) of `needle` in `text`; (0, 0) when it is not there.
    static func position(of needle: String, in text: String) -> (line: Int, column: Int) {
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if let range = line.range(of: needle) {
                return (index + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1)
            }
        }
        return (0, 0)
    }

    @Test(arguments: ShippedApp.all)
    func aSlipInTheManifest_isRefusedWithWhereAndWhat_everyProblemOnceInFileOrder(app: ShippedApp)
        async throws
    {
        for slip in Self.slips {
            // Given the app's manifest with the slip made in it
            let definition = Self.definition(app, slip.edit)
            let text = definition.manifest.contents
            #expect(
                text != app.definition.manifest.contents, "\(app.id), \(slip.name): the slip was not made")

            // When the app starts, then it exits 1 and says exactly where and what
            let (status, errors) = try await Self.start(definition, launching: slip.launching)
            #expect(status == 1, "\(app.id), \(slip.name): exit status \(status)")
            let said = errors.split(separator: "\n").dropFirst().map(String.init)
            #expect(
                said == slip.expected(definition.manifest.path, text),
                "\(app.id), \(slip.name):\n\(errors)")
            #expect(
                errors.hasPrefix("\(app.id): error: invalid manifest"),
                "\(app.id), \(slip.name): the first line names the app:\n\(errors)")
        }
    }
}
