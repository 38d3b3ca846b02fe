import AppTesting
import Composition
import Foundation
import Testing

/// Each app's composer rules, including the rejections, which lose nothing the person typed.
@Suite @MainActor struct ComposerScenarios {
    @Test(arguments: ShippedApp.all)
    func aPostBreakingTheAppsRules_isRejectedWithTheReasonAndKeepsTheText(app: ShippedApp) async throws {
        // An app that needs a photo: text without one. Any other: one character over the limit.
        let text = app.requiresPhoto ? "No photo here" : String(repeating: "x", count: app.textLimit + 1)
        let expected =
            app.missingPhotoMessage ?? "✕ text is 1 character over the limit of \(app.textLimit)"
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nkey n\ntype \(text)\nkey enter\nframe\n",
            directories: try TestDirectories.make(),
            height: 30)

        #expect(run.status == 0)
        let frame = run.lastFrame
        #expect(lines(frame)[28] == Substring(expected), "the status line says why")
        #expect(frame.contains(String(text.prefix(40))), "the draft is still there")
        #expect(frame.contains("\(text.count)/\(app.textLimit)"))
        GoldenFrames.check(frame, app: app.id, name: "composer-rejected", directory: goldenDirectory)
    }
}
