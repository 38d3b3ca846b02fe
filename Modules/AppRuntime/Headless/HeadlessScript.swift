import Basics
import Composition
import Features
import Foundation
import Wire

/// A headless script: one command per line, `#` starts a comment, spaces and tabs at either end
/// of a line are ignored. It drives an app without a terminal and prints frames, so a test (or a
/// person) can check what each app shows.
///
/// ```
/// # like the first post offline, then come back online
/// wait
/// network offline
/// key l
/// wait
/// expect ♥ 2
/// restart
/// network perfect
/// wait
/// expect ♥ 2
/// ```
///
/// `attach PATH` adds a photo file to the open composer (`key n` opens it) and `alt TEXT` describes
/// the photo attached last:
///
/// ```
/// key n
/// type Low tide
/// attach photos/pier.jpg
/// alt The pier at low tide, boats on the sand
/// key enter
/// wait
/// ```
package struct HeadlessScript: Sendable, Equatable {
    /// One command and the line it was written on.
    package struct Step: Sendable, Equatable {
        /// The command.
        package var command: HeadlessCommand
        /// The 1-based line number in the script.
        package var line: Int
    }

    /// The commands, in order.
    package var steps: [Step]

    /// Parses a script. `name` is how errors name the script (a path, or `<stdin>`).
    package static func parse(_ text: String, name: String) throws(HeadlessScriptError) -> HeadlessScript {
        var steps: [Step] = []
        var lineNumber = 0
        // "\r\n" is one Character, so splitting on "\n" alone would not split Windows lines.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            var line = rawLine
            while let last = line.last, last == " " || last == "\t" { line.removeLast() }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let word = String(trimmed.prefix { $0 != " " && $0 != "\t" })
            let rest = String(trimmed.dropFirst(word.count).drop { $0 == " " || $0 == "\t" })
            do {
                steps.append(Step(command: try HeadlessCommand(word: word, argument: rest), line: lineNumber))
            } catch {
                throw HeadlessScriptError(script: name, line: lineNumber, message: error.message)
            }
        }
        return HeadlessScript(steps: steps)
    }
}

