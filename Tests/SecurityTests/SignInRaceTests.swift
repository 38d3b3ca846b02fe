@_spi(Testing) import Backend
import Foundation
import MediaModel
import Testing
import Wire

/// Racing the sign-in limit: many guesses at once, each hoping to be hashed before the earlier
/// ones are counted.
@Suite struct SignInRaceTests {
    @Test func fortyConcurrentWrongGuessesFromTwoAddresses_checkOnlyFivePasswords() async throws {
        // Given an account with a password of its own (hashed at the standard cost, so each guess
        // waits its turn at the hash gate, where earlier guesses have not been counted yet)
        let target = try AttackTarget(.embedded, demoMode: false)
        let created = try await target.createAccount("race_target", password: "the right one", key: "k-race")
        try #require(created.status == 201, "\(created.text)")
        let checkedBefore = target.backend.passwordsChecked
        // When 40 wrong guesses for it arrive at once from two addresses
        let backend = target.backend
        let statuses = await withTaskGroup(of: Int.self) { group in
            for guess in 0..<40 {
                group.addTask {
                    let body = #"{"handle": "race_target", "password": "wrong guess \#(guess)"}"#
                    return await backend.handle(
                        Request(
                            .post, "/v1/sessions", headers: ["Content-Type": "application/json"],
                            body: Data(body.utf8),
                            clientAddress: guess.isMultiple(of: 2) ? "192.0.2.1" : "192.0.2.2")
                    ).status
                }
            }
            return await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
        }
        // Then only five passwords were hashed and checked (the limit), and the rest were refused
        #expect(backend.passwordsChecked - checkedBefore == 5)
        #expect(statuses == [401: 5, 429: 35])
        // and the right password is refused too until the window passes
        #expect(try await target.signIn("race_target", "the right one").status == 429)
        await target.stop()
    }

    @Test func aSuccessfulSignIn_givesItsSlotBack() async throws {
        // Given an account and four wrong guesses for it
        let target = try AttackTarget(.embedded, demoMode: false)
        let created = try await target.createAccount("slot_owner", password: "the right one", key: "k-slot")
        try #require(created.status == 201, "\(created.text)")
        for guess in 1...4 {
            #expect(try await target.signIn("slot_owner", "wrong-\(guess)-pass").status == 401)
        }
        // When the owner signs in six times in a row
        var statuses: [Int] = []
        for _ in 1...6 { statuses.append(try await target.signIn("slot_owner", "the right one").status) }
        // Then every one succeeds: a success never counts against the limit
        #expect(statuses == Array(repeating: 200, count: 6))
        await target.stop()
    }
}
