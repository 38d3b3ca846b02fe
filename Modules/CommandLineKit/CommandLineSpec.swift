import Basics
import Foundation

/// A strict description of a command's options, shared by the apps and the tools: parses
/// arguments, rejects unknown or malformed ones with a clear message, and prints `--help`.
///
/// ```swift
/// let spec = CommandLineSpec(command: "tool", summary: "Does a thing.", options: [
///     .flag("verbose", help: "print more"),
///     .value("width", "N", help: "columns (default 80)"),
/// ])
/// let arguments = try spec.parse(["--width", "100"])
/// let width = try arguments.integer("width", in: 20...400) ?? 80
/// ```
///
/// Options take `--name value` or `--name=value`; `--` ends options; giving an option twice
/// is an error, unless it is repeatable (``Option/values(_:_:help:)``).
public struct CommandLineSpec: Sendable {
    /// One option.
    public struct Option: Sendable {
        /// The name without dashes (`data-dir`).
        public let name: String
        /// The placeholder for the value (`DIR`), or nil for a flag.
        public let valueName: String?
        /// What it does, one line.
        public let help: String
        /// The values allowed, if limited.
        public let choices: [String]?
        /// Whether it may be given more than once (each value is kept).
        public var repeatable = false

        /// An option without a value.
        public static func flag(_ name: String, help: String) -> Option {
            Option(name: name, valueName: nil, help: help, choices: nil)
        }

        /// An option with a value.
        public static func value(_ name: String, _ valueName: String, help: String, choices: [String]? = nil)
            -> Option
        {
            Option(name: name, valueName: valueName, help: help, choices: choices)
        }

        /// An option with a value that may be given more than once (`--module A --module B`);
        /// read every value with ``ParsedArguments/allValues(_:)``.
        public static func values(_ name: String, _ valueName: String, help: String) -> Option {
            Option(name: name, valueName: valueName, help: help, choices: nil, repeatable: true)
        }
    }

    /// The command's name, as typed.
    public let command: String
    /// What the command does, one or two lines.
    public let summary: String
    /// The usage line after the command name (`[options] [FILE ...]`).
    public let usage: String
    /// The options.
    public let options: [Option]
    /// The most positional arguments accepted.
    public let maximumPositionals: Int
    /// Extra text after the options list (examples, exit codes).
    public var epilogue: String { makeEpilogue() }
    /// Makes the epilogue when `--help` asks: a launch that does not show its help does not pay
    /// for composing it.
    private let makeEpilogue: @Sendable () -> String

    /// Makes a spec. `--help` is always accepted.
    public init(
        command: String, summary: String, usage: String = "[options]", options: [Option],
        maximumPositionals: Int = 0, epilogue: @autoclosure @escaping @Sendable () -> String = ""
    ) {
        self.command = command
        self.summary = summary
        self.usage = usage
        self.options = options
        self.maximumPositionals = maximumPositionals
        self.makeEpilogue = epilogue
    }

    /// The `--help` text.
    public var helpText: String {
        var lines = ["usage: \(command) \(usage)", "", summary, "", "options:"]
        let all = options + [.flag("help", help: "show this help and exit")]
        let labels = all.map { option in
            "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, all) {
            var help = option.help
            if let choices = option.choices { help += " (\(choices.joined(separator: "|")))" }
            lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + help)
        }
        if !epilogue.isEmpty { lines += ["", epilogue] }
        return lines.joined(separator: "\n")
    }

    /// Parses arguments (without the program name).
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments(command: command)
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                guard result.positionals.count < maximumPositionals else {
                    throw UsageError(command: command, "unexpected argument '\(argument)'")
                }
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                result.helpRequested = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError(command: command, "unknown option '\(argument)'\(suggestion(for: argument))")
            }
            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError(command: command, "unknown option '--\(name)'\(suggestion(for: name))")
            }
            if result.seen.contains(name) && !option.repeatable {
                throw UsageError(command: command, "option '--\(name)' given more than once")
            }
            result.seen.insert(name)
            guard let valueName = option.valueName else {
                if inlineValue != nil {
                    throw UsageError(command: command, "option '--\(name)' takes no value")
                }
                result.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError(command: command, "option '--\(name)' needs a value \(valueName)")
                }
                value = arguments[index]
                index += 1
            }
            if let choices = option.choices, !choices.contains(value) {
                throw UsageError(
                    command: command,
                    "invalid value '\(value)' for '--\(name)'; expected one of: \(choices.joined(separator: ", "))"
                )
            }
            result.values[name] = value
            result.repeatedValues[name, default: []].append(value)
        }
        return result
    }

    private func suggestion(for word: String) -> String {
        let bare = String(word.drop { $0 == "-" })
        return Suggestion.closest(to: bare, in: options.map(\.name) + ["help"]).map {
            "; did you mean '--\($0)'?"
        } ?? ""
    }
}

/// The result of parsing a command line.
public struct ParsedArguments: Sendable {
    /// The command's name, for messages.
    public let command: String
    /// Flags that were given.
    public var flags: Set<String> = []
    /// Option values, by option name (the last one given, for a repeatable option).
    public var values: [String: String] = [:]
    /// Every value given for each option, in order.
    public var repeatedValues: [String: [String]] = [:]
    /// Arguments that are not options, in order.
    public var positionals: [String] = []
    /// Whether `--help` was given.
    public var helpRequested = false
    var seen: Set<String> = []

    init(command: String) {
        self.command = command
    }

    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// An option's value, if given.
    public func value(_ name: String) -> String? { values[name] }

    /// Every value given for an option, in order; empty when it was not given.
    public func allValues(_ name: String) -> [String] { repeatedValues[name] ?? [] }

    /// An option's value as an integer within `range`, if given.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                command: command,
                "invalid value '\(text)' for '--\(name)'; expected a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return number
    }
}

/// A command line the command cannot accept. Commands print it and exit with status 2.
public struct UsageError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The command's name.
    public let command: String
    /// What is wrong with the command line.
    public let message: String

    /// Makes an error.
    public init(command: String, _ message: String) {
        self.command = command
        self.message = message
    }

    /// `command: error: message` and a pointer to `--help`.
    public var description: String { "\(command): error: \(message)\nRun '\(command) --help' for usage." }
}