/// One command of a headless script.
package enum HeadlessCommand: Sendable, Equatable {
    /// Presses a key.
    case key(HeadlessKey)
    /// Types text, character by character.
    case type(String)
    /// Waits until nothing is in flight or due now.
    case wait
    /// Prints the screen between `--- frame N ---` and `--- end ---`.
    case frame
    /// Fails the script (exit status 1, the frame on stderr) unless the screen shows the text.
    case expect(String)
    /// Fails the script unless the screen does not show the text.
    case expectNot(String)
    /// Switches the network conditions.
    case network(String)
    /// Moves the app's clock forward (backoff timers come due).
    case advance(seconds: Double)
    /// Delivers a lifecycle event: `foreground`, `background` or `memory-warning`.
    case event(LifecycleEvent)
    /// Delivers a push event with a JSON payload, checked when the script is read (a
    /// `PushPayload`).
    case push(String)
    /// Stops the services in reverse order and launches again on the same data: a cold start.
    case restart
    /// Resizes the screen.
    case resize(width: Int, height: Int)
    /// Attaches the photo file at the path (relative paths from the current directory) to the
    /// open composer, as picking it in the photo picker does.
    case attach(String)
    /// Sets the alt text of the photo attached last in the open composer.
    case alt(String)

    /// The command words, for help and suggestions.
    package static let words = [
        "key", "type", "wait", "frame", "expect", "expect-not", "network", "advance", "event", "push",
        "restart", "resize", "attach", "alt",
    ]

    /// The network profiles `network` accepts: the fault presets.
    package static let networkProfiles = FaultProfile.presets.map(\.name)

    /// The events `event` accepts, by the name a script gives them.
    package static let events: KeyValuePairs<String, LifecycleEvent> = [
        "foreground": .foreground, "background": .background, "memory-warning": .memoryWarning,
    ]

    struct ParseFailure: Error {
        var message: String
    }

    init(word: String, argument: String) throws(ParseFailure) {
        func needsArgument(_ what: String) throws(ParseFailure) {
            if argument.isEmpty { throw ParseFailure(message: "'\(word)' needs \(what)") }
        }
        func noArgument() throws(ParseFailure) {
            if !argument.isEmpty {
                throw ParseFailure(message: "'\(word)' takes no argument, found '\(argument)'")
            }
        }
        switch word {
        case "key":
            try needsArgument("a key name (\(HeadlessKey.names.joined(separator: ", ")), or one character)")
            guard let key = HeadlessKey(name: argument) else {
                let hint = Suggestion.didYouMean(argument, in: HeadlessKey.names + ["escape"])
                throw ParseFailure(
                    message: hint.isEmpty
                        ? "unknown key '\(argument)'; use one of \(HeadlessKey.names.joined(separator: ", ")), or a single character"
                        : "unknown key '\(argument)'\(hint)")
            }
            self = .key(key)
        case "type":
            try needsArgument("text")
            self = .type(argument)
        case "wait":
            try noArgument()
            self = .wait
        case "frame":
            try noArgument()
            self = .frame
        case "expect":
            try needsArgument("the text to look for")
            self = .expect(argument)
        case "expect-not":
            try needsArgument("the text that must not show")
            self = .expectNot(argument)
        case "network":
            guard Self.networkProfiles.contains(argument) else {
                throw ParseFailure(
                    message:
                        "unknown network profile '\(argument)'; use one of \(Self.networkProfiles.joined(separator: ", "))"
                )
            }
            self = .network(argument)
        case "advance":
            guard let seconds = Double(argument), seconds >= 0, seconds.isFinite else {
                throw ParseFailure(message: "'advance' needs a number of seconds, found '\(argument)'")
            }
            self = .advance(seconds: seconds)
        case "event":
            guard let event = Self.events.first(where: { $0.key == argument })?.value else {
                throw ParseFailure(
                    message:
                        "unknown event '\(argument)'; use one of \(Self.events.map(\.key).joined(separator: ", "))"
                )
            }
            self = .event(event)
        case "push":
            try needsArgument("a JSON payload")
            do {
                _ = try PushPayload(parsing: Data(argument.utf8))
            } catch {
                throw ParseFailure(message: "invalid push payload '\(argument)': \(error)")
            }
            self = .push(argument)
        case "restart":
            try noArgument()
            self = .restart
        case "resize":
            let parts = argument.split(separator: " ").compactMap { Int($0) }
            guard parts.count == 2, (20...400).contains(parts[0]), (5...200).contains(parts[1]) else {
                throw ParseFailure(
                    message: "'resize' needs a width (20-400) and a height (5-200), found '\(argument)'")
            }
            self = .resize(width: parts[0], height: parts[1])
        case "attach":
            try needsArgument("the path of a JPEG or PNG file")
            self = .attach(argument)
        case "alt":
            try needsArgument("the alt text")
            self = .alt(argument)
        default:
            throw ParseFailure(message: "unknown command '\(word)'\(suggestion(for: word))")
        }
    }
}

private func suggestion(for word: String) -> String {
    let hint = Suggestion.didYouMean(word, in: HeadlessCommand.words)
    return hint.isEmpty ? " (commands: \(HeadlessCommand.words.joined(separator: ", ")))" : hint
}

/// A key a script can press.
package enum HeadlessKey: Sendable, Equatable {
    /// `up`.
    case up
    /// `down`.
    case down
    /// `left`.
    case left
    /// `right`.
    case right
    /// `enter`.
    case enter
    /// `esc` (or `escape`).
    case escape
    /// `tab`.
    case tab
    /// `backspace`.
    case backspace
    /// A printable character.
    case character(Character)

    /// The named keys.
    package static let names = ["up", "down", "left", "right", "enter", "esc", "tab", "backspace", "space"]

    /// The key a script name stands for: a named key or a single character.
    package init?(name: String) {
        switch name {
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        case "enter": self = .enter
        case "esc", "escape": self = .escape
        case "tab": self = .tab
        case "backspace": self = .backspace
        case "space": self = .character(" ")
        default:
            guard name.count == 1, let character = name.first else { return nil }
            self = .character(character)
        }
    }
}

/// A script that cannot run: its name, the line, and what is wrong.
package struct HeadlessScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// How the script is named (a path or `<stdin>`).
    package var script: String
    /// The 1-based line.
    package var line: Int
    /// What is wrong.
    package var message: String

    /// Makes an error.
    package init(script: String, line: Int, message: String) {
        self.script = script
        self.line = line
        self.message = message
    }

    package var description: String { "\(script):\(line): error: \(message)" }
}
