import Basics
import CommandLineKit
import Foundation

/// The `new-app` command: writes a new app from an existing one and adds it to Package.swift's
/// list of apps.
///
/// ```sh
/// swift run new-app Quill --like strand
/// ```
///
/// copies Apps/Strand/ to Apps/Quill/ and Manifests/strand.json to Manifests/quill.json, renaming
/// `Strand`, `strand` and `STRAND` in every path and file, and adds `"Quill",` to `apps`. It checks
/// everything first and writes nothing when it refuses; it writes into a staging folder and moves
/// the result into place, so a failure half-way leaves nothing either.
public enum NewAppCommand {
    /// The command line `new-app` accepts.
    public static let spec = CommandLineSpec(
        command: "new-app",
        summary: """
            Writes a new app, NAME, as a copy of an existing one: Apps/<Model>/ becomes Apps/<NAME>/ and
            Manifests/<model>.json becomes Manifests/<name>.json, with the model's name replaced in every
            file and folder name and in every file (Strand -> Quill, strand -> quill, STRAND -> QUILL: type
            names, provider ids, the app's name, doc comments, main.swift's import); nothing else changes.
            Then adds "NAME", to Package.swift's `apps` list, in sorted position, and prints each file
            written and what to do next.
            """,
        usage: "NAME --like APP [--package-dir DIR]",
        options: [
            .value("like", "APP", help: "the app to copy, as Package.swift's `apps` lists it (any case)"),
            .value(
                "package-dir", "DIR",
                help: "the package root (default: the nearest directory with Package.swift)"),
            .version(),
        ],
        maximumPositionals: 1,
        epilogue: """
            arguments:
              NAME  the new app's name, as its types spell it: ASCII letters and digits, starting with an
                    uppercase letter (Quill: the library QuillApp, the command and id quill)

            example:
              swift run new-app Quill --like strand

            refused (nothing is written):
              - a NAME that is not ASCII letters and digits starting with an uppercase letter
              - a NAME already taken: in the `apps` list (any case), Apps/<NAME>/ or Manifests/<name>.json
              - a NAME ending in App (the library would be <NAME>AppApp)
              - a reserved NAME: a target, product or folder of the package (Modules/, tools/, Tests/)
                named NAME, <NAME>App or <name> in any case; a Swift keyword, standard module or type
                (Swift, Foundation, Self, String, Int, ...); App and Apps; a name the model's code uses
                (Branding, Catalog, Sockets, ...), which the app's type would shadow
              - an APP not in the `apps` list, or without its folder or manifest
              - a Package.swift without a `let apps = [` list holding one "Name", line per app

            exit status: 0 when the app was written, 1 when refused or on an I/O error (nothing is
            written), 2 on a usage error (a missing NAME or --like, an unknown option, no Package.swift).
            """)

    /// Runs the command. Returns the exit status.
    public static func run(
        arguments: [String], output: any TextOutput = StandardTextOutput(),
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Int32 {
        let parsed: ParsedArguments
        do {
            parsed = try spec.parse(arguments)
        } catch {
            output.writeError("\(error)\n")
            return 2
        }
        if parsed.helpRequested {
            output.write(spec.helpText + "\n")
            return 0
        }
        if parsed.versionRequested {
            output.write(ToolVersion.line(for: spec.command) + "\n")
            return 0
        }
        func usage(_ message: String) -> Int32 {
            output.writeError("\(UsageError(command: spec.command, message))\n")
            return 2
        }
        guard let name = parsed.positionals.first else {
            return usage("missing the new app's name, such as 'Quill': new-app NAME --like APP")
        }
        guard let like = parsed.value("like") else {
            // The apps to choose from, when the package can be read: the message names them.
            let apps = PackageRoot.find(parsed.value("package-dir"), from: currentDirectory)
                .flatMap { FileManager.default.contents(atPath: "\($0)/Package.swift") }
                .flatMap { try? AppsList(packageText: String(decoding: $0, as: UTF8.self)) }
            let choices = apps.map { ": one of " + $0.names.joined(separator: ", ") } ?? ""
            return usage("missing --like APP, the app to copy\(choices)")
        }
        guard let root = PackageRoot.find(parsed.value("package-dir"), from: currentDirectory) else {
            if let given = parsed.value("package-dir") {
                return usage(
                    "no Package.swift in '\(given)' (given with --package-dir); pass the package's root")
            }
            return usage("no Package.swift found in '\(currentDirectory)' or its parents; pass --package-dir")
        }
        do {
            let steps = try scaffold(name: name, like: like, root: root)
            output.write(steps.text)
            return 0
        } catch {
            output.writeError("\(spec.command): error: \(error)\n")
            return 1
        }
    }

    /// Checks everything, then writes the app; returns what to print.
    static func scaffold(
        name: String, like: String, root: String, move: @escaping StagedWrite.Move = StagedWrite.rename
    ) throws(ScaffoldRefusal) -> NextSteps {
        let app = try AppName.validating(name)
        try ReservedNames.checkStandard(app)
        guard let packageData = FileManager.default.contents(atPath: "\(root)/Package.swift") else {
            throw ScaffoldRefusal("cannot read \(root)/Package.swift")
        }
        let packageText = String(decoding: packageData, as: UTF8.self)
        let apps = try AppsList(packageText: packageText)
        guard let modelEntry = apps.entry(matching: like) else {
            throw ScaffoldRefusal(
                "unknown app '\(like)' given with --like\(Suggestion.didYouMean(like, in: apps.names)) "
                    + "(apps: \(apps.names.joined(separator: ", ")))")
        }
        try checkNotTaken(app, apps: apps, root: root)
        try ReservedNames(packageText: packageText, root: root).check(app)
        let model = try ModelApp(AppName(modelEntry.name), root: root)
        try model.checkShadowing(app)
        let copy = model.copy(renamedTo: app)
        try StagedWrite(root: root, move: move).write(
            folders: copy.folders, files: copy.files, packageText: apps.inserting(app.name))
        return NextSteps(
            app: app, model: model.name, files: copy.files.map(\.path),
            socketSummaries: NextSteps.socketSummaries(root: root),
            socketFiles: NextSteps.socketFiles(root: root))
    }

    /// Refuses a name the package has already: in the list of apps, as a folder under Apps/, or as a
    /// manifest (each ignoring case).
    static func checkNotTaken(_ app: AppName, apps: AppsList, root: String) throws(ScaffoldRefusal) {
        if let entry = apps.entry(matching: app.name) {
            throw ScaffoldRefusal(
                "'\(app)' is taken: Package.swift's list of apps has '\(entry.name)'; pick another name")
        }
        for (folder, wanted) in [("Apps", app.name), ("Manifests", "\(app.lowercased).json")] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)")) ?? []
            if let existing = entries.sorted().first(where: { $0.lowercased() == wanted.lowercased() }) {
                throw ScaffoldRefusal(
                    "'\(app)' is taken: \(folder)/\(existing) already exists; pick another name")
            }
        }
    }

}
