import HTTPServer
import Testing
import Wire

/// The `--faults PROFILE` syntax.
@Suite struct HTTPFaultProfileTests {
    @Test(arguments: [
        ("none", HTTPFaultProfile.none),
        ("slow", .slow),
        ("flaky", .flaky),
        ("drop-after-apply", .dropAfterApply),
        ("DROP-AFTER-APPLY", .dropAfterApply),
        (
            "latency=50ms,5xx=0.1,drop=0.2",
            HTTPFaultProfile(
                latency: .fixed(.milliseconds(50)), serverErrorRate: 0.1, dropAfterApplyRate: 0.2)
        ),
        ("latency=1.5s", HTTPFaultProfile(latency: .fixed(.milliseconds(1500)))),
        ("latency=0ms", HTTPFaultProfile(latency: .none)),
        ("latency=20ms..300ms", HTTPFaultProfile(latency: .uniform(.milliseconds(20), .milliseconds(300)))),
        ("5xx=25%,status=500", HTTPFaultProfile(serverErrorRate: 0.25, serverErrorStatus: 500)),
        ("drop=1, seed=9", HTTPFaultProfile(dropAfterApplyRate: 1, seed: 9)),
    ])
    func aProfileString_reads(_ text: String, _ expected: HTTPFaultProfile) throws {
        #expect(try HTTPFaultProfile(parsing: text) == expected)
    }

    @Test func aPresetWithSettings_keepsItsNameAndTakesTheOverrides() throws {
        let profile = try HTTPFaultProfile(parsing: "flaky,seed=7,5xx=0")
        #expect(profile.name == "flaky")
        #expect(profile.seed == 7)
        #expect(profile.serverErrorRate == 0)
        #expect(profile.dropAfterApplyRate == 0.1)
    }

    @Test(arguments: [
        ("", "it has an empty part; separate settings with single commas"),
        (
            "storm",
            "'storm' is neither a preset (none, slow, flaky, drop-after-apply) nor a setting such as latency=50ms"
        ),
        (
            "latency=50ms,flaky",
            "'flaky' is not a setting; a preset may only come first, settings look like drop=0.2"
        ),
        ("latency=50", "latency '50' is not a duration such as 50ms or 1.5s, or a range such as 20ms..300ms"),
        (
            "latency=300ms..20ms",
            "latency range '300ms..20ms' needs two durations, the smaller first, such as 20ms..300ms"
        ),
        ("5xx=2", "5xx rate '2' is not a share from 0 to 1; write it as 0.25 or 25%"),
        ("drop=-0.1", "drop rate '-0.1' is not a share from 0 to 1; write it as 0.25 or 25%"),
        ("status=404", "status '404' is not a 5xx status; use a number from 500 to 599"),
        ("seed=x", "seed 'x' is not a whole number from 0 up"),
        ("drop=0.1,drop=0.2", "setting 'drop' is given more than once"),
        ("jitter=5ms", "unknown setting 'jitter'; the settings are latency, 5xx, status, drop and seed"),
    ])
    func aBadProfileString_saysWhatIsWrong(_ text: String, _ problem: String) {
        #expect {
            _ = try HTTPFaultProfile(parsing: text)
        } throws: { error in
            (error as? HTTPFaultProfileError)?.message
                == "invalid fault profile '\(text)': \(problem) (for example 'flaky' or "
                + "'latency=50ms,5xx=0.1,drop=0.2'; see --help)"
        }
    }

    @Test func theDescription_namesEveryFault() {
        #expect(HTTPFaultProfile.none.description == "none (no faults)")
        #expect(
            HTTPFaultProfile.flaky.description
                == "flaky (latency uniform(0.02 seconds, 0.3 seconds), 503 15%, drop after apply 10%, seed 1)"
        )
    }
}
