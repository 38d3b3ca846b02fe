import Backend
import CommandLineKit
import Composition
import Features
import Foundation
import Mutations
import Sockets
import Wire

/// What an app was asked to do on its command line, with defaults filled in.
package struct LaunchConfiguration: Sendable, Equatable {
    /// What to do.
    package enum Mode: Sendable, Equatable {
        /// Print help and exit.
        case help
        /// Print the name and version and exit.
        case version
        /// Launch, print the composition and the launch trace, stop.
        case describe
        /// The full-screen app in a terminal.
        case interactive
        /// No terminal: run a script (from a file, or `-` for standard input) and print frames.
        case headless(script: String?)
        /// Revoke the saved session on the server and forget it here (`SignOut`).
        case signOut
    }

    /// What to do.
    package var mode: Mode
    /// The app's id, as its manifest names it.
    package var app: String
    /// The app's own cache and journal.
    package var dataDirectory: String
    /// The embedded backend's database directory.
    package var backendDirectory: String
    /// The backend server to use instead of the embedded one.
    package var serverURL: URL?
    /// The account to sign in as; nil lets onboarding decide (headless: the seed's first user).
    package var user: String?
    /// Network conditions: `perfect`, `slow`, `flaky` or `offline`.
    package var network: String
    /// The screen size in headless mode (the terminal's size otherwise).
    package var width: Int
    /// The screen size in headless mode (the terminal's size otherwise).
    package var height: Int
    /// Whether to print the launch trace and a frame-time summary on exit.
    package var trace: Bool
    /// Where a headless run's random choices come from (client tokens, retry jitter, the
    /// embedded backend's data when new and its fault draws), so a script replays exactly.
    /// Default: `BackendSeed.defaultSeed` (1). Interactive runs draw tokens and jitter at random.
    package var seed: UInt64
    /// The folder the composer's photo picker starts in (absolute): `--photos-dir`, else
    /// `$HOME/Pictures` when it exists, else the current directory.
    package var photosDirectory: String
    /// How photos are drawn (`--images`; default `auto`).
    package var images: ImagesOption = .auto
    /// Whether `NO_COLOR` is set: with `--images auto`, photos are luminance-ramp characters.
    package var noColor = false

    /// The command line every app accepts.
    package static func commandLine(for command: String, keys: KeysOfTheApp = KeysOfTheApp())
        -> CommandLineSpec
    {
        CommandLineSpec(
            command: command,
            summary: "Runs the app: a full-screen terminal UI, or headless with a script that prints frames.",
            options: [
                .version(help: "print the app's name and version and exit"),
                .flag(
                    "describe",
                    help:
                        "print which provider fills each socket, the service start order and the launch trace"
                ),
                .value(
                    "data-dir", "DIR",
                    help: "the app's own cache and journal (default: $XDG_DATA_HOME/loom/\(command))"),
                .value(
                    "backend-dir", "DIR",
                    help:
                        "the embedded backend's database (default: shared by the apps; inside --data-dir if that is given)"
                ),
                .value(
                    "server", "URL",
                    help: "use a backend server (http://127.0.0.1:PORT) instead of the embedded one"),
                .value(
                    "user", "HANDLE",
                    help:
                        "sign in as this demo account, with the demo password (default: onboarding; headless: the first seed user)"
                ),
                .value(
                    "network", "PROFILE", help: "network conditions",
                    choices: FaultProfile.presets.map(\.name)),
                .flag(
                    "headless",
                    help: "run without a terminal, driven by --script, printing frames as plain text"),
                .value("width", "N", help: "headless screen width (default 80)"),
                .value("height", "N", help: "headless screen height (default 24)"),
                .value("script", "FILE", help: "the headless script to run (- reads standard input)"),
                .value(
                    "seed", "N",
                    help:
                        "headless: seeds every random choice (change tokens, retry jitter, the backend's data and faults); default 1"
                ),
                .value(
                    "photos-dir", "DIR",
                    help:
                        "the folder the composer's photo picker starts in (default: $HOME/Pictures if it exists, else the current directory)"
                ),
                .value(
                    "images", "MODE",
                    help:
                        "how photos are drawn: kitty (the photo itself), blocks (half-block color art), ascii (characters); auto (the default): kitty where the terminal answers its query, else blocks, and ascii under NO_COLOR",
                    choices: ImagesOption.allCases.map(\.rawValue)),
                .flag("trace", help: "print the launch trace and a frame-time summary on exit"),
                .flag(
                    "sign-out",
                    help:
                        "revoke the saved session on the server and forget it here; refused while changes wait to be sent"
                ),
            ],
            epilogue: keysHelp(keys) + """

                In the composer, tab goes to the post's photos: the picker starts in --photos-dir.

                exit status: 0 on success, 1 when the app fails or a script expectation fails, 2 on a usage error.
                """)
    }

    /// What of an app's composition its keys depend on: the tabs it shows (the shell's keys, `n`
    /// when one shows the composer), what one reply is called, whether posts can be sent in a
    /// message (`m`).
    package struct KeysOfTheApp: Sendable, Equatable {
        /// The tabs the tab bar shows.
        package var tabs: [Tab]
        /// What one reply is called (the `replyModel` socket's noun).
        package var replyNoun: String
        /// Whether posts can be sent in a message.
        package var messages: Bool

        /// The keys of an app showing `tabs` (by default Home, New, Activity, Profile and Sync),
        /// whose replies are called `replyNoun`.
        package init(tabs: [Tab] = Self.defaultTabs, replyNoun: String = "reply", messages: Bool = false) {
            self.tabs = tabs
            self.replyNoun = replyNoun
            self.messages = messages
        }

        /// The keys of the app composed as `registry`.
        package init(_ registry: SocketRegistry) {
            self.init(
                tabs: AppContext.tabs(in: registry), replyNoun: registry[.replyModel].noun,
                messages: registry[.direct] != nil)
        }

        /// Five tabs: Home, New, Activity, Profile, Sync.
        package static let defaultTabs: [Tab] = [
            Tab(title: "Home", destination: .home, glyph: "⌂"),
            Tab(title: "New", destination: .compose, glyph: "+"),
            Tab(title: "Activity", destination: .activity, glyph: "♥"),
            Tab(title: "Profile", destination: .profile, glyph: "☺"),
            Tab(title: "Sync", destination: .mutations, glyph: "⇅"),
        ]
    }

    /// The `keys:` paragraph of `--help` for an app with `app`'s keys, wrapped at 96 columns: the
    /// phrases of Features' `KeySummary`, made from the key tables the screens, their footers and
    /// the `?` help use, so a key added to a table is listed here with nothing to change.
    package static func keysHelp(_ app: KeysOfTheApp = KeysOfTheApp()) -> String {
        let keys = KeySummary.phrases(tabs: app.tabs, replyNoun: app.replyNoun, shares: app.messages)
        var lines = ["keys:"]
        for (index, key) in keys.enumerated() {
            let word = key + (index == keys.count - 1 ? "" : ",")
            if let last = lines.last, last.count + 1 + word.count <= 96 {
                lines[lines.count - 1] = last + " " + word
            } else {
                lines.append("      " + word)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Reads a command line, filling in the defaults: the data directory
    /// (`$XDG_DATA_HOME/loom/<app>`, or `~/.local/share/loom/<app>`), the backend directory (shared
    /// by the apps, or inside `--data-dir` when only that is given), the `perfect` network, an
    /// 80x24 headless screen and seed 1.
    ///
    /// - Parameters:
    ///   - arguments: the arguments, without the program name.
    ///   - app: the app's id, used in messages and in the default data directory.
    ///   - environment: the process environment (for `XDG_DATA_HOME`, `HOME` and `NO_COLOR`).
    ///   - isTerminal: whether standard input and output are a terminal.
    /// - Throws: `UsageError` for an unknown or malformed option; for `--script`, `--seed`,
    ///   `--width` or `--height` without `--headless`; for a `--server` that is not `http://HOST:PORT`; for a
    ///   `--user` with spaces; and for an interactive run when standard input or output is not a
    ///   terminal.
    package static func parse(
        _ arguments: [String], app: String, environment: [String: String], isTerminal: Bool
    ) throws(UsageError) -> LaunchConfiguration {
        let spec = commandLine(for: app)
        let parsed = try spec.parse(arguments)
        let width = try parsed.integer("width", in: 20...400) ?? 80
        let height = try parsed.integer("height", in: 5...200) ?? 24
        let headless = parsed.has("headless")
        let script = parsed.value("script")
        if script != nil && !headless {
            throw UsageError(command: app, "--script needs --headless")
        }
        var seed = BackendSeed.defaultSeed
        if let text = parsed.value("seed") {
            guard headless else { throw UsageError(command: app, "--seed needs --headless") }
            guard let number = UInt64(text) else {
                throw UsageError(
                    command: app, "invalid value '\(text)' for '--seed'; expected a whole number from 0 up")
            }
            seed = number
        }
        if !headless && (parsed.value("width") != nil || parsed.value("height") != nil) {
            throw UsageError(
                command: app, "--width and --height apply to --headless; a terminal sets its own size")
        }
        var serverURL: URL?
        if let text = parsed.value("server") {
            guard let url = URL(string: text), url.scheme == "http", url.host != nil else {
                throw UsageError(
                    command: app, "invalid value '\(text)' for '--server'; expected http://HOST:PORT")
            }
            serverURL = url
        }
        if let user = parsed.value("user"), user.isEmpty || user.contains(where: { $0.isWhitespace }) {
            throw UsageError(
                command: app, "invalid value '\(user)' for '--user'; expected a handle without spaces")
        }
        let mode: Mode
        if parsed.helpRequested {
            mode = .help
        } else if parsed.versionRequested {
            mode = .version
        } else if parsed.has("describe") {
            mode = .describe
        } else if parsed.has("sign-out") {
            mode = .signOut
        } else if headless {
            mode = .headless(script: script)
        } else {
            guard isTerminal else {
                throw UsageError(
                    command: app,
                    "standard input or output is not a terminal; run with --headless (and --script FILE) instead"
                )
            }
            mode = .interactive
        }
        let base = dataHome(environment)
        let dataDirectory = parsed.value("data-dir") ?? "\(base)/loom/\(app)"
        let backendDirectory =
            parsed.value("backend-dir")
            ?? (parsed.value("data-dir") != nil ? "\(dataDirectory)/backend" : "\(base)/loom/backend")
        var configuration = LaunchConfiguration(
            mode: mode, app: app, dataDirectory: dataDirectory, backendDirectory: backendDirectory,
            serverURL: serverURL,
            user: parsed.value("user"), network: parsed.value("network") ?? "perfect", width: width,
            height: height,
            trace: parsed.has("trace"), seed: seed,
            photosDirectory: photosDirectory(parsed.value("photos-dir"), environment))
        // The spec checked the value against the choices.
        configuration.images = parsed.value("images").flatMap(ImagesOption.init(rawValue:)) ?? .auto
        configuration.noColor = environment["NO_COLOR"] != nil
        return configuration
    }

    /// The picker's first folder: `given` (made absolute from the current directory), else
    /// `$HOME/Pictures` when it is a folder, else the current directory.
    static func photosDirectory(_ given: String?, _ environment: [String: String]) -> String {
        let current = FileManager.default.currentDirectoryPath
        if let given, !given.isEmpty {
            return DirectoryListing.standardized(given.hasPrefix("/") ? given : current + "/" + given)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            let pictures = DirectoryListing.standardized(home + "/Pictures")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: pictures, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                return pictures
            }
        }
        return current
    }

    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    static func dataHome(_ environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return "\(home)/.local/share"
    }
}
