import MutationTesting
import Testing

@Suite struct SuiteFailuresTests {
    // Swift Testing's output (6.3) for a failing run: an issue line per failing test case, then
    // the summaries.
    let output = """
        ◇ Test run started.
        ✔ Test plain() passed after 0.001 seconds.
        ✘ Test "A display name" recorded an issue with 2 arguments app → tundra, n → 2 at T.swift:7:34: Expectation failed: (n → 2) == 1
        ✘ Test launch_showsFeed(app:) recorded an issue with 1 argument app → pebble at T.swift:5:39: Expectation failed: (app.name → "pebble") == "tundra"
        ✘ Test launch_showsFeed(app:) recorded an issue with 1 argument app → pebble at T.swift:6:5: Expectation failed: 1 == 2
        ✘ Test other() recorded an issue at T.swift:8:26: Expectation failed: 1 == 2
        ✘ Test "A display name" with 2 test cases failed after 0.001 seconds with 1 issue.
        ✘ Test launch_showsFeed(app:) with 2 test cases failed after 0.001 seconds with 1 issue.
        ✘ Suite Scenarios failed after 0.001 seconds with 3 issues.
        ✘ Test run with 3 tests in 1 suite failed after 0.001 seconds with 3 issues.
        """

    @Test func issueLines_giveEachFailingTestCaseOnceInOrder() {
        let failures = SuiteFailures(output: output).failures
        #expect(failures.map(\.test) == [#""A display name""#, "launch_showsFeed(app:)", "other()"])
        #expect(failures.map(\.arguments) == ["app → tundra, n → 2", "app → pebble", ""])
        #expect(failures.map(\.argumentValue) == ["tundra", "pebble", nil])
    }

    @Test func testsRun_addsTheSummariesOfBothLibraries() {
        #expect(SuiteFailures(output: output).testsRun == 3)
        let both =
            "\t Executed 2 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds\n"
            + "✔ Test run with 91 tests in 24 suites passed after 75.774 seconds.\n"
        #expect(SuiteFailures(output: both).testsRun == 93)
        let none =
            "warning: No matching test cases were run\n\t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds\n"
            + "✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.\n"
        #expect(SuiteFailures(output: none).testsRun == 0)
    }

    @Test func failingValues_areTheAppsInOrderOfFirstFailure() {
        #expect(SuiteFailures(output: output).failingValues == ["tundra", "pebble"])
    }

    @Test func aCrash_givesTheTrapsMessageAndNoFailures() {
        let trapped = """
            ◇ Test run started.
            ◇ Test launch_showsFeed(app:) started.
            Swift/ContiguousArrayBuffer.swift:691: Fatal error: Index out of range
            *** Program crashed: Illegal instruction at 0x00007fb26bcf9bc1 ***
            error: Process 'x.xctest' exited with unexpected signal code 4
            """
        #expect(SuiteFailures(output: trapped).failures == [])
        #expect(SuiteFailures(output: trapped).crash == "Fatal error: Index out of range")
        let killed =
            "◇ Test run started.\n0x7fb2 libdispatch.so  error: Process 'x.xctest' exited with unexpected signal code 11\n"
        #expect(
            SuiteFailures(output: killed).crash
                == "error: Process 'x.xctest' exited with unexpected signal code 11")
        #expect(SuiteFailures(output: output).crash == nil)
    }
}
