import AppRuntime
import AppTesting
import CommandLineKit
import Foundation
import Testing

/// What the launcher itself prints: `--describe`'s table and its exit status, and the bounds a
/// script's `resize` is held to. Each was found unchecked by a mutant that survived the whole
/// suite (MutationTesting's "Measuring the suite", AppRuntime).
@Suite @MainActor struct LauncherOutputScenarios {
    /// `--describe` lines its sockets up as a table: each column starts at one place on every
    /// line, two spaces after the longest entry of the column before it.
    @Test(arguments: ShippedApp.all)
    func describe_listsTheSocketsAsATable_twoSpacesAfterEachColumnsLongest(app: ShippedApp) async throws {
        let output = CapturedTextOutput()
        let status = await AppLauncher.run(app.definition, arguments: ["--describe"], output: output)
        #expect(status == 0, "\(app.id): \(output.error)")
        let lines = output.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "sockets:"), "\(output.output)")
        let rows = lines[(start + 1)...].prefix { !$0.isEmpty }.map { $0.dropFirst(2) }
        try #require(rows.count >= 3, "\(output.output)")
        let cells = rows.map { $0.split(separator: " ").map(String.init) }
        #expect(cells.allSatisfy { $0.count == 3 }, "\(output.output)")
        let socketWidth = cells.map { $0[0].count }.max()! + 2
        let providerWidth = cells.map { $0[1].count }.max()! + 2
        for (row, cell) in zip(rows, cells) {
            #expect(
                String(row) == pad(cell[0], socketWidth) + pad(cell[1], providerWidth) + cell[2],
                "\(app.id): '\(row)'\n\(output.output)")
        }
    }

    /// `--describe` launches on scratch directories; when they cannot be made, it says so and
    /// exits 1 rather than reporting success.
    @Test(arguments: ShippedApp.all)
    func describe_whereNoScratchDirectoryCanBeMade_failsSayingWhy(app: ShippedApp) throws {
        // Given a temporary directory that is a file
        let directories = try TestDirectories.make()
        let blocker = directories.data + "-not-a-directory"
        try Data("a file".utf8).write(to: URL(fileURLWithPath: blocker))
        // When the app's executable is asked to describe itself there (spawned with posix_spawn,
        // as `DirectMessageScenarios.runExecutable` explains)
        let run = try Subprocess.run(
            "/usr/bin/env", ["TMPDIR=\(blocker)", AppInATerminal.executable(app.id), "--describe"])
        let text = run.errorText
        // Then it fails, naming the app and the directory it could not make
        #expect(run.status == 1, "\(app.id): \(text)")
        #expect(text.hasPrefix("\(app.id): error: "), "\(app.id): \(text)")
        #expect(text.contains(blocker), "\(app.id): \(text)")
    }

    /// A script's `resize` takes a width of 20 to 400 and a height of 5 to 200; one outside is an
    /// error naming its line, before anything runs, and the bounds themselves run.
    @Test(arguments: ShippedApp.all)
    func resize_outsideItsBounds_isAScriptErrorNamingTheLine(app: ShippedApp) async throws {
        for size in ["19 24", "401 24", "80 4", "80 201"] {
            let run = await HeadlessHarness.run(
                app.definition, script: "wait\nresize \(size)\n", directories: try TestDirectories.make())
            #expect(run.status == 2, "\(app.id): resize \(size)")
            #expect(
                run.errors.hasPrefix(
                    "<stdin>:2: error: 'resize' needs a width (20-400) and a height (5-200), found '\(size)'"),
                "\(app.id): \(run.errors)")
            #expect(run.output.isEmpty, "\(app.id): resize \(size)")
        }
        let bounds = await HeadlessHarness.run(
            app.definition, script: "wait\nresize 20 5\nframe\nresize 400 200\nframe\n",
            directories: try TestDirectories.make())
        #expect(bounds.status == 0, "\(app.id): \(bounds.errors)")
        #expect(bounds.frames.count == 2)
        #expect(lines(bounds.frames[0]).count == 5, "\(app.id):\n\(bounds.frames[0])")
        #expect(lines(bounds.frames[1]).count == 200, "\(app.id)")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
