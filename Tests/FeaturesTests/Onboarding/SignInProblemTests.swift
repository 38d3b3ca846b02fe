import Features
import Testing
import Wire

/// What the sign-in screen says when signing in fails, in the person's terms.
@Suite struct SignInProblemTests {
    @Test func aServerBrieflyUnavailable_saysItIsTheServers_andWhenToTryAgain() {
        let error = TransportError(.serverError, "unavailable", status: 503, retryAfter: .seconds(3))

        let message = OnboardingScreen.signInProblem(handle: "kit", error)

        #expect(
            message == "the server is unavailable (503); try again in 3 s to sign in as @kit")
    }

    @Test func anotherServerError_namesItsStatus_andSaysToTryAgainLater() {
        let error = TransportError(.serverError, "boom", status: 500)

        let message = OnboardingScreen.signInProblem(handle: "kit", error)

        #expect(message == "the server had a problem (500); try again later to sign in as @kit")
    }

    @Test func creatingAnAccountOnAServerBrieflyUnavailable_saysWhenToTryAgain() {
        let error = TransportError(
            .serverError, "HTTP 503 Service Unavailable (injected_fault): the server…", status: 503)

        #expect(
            OnboardingScreen.createProblem(handle: "lena", error)
                == "the server is unavailable (503); try again later to create @lena")
        #expect(
            OnboardingScreen.createProblem(handle: "lena", TransportError(.conflict, "taken", status: 409))
                == "could not create @lena: that handle is taken")
    }

    @Test func theKnownCases_keepTheirWords() {
        #expect(
            OnboardingScreen.signInProblem(handle: "kit", TransportError(.unauthorized, "no", status: 401))
                == "wrong password for @kit; try again")
        #expect(
            OnboardingScreen.signInProblem(handle: "kit", TransportError(.offline, "refused"))
                == "cannot sign in as @kit: the server cannot be reached; try again when it is back")
    }

    /// A lockout says how long in the unit a person thinks in: "in 15 min", not "in 893 s".
    @Test(arguments: [
        (893, "15 min"), (45, "45 s"), (60, "1 min"), (61, "2 min"), (3600, "1 h"), (7201, "3 h"),
    ])
    func aLockout_saysWhenInMinutesOrHours(seconds: Int, said: String) {
        let error = TransportError(.rateLimited, "locked", status: 429, retryAfter: .seconds(seconds))

        #expect(
            OnboardingScreen.signInProblem(handle: "kit", error)
                == "too many failed sign-ins for @kit; try again in \(said)")
    }

    /// With no server answering at the address the app was given, the message names it.
    @Test func noServer_namesTheAddress() {
        let error = TransportError(.offline, "refused")

        #expect(
            OnboardingScreen.createProblem(handle: "newbie", error, server: "http://127.0.0.1:9")
                == "cannot create @newbie: the server at http://127.0.0.1:9 cannot be reached; try again when it is back"
        )
        #expect(
            OnboardingScreen.signInProblem(handle: "kit", error, server: "http://127.0.0.1:9")
                == "cannot sign in as @kit: the server at http://127.0.0.1:9 cannot be reached; try again when it is back"
        )
    }
}
