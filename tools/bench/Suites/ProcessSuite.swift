import Composition
import Foundation

/// `process`: the whole app process from outside, as a person launching it waits for it. The
/// release binary of the photo-first app (the first whose posts need a photo) is spawned with `posix_spawn` for a warm headless launch (its data and
/// backend directories already made, seeded and cached by an earlier run) running a script that
/// waits for the first frame with content, prints it and quits; beside it, in the same run and
/// spawned the same way, the release `hello-world` (the minimal Foundation program: it prints a line).
///
/// The figures: spawn to exit (the whole process), spawn to the printed first frame, exit time
/// (from the frame, after which the script quits at once, to the process's exit: stopping the
/// services, closing the databases, tearing the process down), `<app> --version` (loading and
/// runtime start-up alone, nothing launched), and CPU time (from `wait4`).
enum ProcessSuite {
    /// The script: the first frame with content, then quit.
    static let script = "wait\nframe\nkey q\n"

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
        let arguments = [
            "--headless", "--script", scriptPath, "--data-dir", scratch + "/data", "--backend-dir",
            scratch + "/backend",
        ]

        // The first run seeds the backend and fills the cache; the rest are warm launches.
        let first = try Spawn.run(app, arguments, frameMarker: "--- end ---")
        guard first.status == 0, first.frameAt != nil else {
            throw SpawnFailure(
                "\(app) \(arguments.joined(separator: " ")) exited with \(first.status) and no frame: "
                    + first.errors)
        }
        let frame = first.output.components(separatedBy: "\n").dropFirst().prefix(24)
        guard frame.contains(where: { $0.contains("@") }) else {
            throw SpawnFailure("the first frame shows no post:\n" + frame.joined(separator: "\n"))
        }
        for _ in 0..<3 {
            _ = try Spawn.run(hello, [], frameMarker: nil)
            _ = try Spawn.run(app, arguments, frameMarker: "--- end ---")
        }
        var apps: [Spawn.Outcome] = []
        var hellos: [Spawn.Outcome] = []
        var versions: [Spawn.Outcome] = []
        for _ in 0..<(runner.quick ? 5 : 20) {
            hellos.append(try Spawn.run(hello, [], frameMarker: nil))
            versions.append(try Spawn.run(app, ["--version"], frameMarker: nil))
            let outcome = try Spawn.run(app, arguments, frameMarker: "--- end ---")
            guard outcome.status == 0, outcome.frameAt != nil else {
                throw SpawnFailure("a warm launch exited with \(outcome.status): \(outcome.errors)")
            }
            apps.append(outcome)
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
