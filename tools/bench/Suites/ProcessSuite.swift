import Composition
import Foundation

/// `process`: the whole app process from outside, as a person launching it waits for it. The
/// release binary of the photo-first app (the first whose posts need a photo) is spawned with `posix_spawn` for a warm headless launch (its data and
/// backend directories already made, seeded and cached by an earlier run) running a script that
/// waits for the first frame with content, prints it and quits; beside it, in the same run and
/// spawned the same way, the release `hello-world` (the minimal Foundation program: it prints a line).
///
/// The figures: spawn to exit (the whole process), spawn to the printed first frame, spawn to
/// the frame the launch draws at once from the cache (a second script, no `wait`), exit time
/// (from the frame, after which the script quits at once, to the process's exit: stopping the
/// services, closing the databases, tearing the process down), `<app> --version` (loading and
/// runtime start-up alone, nothing launched), and CPU time (from `wait4`).
enum ProcessSuite {
    /// The script: the first frame with content, then quit.
    static let script = "wait\nframe\nkey q\n"
    /// The script for the cached first frame: the frame the launch draws at once (from the
    /// cache, before any answer from the server), then quit.
    static let cachedScript = "frame\nkey q\n"

    /// Whether a printed frame shows a post: a handle below the title bar (the title's own
    /// `@handle` does not count).
    static func showsAPost(_ output: String) -> Bool {
        output.components(separatedBy: "\n").dropFirst(3).prefix(20).contains { $0.contains("@") }
    }

    static let suite = BenchSuite(
        name: "process",
        summary:
            "the release app spawned headless to its first frame with content and exit vs a Foundation hello-world"
    ) { runner in
        let binaries = try BinaryDirectory.ofThisProcess()
        let appID = try BenchApps.photoFirst().id
        let app = try binaries.executable(appID)
        let hello = try binaries.executable("hello-world")
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-process-\(ProcessInfo.processInfo.processIdentifier)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scriptPath = scratch + "/first-frame.script"
        try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
        let cachedScriptPath = scratch + "/cached-frame.script"
        try Data(cachedScript.utf8).write(to: URL(fileURLWithPath: cachedScriptPath))
        let directories = ["--data-dir", scratch + "/data", "--backend-dir", scratch + "/backend"]
        let arguments = ["--headless", "--script", scriptPath] + directories
        let cachedArguments = ["--headless", "--script", cachedScriptPath] + directories

        // The first run seeds the backend and fills the cache; the rest are warm launches.
        let first = try Spawn.run(app, arguments, frameMarker: "--- end ---")
        guard first.status == 0, first.frameAt != nil else {
            throw SpawnFailure(
                "\(app) \(arguments.joined(separator: " ")) exited with \(first.status) and no frame: "
                    + first.errors)
        }
        guard showsAPost(first.output) else {
            throw SpawnFailure("the first frame shows no post:\n" + first.output)
        }
        for _ in 0..<3 {
            _ = try Spawn.run(hello, [], frameMarker: nil)
            _ = try Spawn.run(app, arguments, frameMarker: "--- end ---")
        }
        var apps: [Spawn.Outcome] = []
        var hellos: [Spawn.Outcome] = []
        var versions: [Spawn.Outcome] = []
        var cached: [Spawn.Outcome] = []
        for _ in 0..<(runner.quick ? 5 : 20) {
            hellos.append(try Spawn.run(hello, [], frameMarker: nil))
            versions.append(try Spawn.run(app, ["--version"], frameMarker: nil))
            let outcome = try Spawn.run(app, arguments, frameMarker: "--- end ---")
            guard outcome.status == 0, outcome.frameAt != nil else {
                throw SpawnFailure("a warm launch exited with \(outcome.status): \(outcome.errors)")
            }
            apps.append(outcome)
            let drawnAtOnce = try Spawn.run(app, cachedArguments, frameMarker: "--- end ---")
            guard drawnAtOnce.status == 0, drawnAtOnce.frameAt != nil, showsAPost(drawnAtOnce.output) else {
                throw SpawnFailure(
                    "a warm launch's first frame (no wait) exited with \(drawnAtOnce.status) or showed no post: "
                        + drawnAtOnce.output + drawnAtOnce.errors)
            }
            cached.append(drawnAtOnce)
        }
        let helloWall = Samples(hellos.map(\.exitedAt))
        runner.report(
            "warm launch to first frame and exit (wall)", Samples(apps.map(\.exitedAt)), unit: .milliseconds,
            baseline: ("Foundation hello-world", helloWall), targets: [.withinBaseline(factor: 1.5)],
            note: "\(apps.count) runs each, interleaved; posix_spawn to waitpid")
        runner.report(
            "  spawn to the first frame with content", Samples(apps.compactMap(\.frameAt)),
            unit: .milliseconds,
            baseline: ("hello-world to exit", helloWall))
        runner.report(
            "  spawn to the first frame drawn, from the cache", Samples(cached.compactMap(\.frameAt)),
            unit: .milliseconds,
            baseline: ("hello-world to exit", helloWall),
            note: "the frame a warm launch draws at once, before the server answers (`frame` with no `wait`)")
        runner.report(
            "  exit: from the frame (then quit) to the exit",
            Samples(apps.compactMap { outcome in outcome.frameAt.map { outcome.exitedAt - $0 } }),
            unit: .milliseconds)
        runner.report(
            "  loading alone: `\(appID) --version` (wall)", Samples(versions.map(\.exitedAt)),
            unit: .milliseconds,
            baseline: ("hello-world", helloWall),
            note: "loading the shared objects and starting the runtimes; nothing is launched")
        runner.report(
            "  CPU time (user + system)", Samples(apps.map(\.cpu)), unit: .milliseconds,
            baseline: ("hello-world", Samples(hellos.map(\.cpu))))
    }
}
