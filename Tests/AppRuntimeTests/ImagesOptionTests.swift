import AppRuntime
import CommandLineKit
import TerminalUI
import Testing

/// `--images auto|kitty|blocks|ascii`: parsing, its errors and help, and the mode each run gets.
@Suite struct ImagesOptionTests {
    func parse(_ arguments: [String], environment: [String: String] = [:]) throws -> LaunchConfiguration {
        try LaunchConfiguration.parse(
            arguments, app: "demo", environment: ["HOME": "/home/ada"].merging(environment) { $1 },
            isTerminal: true)
    }

    @Test func images_defaultsToAuto_andTakesEachMode() throws {
        #expect(try parse([]).images == .auto)
        for option in ImagesOption.allCases {
            #expect(try parse(["--images", option.rawValue]).images == option)
        }
    }

    @Test func images_badValue_isAClearErrorListingTheChoices() {
        #expect(
            throws: UsageError(
                command: "demo",
                "invalid value 'sixel' for '--images'; expected one of: auto, kitty, blocks, ascii")
        ) { try parse(["--images", "sixel"]) }
    }

    @Test func help_documentsTheImagesOption() {
        let help = LaunchConfiguration.commandLine(for: "demo").helpText
        let line = help.split(separator: "\n").first { $0.contains("--images") }.map(String.init) ?? ""
        #expect(line.contains("--images MODE"))
        #expect(line.contains("(auto|kitty|blocks|ascii)"))
        #expect(help.contains("ascii under NO_COLOR"))
    }

    @Test func auto_interactive_asksTheTerminal_onlyWithColor() throws {
        let auto = try parse([])
        #expect(auto.asksTerminalAboutImages(colorMode: .trueColor))
        #expect(auto.asksTerminalAboutImages(colorMode: .palette256))
        #expect(!auto.asksTerminalAboutImages(colorMode: .none), "NO_COLOR: never asks")
        #expect(!(try parse(["--images", "blocks"])).asksTerminalAboutImages(colorMode: .trueColor))
        #expect(
            !(try parse(["--headless"])).asksTerminalAboutImages(colorMode: .trueColor), "headless never asks"
        )
    }

    @Test func auto_picksKittyWhereAnswered_elseBlocks_andAsciiWithoutColor() throws {
        let auto = try parse([])
        let registry = KittyImageRegistry(firstID: 1)
        #expect(
            auto.imageMode(colorMode: .trueColor, speaksKitty: true, registry: registry) == .kitty(registry))
        #expect(auto.imageMode(colorMode: .palette256, speaksKitty: false, registry: registry) == .blocks)
        #expect(auto.imageMode(colorMode: .none, speaksKitty: true, registry: registry) == .ascii)
    }

    @Test func explicitModes_winOverDetectionAndNoColor() throws {
        let registry = KittyImageRegistry(firstID: 1)
        let noColor = ["NO_COLOR": "1"]
        #expect(
            try parse(["--images", "kitty"], environment: noColor).imageMode(
                colorMode: .none, speaksKitty: false, registry: registry) == .kitty(registry))
        #expect(
            try parse(["--images", "blocks"], environment: noColor).imageMode(
                colorMode: .none, speaksKitty: true, registry: registry) == .blocks)
        #expect(
            try parse(["--images", "ascii"]).imageMode(
                colorMode: .trueColor, speaksKitty: true, registry: registry)
                == .ascii)
    }

    @Test func headless_autoIsBlocks_orAsciiUnderNoColor() throws {
        #expect(try parse(["--headless"]).headlessImageMode == .blocks)
        #expect(try parse(["--headless"], environment: ["NO_COLOR": ""]).headlessImageMode == .ascii)
        #expect(
            try parse(["--headless", "--images", "blocks"], environment: ["NO_COLOR": ""]).headlessImageMode
                == .blocks)
        #expect(try parse(["--headless", "--images", "ascii"]).headlessImageMode == .ascii)
        guard case .kitty = try parse(["--headless", "--images", "kitty"]).headlessImageMode else {
            Issue.record("--images kitty is kept headless: its frames show the placeholder cells")
            return
        }
    }
}
