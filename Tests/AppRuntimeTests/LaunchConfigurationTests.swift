import AppRuntime
import CommandLineKit
import Composition
import Features
import Foundation
import Testing

@Suite struct LaunchConfigurationTests {
    let environment = ["HOME": "/home/ada", "XDG_DATA_HOME": "/data"]

    func parse(_ arguments: [String], terminal: Bool = true) throws -> LaunchConfiguration {
        try LaunchConfiguration.parse(arguments, app: "demo", environment: environment, isTerminal: terminal)
    }

    @Test func defaults_putEachAppsDataApartAndShareTheBackend() throws {
        let configuration = try parse([])
        #expect(configuration.mode == .interactive)
        #expect(configuration.dataDirectory == "/data/loom/demo")
        #expect(configuration.backendDirectory == "/data/loom/backend")
        #expect(configuration.network == "perfect")
        #expect(configuration.width == 80 && configuration.height == 24)
    }

    @Test func dataDirWithoutBackendDir_keepsTheBackendInsideIt() throws {
        let configuration = try parse(["--data-dir", "/tmp/x", "--headless"])
        #expect(configuration.backendDirectory == "/tmp/x/backend")
        let shared = try parse(["--data-dir", "/tmp/x", "--backend-dir", "/tmp/b", "--headless"])
        #expect(shared.backendDirectory == "/tmp/b")
    }

    @Test func withoutXDG_usesTheHomeDirectory() throws {
        let configuration = try LaunchConfiguration.parse(
            ["--headless"], app: "demo", environment: ["HOME": "/home/ada"], isTerminal: false)
        #expect(configuration.dataDirectory == "/home/ada/.local/share/loom/demo")
    }

    @Test func headlessScriptAndSize_parse() throws {
        let configuration = try parse(
            ["--headless", "--script", "-", "--width", "100", "--height", "30"], terminal: false)
        #expect(configuration.mode == .headless(script: "-"))
        #expect(configuration.width == 100 && configuration.height == 30)
    }

    @Test func noTerminalWithoutHeadless_isAClearError() {
        #expect(
            throws: UsageError(
                command: "demo",
                "standard input or output is not a terminal; run with --headless (and --script FILE) instead")
        ) { try parse([], terminal: false) }
    }

    @Test func inconsistentFlags_areUsageErrors() {
        #expect(throws: UsageError(command: "demo", "--script needs --headless")) {
            try parse(["--script", "a"])
        }
        #expect(throws: UsageError.self) { try parse(["--width", "100"]) }
        #expect(
            throws: UsageError(
                command: "demo", "invalid value 'ftp://x' for '--server'; expected http://HOST:PORT")
        ) {
            try parse(["--server", "ftp://x"])
        }
        #expect(throws: UsageError.self) { try parse(["--headless", "--width", "5"]) }
        #expect(throws: UsageError.self) { try parse(["--network", "lossy"]) }
    }

    @Test func versionDescribeAndHelp_needNoTerminal() throws {
        #expect(try parse(["--version"], terminal: false).mode == .version)
        #expect(try parse(["--describe"], terminal: false).mode == .describe)
        #expect(try parse(["--help"], terminal: false).mode == .help)
    }
}
