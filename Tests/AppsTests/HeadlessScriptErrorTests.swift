import AppTesting
import Composition
import Testing

/// Whole headless runs, as a person starts them: a script that cannot run says which line is
/// wrong and exits non-zero before anything runs; whitespace at the end of a line means nothing.
@Suite @MainActor struct HeadlessScriptErrorTests {
    @Test(arguments: [
        (
            "push {bad json",
            #"<stdin>:2: error: invalid push payload '{bad json': not valid JSON; write an object such as {"kind": "like", "from": "grace"}"#
        ),
        (
            #"push {"kind":"nope"}"#,
            #"<stdin>:2: error: invalid push payload '{"kind":"nope"}': unknown kind 'nope'; use one of reply, like, follow, mention"#
        ),
    ])
    func aBadPushPayload_isAScriptErrorNamingTheLine(line: String, error: String) async throws {
        for app in ShippedApp.all {
            // Given a script whose second line pushes a payload the app cannot read
            let run = await HeadlessHarness.run(
                app.definition, script: "wait\n\(line)\nframe\n", directories: try TestDirectories.make())

            // Then nothing runs: the error names the line and what is wrong, and the status is 2
            #expect(run.status == 2, "\(app.id)")
            #expect(run.errors == error + "\n", "\(app.id)")
            #expect(run.frames.isEmpty, "\(app.id): no frame before the script is known good")
        }
    }

    @Test(arguments: ShippedApp.all)
    func trailingSpacesAfterAKey_areIgnored(app: ShippedApp) async throws {
        // Given a script that moves down with `key j  ` (two trailing spaces)
        let spaced = await HeadlessHarness.run(
            app.definition, script: "wait\nkey j  \nwait\nframe\n", directories: try TestDirectories.make())
        let plain = await HeadlessHarness.run(
            app.definition, script: "wait\nkey j\nwait\nframe\n", directories: try TestDirectories.make())

        // Then it runs exactly as `key j` does
        #expect(spaced.errors == "")
        #expect(spaced.status == 0)
        #expect(spaced.frames.count == 1)
        #expect(spaced.frames == plain.frames)
    }

    @Test(arguments: ShippedApp.all)
    func anUnknownKeyName_isStillAScriptError(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition, script: "wait\nkey entr  \n", directories: try TestDirectories.make())

        #expect(run.status == 2)
        #expect(run.errors == "<stdin>:2: error: unknown key 'entr'; did you mean 'enter'?\n")
    }
}
