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
            arguments: ["Quill-Notes", "--like", "strand"],
            error: "'Quill-Notes' has '-', which an app's name cannot hold: it names Swift types, a folder "
                + "and a command, so it may use ASCII letters and digits only; try 'QuillNotes'"),
        Refusal(
            testDescription: "a non-ASCII letter", arguments: ["Plumé", "--like", "strand"],
            error: "'Plumé' has 'é', which an app's name cannot hold: it names Swift types, a folder and a "
                + "command, so it may use ASCII letters and digits only"),
        Refusal(
            testDescription: "a lowercase start", arguments: ["quill", "--like", "strand"],
            error: "'quill' must start with an uppercase letter: the app's types are named after it "
                + "(<Name>, <Name>App, <Name>Branding); try 'Quill'"),
        Refusal(
            testDescription: "a digit first", arguments: ["2Quill", "--like", "strand"],
            error: "'2Quill' must start with an uppercase letter: the app's types are named after it "
                + "(<Name>, <Name>App, <Name>Branding)"),
        Refusal(
            testDescription: "an empty name", arguments: ["", "--like", "strand"],
            error: "the app's name is empty; give one such as 'Quill'"),
        Refusal(
            testDescription: "a name in the apps list, in another case",
            arguments: ["PRISM", "--like", "strand"],
            error: "'PRISM' is taken: Package.swift's list of apps has 'Prism'; pick another name"),
        Refusal(
            testDescription: "a taken folder", arguments: ["Quill", "--like", "strand"],
            prepare: { try $0.write("Apps/Quill/notes.txt", "mine\n") },
            error: "'Quill' is taken: Apps/Quill already exists; pick another name"),
        Refusal(
            testDescription: "a taken manifest", arguments: ["Quill", "--like", "strand"],
            prepare: { try $0.write("Manifests/quill.json", "{}\n") },
            error: "'Quill' is taken: Manifests/quill.json already exists; pick another name"),
        Refusal(
            testDescription: "a module's name", arguments: ["Features", "--like", "strand"],
            error: "'Features' is reserved: the app's targets would be 'FeaturesApp' and 'features', and "
                + "Package.swift already names a target or product 'Features'; pick another name"),
        Refusal(
            testDescription: "a tool's name in another case", arguments: ["Bench", "--like", "strand"],
            error: "'Bench' is reserved: the app's targets would be 'BenchApp' and 'bench', and "
                + "Package.swift already names a target or product 'bench'; pick another name"),
        Refusal(
            testDescription: "a target declared with name:", arguments: ["Backend", "--like", "strand"],
            error: "'Backend' is reserved: the app's targets would be 'BackendApp' and 'backend', and "
                + "Package.swift already names a target or product 'Backend'; pick another name"),
        Refusal(
            testDescription: "a tests folder's name", arguments: ["FeaturesTests", "--like", "strand"],
            error: "'FeaturesTests' is reserved: the app's targets would be 'FeaturesTestsApp' and "
                + "'featurestests', and Tests/FeaturesTests already exists; pick another name"),
        Refusal(
            testDescription: "a name ending in App", arguments: ["QuillApp", "--like", "strand"],
            error: "'QuillApp' ends in 'App': its library would be named 'QuillAppApp'; drop the suffix and "
                + "try 'Quill'"),
        Refusal(
            testDescription: "a standard type", arguments: ["String", "--like", "strand"],
            error:
                "'String' is reserved: it is the standard type 'String', which the app's code would shadow; "
                + "pick another name"),
        Refusal(
            testDescription: "a standard module", arguments: ["Foundation", "--like", "strand"],
            error:
                "'Foundation' is reserved: it is the module 'Foundation', which the app's code would shadow; "
                + "pick another name"),
        Refusal(
            testDescription: "a keyword", arguments: ["Self", "--like", "strand"],
            error: "'Self' is reserved: 'Self' is a Swift keyword; pick another name"),
        Refusal(
            testDescription: "an executable named as a keyword", arguments: ["Struct", "--like", "strand"],
            error: "'Struct' is reserved: its executable would be named 'struct', a Swift keyword; "
                + "pick another name"),
        Refusal(
            testDescription: "the word App", arguments: ["Apps", "--like", "strand"],
            error: "'Apps' is reserved: the package names each app's library <Name>App and keeps the apps in "
                + "Apps/; pick another name"),
        Refusal(
            testDescription: "a name the model's code uses", arguments: ["Tabs", "--like", "strand"],
            error:
                "'Tabs' is reserved: Apps/Strand/StrandApp/Providers/StrandTabs.swift uses 'Tabs', which the "
                + "app's type 'Tabs' would shadow in the copy; pick another name"),
        Refusal(
            testDescription: "an unknown model app", arguments: ["Quill", "--like", "strnd"],
            error: "unknown app 'strnd' given with --like; did you mean 'Strand'? (apps: Prism, Strand)"),
        Refusal(
            testDescription: "a model app without its folder", arguments: ["Quill", "--like", "prism"],
            prepare: { try FileManager.default.removeItem(atPath: "\($0.root)/Apps/Prism") },
            error: "the model app 'Prism' is in Package.swift's list of apps, but Apps/Prism does not exist"),
        Refusal(
            testDescription: "a model app without its manifest", arguments: ["Quill", "--like", "prism"],
            prepare: { try FileManager.default.removeItem(atPath: "\($0.root)/Manifests/prism.json") },
            error:
                "the model app 'Prism' is in Package.swift's list of apps, but Manifests/prism.json does not "
                + "exist"),
        Refusal(
            testDescription: "no list of apps", arguments: ["Quill", "--like", "strand"],
            prepare: {
                try $0.write(
                    "Package.swift",
                    ScratchPackage.packageText.replacingOccurrences(of: "let apps = [", with: "let names = [")
                )
            },
            error: "Package.swift has no list of apps: new-app adds the app's line to it, and expects "
                + "`let apps = [` on a line of its own, one `\"Name\",` line per app, and `]` closing it"),
        Refusal(
            testDescription: "a list of apps on one line", arguments: ["Quill", "--like", "strand"],
            prepare: {
                try $0.write(
                    "Package.swift",
                    ScratchPackage.packageText.replacingOccurrences(
                        of: "let apps = [\n    \"Prism\",\n",
                        with: "let apps = [\n    \"Prism\", \"Other\",\n"))
            },
            error: "Package.swift:5: '\"Prism\", \"Other\",' is not one app's line in the list of apps; "
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
