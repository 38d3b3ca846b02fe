import AppScaffold
import CommandLineKit
import Foundation
import Testing

/// One way `new-app` refuses: the arguments, what the scratch package holds first, and the error.
struct Refusal: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var arguments: [String]
    var prepare: @Sendable (ScratchPackage) throws -> Void = { _ in }
    var error: String

    static let all: [Refusal] = [
        Refusal(
            testDescription: "a character no identifier holds",
            arguments: ["Quill-Notes", "--like", "tundra"],
            error: "'Quill-Notes' has '-', which an app's name cannot hold: it names Swift types, a folder "
                + "and a command, so it may use ASCII letters and digits only; try 'QuillNotes'"),
        Refusal(
            testDescription: "a non-ASCII letter", arguments: ["Plumé", "--like", "tundra"],
            error: "'Plumé' has 'é', which an app's name cannot hold: it names Swift types, a folder and a "
                + "command, so it may use ASCII letters and digits only"),
        Refusal(
            testDescription: "a lowercase start", arguments: ["quill", "--like", "tundra"],
            error: "'quill' must start with an uppercase letter: the app's types are named after it "
                + "(<Name>, <Name>App, <Name>Branding); try 'Quill'"),
        Refusal(
            testDescription: "a digit first", arguments: ["2Quill", "--like", "tundra"],
            error: "'2Quill' must start with an uppercase letter: the app's types are named after it "
                + "(<Name>, <Name>App, <Name>Branding)"),
        Refusal(
            testDescription: "an empty name", arguments: ["", "--like", "tundra"],
            error: "the app's name is empty; give one such as 'Quill'"),
        Refusal(
            testDescription: "a name in the apps list, in another case",
            arguments: ["PEBBLE", "--like", "tundra"],
            error: "'PEBBLE' is taken: Package.swift's list of apps has 'Pebble'; pick another name"),
        Refusal(
            testDescription: "a taken folder", arguments: ["Quill", "--like", "tundra"],
            prepare: { try $0.write("Apps/Quill/notes.txt", "mine\n") },
            error: "'Quill' is taken: Apps/Quill already exists; pick another name"),
        Refusal(
            testDescription: "a taken manifest", arguments: ["Quill", "--like", "tundra"],
            prepare: { try $0.write("Manifests/quill.json", "{}\n") },
            error: "'Quill' is taken: Manifests/quill.json already exists; pick another name"),
        Refusal(
            testDescription: "a module's name", arguments: ["Features", "--like", "tundra"],
            error: "'Features' is reserved: the app's targets would be 'FeaturesApp' and 'features', and "
                + "Package.swift already names a target or product 'Features'; pick another name"),
        Refusal(
            testDescription: "a tool's name in another case", arguments: ["Bench", "--like", "tundra"],
            error: "'Bench' is reserved: the app's targets would be 'BenchApp' and 'bench', and "
                + "Package.swift already names a target or product 'bench'; pick another name"),
        Refusal(
            testDescription: "a target declared with name:", arguments: ["Backend", "--like", "tundra"],
            error: "'Backend' is reserved: the app's targets would be 'BackendApp' and 'backend', and "
                + "Package.swift already names a target or product 'Backend'; pick another name"),
        Refusal(
            testDescription: "a tests folder's name", arguments: ["FeaturesTests", "--like", "tundra"],
            error: "'FeaturesTests' is reserved: the app's targets would be 'FeaturesTestsApp' and "
                + "'featurestests', and Tests/FeaturesTests already exists; pick another name"),
        Refusal(
            testDescription: "a name ending in App", arguments: ["QuillApp", "--like", "tundra"],
            error: "'QuillApp' ends in 'App': its library would be named 'QuillAppApp'; drop the suffix and "
                + "try 'Quill'"),
        Refusal(
            testDescription: "a standard type", arguments: ["String", "--like", "tundra"],
            error:
                "'String' is reserved: it is the standard type 'String', which the app's code would shadow; "
                + "pick another name"),
        Refusal(
            testDescription: "a standard module", arguments: ["Foundation", "--like", "tundra"],
            error:
                "'Foundation' is reserved: it is the module 'Foundation', which the app's code would shadow; "
                + "pick another name"),
        Refusal(
            testDescription: "a keyword", arguments: ["Self", "--like", "tundra"],
            error: "'Self' is reserved: 'Self' is a Swift keyword; pick another name"),
        Refusal(
            testDescription: "an executable named as a keyword", arguments: ["Struct", "--like", "tundra"],
            error: "'Struct' is reserved: its executable would be named 'struct', a Swift keyword; "
                + "pick another name"),
        Refusal(
            testDescription: "the word App", arguments: ["Apps", "--like", "tundra"],
            error: "'Apps' is reserved: the package names each app's library <Name>App and keeps the apps in "
                + "Apps/; pick another name"),
        Refusal(
            testDescription: "a name the model's code uses", arguments: ["Tabs", "--like", "tundra"],
            error:
                "'Tabs' is reserved: Apps/Tundra/TundraApp/Providers/TundraTabs.swift uses 'Tabs', which the "
                + "app's type 'Tabs' would shadow in the copy; pick another name"),
        Refusal(
            testDescription: "an unknown model app", arguments: ["Quill", "--like", "tundr"],
            error: "unknown app 'tundr' given with --like; did you mean 'Tundra'? (apps: Pebble, Tundra)"),
        Refusal(
            testDescription: "a model app without its folder", arguments: ["Quill", "--like", "pebble"],
            prepare: { try FileManager.default.removeItem(atPath: "\($0.root)/Apps/Pebble") },
            error: "the model app 'Pebble' is in Package.swift's list of apps, but Apps/Pebble does not exist"
        ),
        Refusal(
            testDescription: "a model app without its manifest", arguments: ["Quill", "--like", "pebble"],
            prepare: { try FileManager.default.removeItem(atPath: "\($0.root)/Manifests/pebble.json") },
            error:
                "the model app 'Pebble' is in Package.swift's list of apps, but Manifests/pebble.json does not "
                + "exist"),
        Refusal(
            testDescription: "no list of apps", arguments: ["Quill", "--like", "tundra"],
            prepare: {
                try $0.write(
                    "Package.swift",
                    ScratchPackage.packageText.replacingOccurrences(of: "let apps = [", with: "let names = [")
                )
            },
            error: "Package.swift has no list of apps: new-app adds the app's line to it, and expects "
                + "`let apps = [` on a line of its own, one `\"Name\",` line per app, and `]` closing it"),
        Refusal(
            testDescription: "a list of apps on one line", arguments: ["Quill", "--like", "tundra"],
            prepare: {
                try $0.write(
                    "Package.swift",
                    ScratchPackage.packageText.replacingOccurrences(
                        of: "let apps = [\n    \"Pebble\",\n",
                        with: "let apps = [\n    \"Pebble\", \"Other\",\n"))
            },
            error: "Package.swift:5: '\"Pebble\", \"Other\",' is not one app's line in the list of apps; "
                + "expected `let apps = [` on a line of its own, one `\"Name\",` line per app, "
                + "and `]` closing it"),
    ]
}

@Suite struct NewAppRefusalTests {
    @Test(arguments: Refusal.all)
    func refusal_printsOneClearLineAndWritesNothing(_ refusal: Refusal) throws {
        let package = try ScratchPackage()
        try refusal.prepare(package)
        let before = try package.snapshot()
        let output = CapturedTextOutput()

        let status = NewAppCommand.run(
            arguments: refusal.arguments + ["--package-dir", package.root], output: output,
            currentDirectory: "/")

        #expect(status == 1)
        #expect(output.error == "new-app: error: \(refusal.error)\n")
        #expect(output.output == "")
        #expect(try package.snapshot() == before, "nothing is written")
    }
}
