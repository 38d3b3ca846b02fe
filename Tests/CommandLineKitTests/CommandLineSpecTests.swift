import CommandLineKit
import Testing

@Suite struct CommandLineSpecTests {
    let spec = CommandLineSpec(
        command: "tool", summary: "Does a thing.",
        options: [
            .flag("verbose", help: "print more"),
            .value("width", "N", help: "columns"),
            .value("network", "PROFILE", help: "conditions", choices: ["perfect", "offline"]),
        ],
        maximumPositionals: 1)

    @Test func flagsValuesAndPositionals_parse() throws {
        let parsed = try spec.parse(["--verbose", "--width", "100", "--network=offline", "file.txt"])
        #expect(parsed.has("verbose"))
        #expect(try parsed.integer("width", in: 20...400) == 100)
        #expect(parsed.value("network") == "offline")
        #expect(parsed.positionals == ["file.txt"])
    }

    @Test func unknownOption_isAnErrorWithDidYouMean() {
        #expect(throws: UsageError(command: "tool", "unknown option '--verbos'; did you mean '--verbose'?")) {
            try spec.parse(["--verbos"])
        }
    }

    @Test func missingValue_isAnError() {
        #expect(throws: UsageError(command: "tool", "option '--width' needs a value N")) {
            try spec.parse(["--width"])
        }
    }

    @Test func repeatedOption_isAnError() {
        #expect(throws: UsageError(command: "tool", "option '--verbose' given more than once")) {
            try spec.parse(["--verbose", "--verbose"])
        }
    }

    @Test func repeatableOption_keepsEveryValueInOrder() throws {
        let spec = CommandLineSpec(
            command: "tool", summary: "Does a thing.",
            options: [
                .values("module", "NAME", help: "a module (repeatable)"),
                .value("width", "N", help: "columns"),
            ])
        let parsed = try spec.parse(["--module", "ListEngine", "--width", "80", "--module=Features"])
        #expect(parsed.allValues("module") == ["ListEngine", "Features"])
        #expect(parsed.value("module") == "Features")
        #expect(parsed.allValues("width") == ["80"])
        #expect(parsed.allValues("missing") == [])
        #expect(spec.helpText.contains("--module NAME  a module (repeatable)"))
    }

    @Test func valueOutsideChoices_listsTheChoices() {
        #expect(
            throws: UsageError(
                command: "tool", "invalid value 'flaky' for '--network'; expected one of: perfect, offline")
        ) {
            try spec.parse(["--network", "flaky"])
        }
    }

    @Test func integerOutOfRange_isAnError() throws {
        let parsed = try spec.parse(["--width", "5"])
        #expect(
            throws: UsageError(
                command: "tool", "invalid value '5' for '--width'; expected a whole number from 20 to 400")
        ) {
            try parsed.integer("width", in: 20...400)
        }
    }

    @Test func tooManyPositionals_isAnError() {
        #expect(throws: UsageError(command: "tool", "unexpected argument 'b'")) {
            try spec.parse(["a", "b"])
        }
    }

    @Test func helpText_listsEveryOption() {
        let help = spec.helpText
        #expect(help.hasPrefix("usage: tool [options]\n\nDoes a thing."))
        #expect(help.contains("--width N"))
        #expect(help.contains("conditions (perfect|offline)"))
        #expect(help.contains("--help"))
    }

    @Test func usageError_pointsAtHelp() {
        #expect(
            UsageError(command: "tool", "bad").description == "tool: error: bad\nRun 'tool --help' for usage."
        )
    }
}
