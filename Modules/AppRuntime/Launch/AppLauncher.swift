import Backend
import CommandLineKit
import Composition
import Features
import Foundation
import Wire

/// What an app's executable runs: reads the command line, then launches the app's definition.
///
/// An app's `main.swift` is one line:
///
/// ```swift
/// await AppLauncher.main(ExampleApp.definition)
/// ```
public enum AppLauncher {
    /// Runs the app with the process's arguments and exits with its status.
    public static func main(_ definition: AppDefinition) async -> Never {
        let status = await run(
            definition, arguments: Array(CommandLine.arguments.dropFirst()),
            environment: ProcessInfo.processInfo.environment,
            isTerminal: isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1)
        exit(status)
    }

    /// Runs the app with `arguments` (without the program name), writing to `output`. Returns
    /// the exit status: 0 on success, 1 when the app fails or a script expectation fails, 2 on
    /// a usage error.
    @MainActor
    package static func run(
        _ definition: AppDefinition, arguments: [String], environment: [String: String] = [:],
        isTerminal: Bool = false, output: any TextOutput = StandardTextOutput(),
        standardInput: () -> String? = {
            String(data: FileHandle.standardInput.readDataToEndOfFile(), encoding: .utf8)
        }
    ) async -> Int32 {
        let configuration: LaunchConfiguration
        do {
            configuration = try LaunchConfiguration.parse(
                arguments, app: definition.id, environment: environment, isTerminal: isTerminal)
        } catch {
            output.writeError("\(error)\n")
            return 2
        }
        let manifest: Manifest
        do {
            manifest = try definition.manifest.decode()
        } catch {
            output.writeError("\(definition.id): error: invalid manifest\n\(error)\n")
            return 1
        }
        switch configuration.mode {
        case .help:
            let keys = (try? AppHost.compose(definition).registry).map(LaunchConfiguration.KeysOfTheApp.init)
            output.write(
                LaunchConfiguration.commandLine(for: definition.id, keys: keys ?? .init()).helpText + "\n")
            return 0
        case .version:
            output.write("\(manifest.displayName) \(manifest.version)\n")
            return 0
        case .describe:
            return await describe(definition, configuration: configuration, output: output)
        case .signOut:
            return await SignOut.run(definition, configuration: configuration, output: output)
        case .headless(let scriptPath):
            let text: String
            let name: String
            switch scriptPath {
            case nil:
                (text, name) = ("wait\nframe\n", "<default>")
            case "-":
                guard let input = standardInput() else {
                    output.writeError("\(definition.id): error: standard input is not UTF-8 text\n")
                    return 1
                }
                (text, name) = (input, "<stdin>")
            case .some(let path):
                guard let data = FileManager.default.contents(atPath: path),
                    let input = String(data: data, encoding: .utf8)
                else {
                    output.writeError(
                        "\(definition.id): error: cannot read the script '\(path)'; check the path\n")
                    return 2
                }
                (text, name) = (input, path)
            }
            let script: HeadlessScript
            do {
                script = try HeadlessScript.parse(text, name: name)
            } catch {
                output.writeError("\(error)\n")
                return 2
            }
            let runner = HeadlessRunner(
                definition: definition, configuration: configuration, script: script, scriptName: name,
                output: output)
            let status = await runner.run()
            if configuration.trace {
                if let trace = runner.launchTrace { output.writeError(trace.formatted + "\n") }
                output.writeError(
                    FrameTimes(samples: runner.frameTimes, firstFrame: runner.firstContentFrame).summary
                        + "\n")
            }
            return status
        case .interactive:
            return await InteractiveRunner(
                definition: definition, configuration: configuration, output: output
            ).run()
        }
    }

    /// `--describe`: launch, print the composition and the trace, stop. It leaves nothing behind:
    /// the launch runs on scratch data and backend directories, removed afterwards, so the
    /// person's own (`--data-dir`, `--backend-dir`) are neither made nor seeded.
    @MainActor
    static func describe(
        _ definition: AppDefinition, configuration: LaunchConfiguration, output: any TextOutput
    ) async -> Int32 {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(definition.id)-describe-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var configuration = configuration
        configuration.dataDirectory = scratch + "/data"
        configuration.backendDirectory = scratch + "/backend"
        do {
            try configuration.createDirectories()
        } catch {
            output.writeError("\(definition.id): error: \(error)\n")
            return 1
        }
        let app: RunningApp
        do {
            app = try await AppHost.launch(
                definition, values: configuration.launchValues(clock: SystemClock()))
        } catch {
            output.writeError("\(definition.id): error: \(error)\n")
            return 1
        }
        output.write(AppDescription(app: app).text)
        let stopped = await app.stop()
        output.write("stopped: \(stopped.isEmpty ? "(no services)" : stopped.joined(separator: ", "))\n")
        return 0
    }
}
