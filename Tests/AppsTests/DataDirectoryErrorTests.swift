import AppRuntime
import AppTesting
import CommandLineKit
import Foundation
import Testing

/// What a person reads when `--data-dir` cannot be used: what could not be done, with which
/// path, why in words, and what to do (never Foundation's "NSCocoaErrorDomain error 512").
@Suite @MainActor struct DataDirectoryErrorTests {
    /// Runs `app` headless with `arguments` and returns its status and standard error.
    static func launch(_ app: ShippedApp, _ arguments: [String]) async -> (Int32, String) {
        let output = CapturedTextOutput()
        let status = await AppLauncher.run(
            app.definition, arguments: ["--headless", "--script", "-"] + arguments,
            environment: ["HOME": NSTemporaryDirectory()], output: output, standardInput: { "frame\n" })
        return (status, output.error)
    }

    @Test(arguments: ShippedApp.all)
    func dataDirectoryInsideAFile_namesTheFileInTheWay(app: ShippedApp) async throws {
        // Given a file where the data directory's parent should be
        let directories = try TestDirectories.make()
        let file = directories.backend + "/notes.txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))

        // When the app starts with its data directory inside that file
        let (status, errors) = await Self.launch(
            app, ["--data-dir", file + "/data", "--backend-dir", directories.backend])

        // Then it says which directory it could not make, why, and what to do
        #expect(status == 1)
        #expect(
            errors
                == "\(app.id): error: cannot create the directory '\(file)/data': '\(file)' is a file, not a "
                + "directory; pass --data-dir (and --backend-dir) with a directory you can write to\n")
    }

    @Test(arguments: ShippedApp.all)
    func dataDirectoryThatIsAFile_saysSo(app: ShippedApp) async throws {
        // Given a file where the data directory should be
        let directories = try TestDirectories.make()
        let file = directories.backend + "/notes.txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))

        // When the app starts with that file as its data directory
        let (status, errors) = await Self.launch(
            app, ["--data-dir", file, "--backend-dir", directories.backend])

        // Then it says the path is a file
        #expect(status == 1)
        #expect(
            errors
                == "\(app.id): error: cannot create the directory '\(file)': '\(file)' is a file, not a "
                + "directory; pass --data-dir (and --backend-dir) with a directory you can write to\n")
    }
}
