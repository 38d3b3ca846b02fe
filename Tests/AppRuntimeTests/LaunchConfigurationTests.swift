import AppRuntime
import Backend
import CommandLineKit
import Composition
import Features
import Foundation
import Mutations
import Testing
import Wire

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

    @Test func photosDir_isAbsolute_elseHomePicturesWhenItExists_elseTheCurrentDirectory() throws {
        let current = FileManager.default.currentDirectoryPath
        #expect(try parse(["--photos-dir", "/srv/photos/", "--headless"]).photosDirectory == "/srv/photos")
        #expect(
            try parse(["--photos-dir", "shots/../trips", "--headless"]).photosDirectory == current + "/trips")
        // /home/ada has no Pictures folder here
        #expect(try parse(["--headless"]).photosDirectory == current)
        let home = NSTemporaryDirectory() + "home-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home + "/Pictures", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let withPictures = try LaunchConfiguration.parse(
            ["--headless"], app: "demo", environment: ["HOME": home], isTerminal: false)
        #expect(withPictures.photosDirectory == DirectoryListing.standardized(home + "/Pictures"))
        #expect(LaunchConfiguration.commandLine(for: "demo").helpText.contains("--photos-dir DIR"))
    }

    @Test func help_listsTheKeyOfEveryKindOfChange_inLinesThatFit96Columns() {
        let help = LaunchConfiguration.commandLine(for: "demo").helpText
        let keys = help.components(separatedBy: "keys:").last ?? ""
        for kind in MutationKind.all {
            guard let key = kind.key else { continue }
            #expect(keys.contains(" \(key.character) \(key.help),"), "\(kind)'s key is missing: \(keys)")
        }
        #expect(LaunchConfiguration.keysHelp().split(separator: "\n").allSatisfy { $0.count <= 96 })
        #expect(LaunchConfiguration.keysHelp().hasPrefix("keys: ↑ ↓ j k move, pgdn pgup page, g G home end"))
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
        #expect(throws: UsageError.self) { try parse(["--network", "lunar"]) }
    }

    @Test func seed_isAHeadlessOptionTakingAWholeNumber() {
        #expect(throws: UsageError(command: "demo", "--seed needs --headless")) {
            try parse(["--seed", "7"])
        }
        #expect(
            throws: UsageError(
                command: "demo", "invalid value 'x' for '--seed'; expected a whole number from 0 up")
        ) {
            try parse(["--headless", "--seed", "x"], terminal: false)
        }
    }

    @Test func headlessRuns_takeTokensJitterAndBackendFromTheSeed() throws {
        // Given headless runs of two apps (fixture ids: any app's) with the default seed, and one
        // with --seed 7
        let pebbleRun = try LaunchConfiguration.parse(
            ["--headless"], app: "pebble", environment: environment, isTerminal: false)
        let tundraRun = try LaunchConfiguration.parse(
            ["--headless"], app: "tundra", environment: environment, isTerminal: false)
        let seven = try LaunchConfiguration.parse(
            ["--headless", "--seed", "7"], app: "pebble", environment: environment, isTerminal: false)
        #expect(pebbleRun.seed == 1)
        #expect(seven.seed == 7)

        // Then each run's tokens and jitter are seeded, the same each time for one app and seed
        let values = [pebbleRun, tundraRun, seven, pebbleRun].map { $0.launchValues(clock: ManualClock()) }
        let mutations = values.map { $0[MutationConfigurationKey.self] }
        for configuration in mutations {
            guard case .seeded = configuration.tokens else {
                Issue.record("headless tokens are \(configuration.tokens), not seeded")
                continue
            }
            #expect(configuration.jitterSeed != nil)
        }
        #expect(mutations[0].tokens == mutations[3].tokens)
        #expect(mutations[0].jitterSeed == mutations[3].jitterSeed)
        // and the apps (on a shared backend) and the seeds make different tokens
        #expect(Set(mutations.prefix(3).map(\.tokens)).count == 3)
        #expect(values.map { $0[BackendSeedKey.self] } == [1, 1, 7, 1])
    }

    @Test func interactiveRuns_keepRandomTokensAndJitter() throws {
        let configuration = try parse([])

        let mutations = configuration.launchValues(clock: ManualClock())[MutationConfigurationKey.self]

        #expect(mutations.tokens == .random)
        #expect(mutations.jitterSeed == nil)
    }

    @Test func versionDescribeAndHelp_needNoTerminal() throws {
        #expect(try parse(["--version"], terminal: false).mode == .version)
        #expect(try parse(["--describe"], terminal: false).mode == .describe)
        #expect(try parse(["--help"], terminal: false).mode == .help)
    }

    @Test func signOut_isAModeOfItsOwn_withoutATerminal() throws {
        let configuration = try parse(["--sign-out", "--data-dir", "/tmp/x"], terminal: false)
        #expect(configuration.mode == .signOut)
        #expect(configuration.dataDirectory == "/tmp/x")
        #expect(
            LaunchConfiguration.commandLine(for: "demo").helpText.contains(
                "revoke the saved session on the server and forget it here; refused while changes wait to be sent"
            ))
    }
}
