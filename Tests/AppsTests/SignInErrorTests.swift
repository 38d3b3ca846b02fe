import AppTesting
import Testing

/// What a person reads when `--user` cannot sign in: what is wrong and what to do, in their
/// terms, without routes, status codes or advice meant for a programmer.
@Suite @MainActor struct SignInErrorTests {
    @Test(arguments: ShippedApp.all)
    func unknownHandle_saysThereIsNoSuchAccountAndWhatToDo(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition, script: "frame\n", directories: try TestDirectories.make(),
            extraArguments: ["--user", "nosuch"])
        #expect(run.status == 1)
        #expect(
            run.errors
                == "\(app.id): error: there is no account @nosuch on this backend; start without --user to "
                + "make one, or pass the handle of an existing account\n")
    }

    @Test(arguments: ShippedApp.all)
    func offline_saysTheBackendCannotBeReached_andNothingWillBeRetried(app: ShippedApp) async throws {
        let run = await HeadlessHarness.run(
            app.definition, script: "frame\n", directories: try TestDirectories.make(),
            extraArguments: ["--user", "grace", "--network", "offline"])
        #expect(run.status == 1)
        #expect(
            run.errors
                == "\(app.id): error: cannot sign in as @grace: the backend cannot be reached (the network is "
                + "offline); try again when it is back\n")
    }
}
