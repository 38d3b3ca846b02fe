import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

/// `PUT /v1/me/profile`: a person sets their display name and bio, within the limits account
/// creation has (a name of 1 to 50 characters, a bio of up to 300), and the new name shows
/// everywhere names show: their profile, their posts in every feed, the accounts list.
@Suite struct ProfileEditTests {
    static func body(name: String?, bio: String?) -> String {
        var fields: [String: JSONValue] = [:]
        if let name { fields["displayName"] = .string(name) }
        if let bio { fields["bio"] = .string(bio) }
        return String(decoding: JSONValue.object(fields).serialized(), as: UTF8.self)
    }

    @Test func aNewNameAndBio_showOnTheProfile_andOnEveryPostOfTheirsInOthersFeeds() async throws {
        // Given grace, whose posts are on ada's Home
        let server = try BackendFixture.fresh()
        let grace = TestClient(server: server).as("grace")
        let ada = TestClient(server: server)
        let before = await ada.get("/v1/feed", ["limit": "100"])
        let hers = before.json["page", "entries"].array.filter {
            $0["media", "author", "handle"].stringValue == "grace"
        }
        try #require(!hers.isEmpty, "grace has posts on ada's Home")

        // When she sets a new name and bio
        let response = await grace.send(
            .put, "/v1/me/profile", body: Self.body(name: "  Grace H.  ", bio: "Compilers.\nAlso: sea."),
            key: UUID().uuidString)

        // Then the answer is a mutation that changed something, and her own profile has them
        // (the name trimmed)
        #expect(response.status == 200, "\(response.errorMessage ?? "")")
        #expect(response.json["mutation", "changed"] == .bool(true))
        let me = await grace.get("/v1/me")
        #expect(me.json["profile", "user", "displayName"].stringValue == "Grace H.")
        #expect(me.json["profile", "user", "bio"].stringValue == "Compilers.\nAlso: sea.")
        // and her profile, her posts on ada's Home and the accounts list all say the new name
        let profile = await ada.get("/v1/users/u2")
        #expect(profile.json["profile", "user", "displayName"].stringValue == "Grace H.")
        #expect(profile.json["profile", "user", "bio"].stringValue == "Compilers.\nAlso: sea.")
        let after = await ada.get("/v1/feed", ["limit": "100"])
        let names = after.json["page", "entries"].array
            .filter { $0["media", "author", "handle"].stringValue == "grace" }
            .map { $0["media", "author", "displayName"].stringValue }
        #expect(names.count == hers.count)
        #expect(Set(names) == ["Grace H."])
        let accounts = await TestClient(server: server, token: nil).get("/v1/accounts")
        let listed = accounts.json["accounts", "items"].array.first {
            $0["user", "handle"].stringValue == "grace"
        }
        #expect(listed?["user", "displayName"].stringValue == "Grace H.", "\(accounts.json)")
    }

    @Test func onlyTheFieldsSent_change() async throws {
        let server = try BackendFixture.fresh()
        let grace = TestClient(server: server).as("grace")
        _ = await grace.send(
            .put, "/v1/me/profile", body: Self.body(name: "Grace", bio: "Before"), key: UUID().uuidString)

        _ = await grace.send(
            .put, "/v1/me/profile", body: Self.body(name: "G. Hopper", bio: nil), key: UUID().uuidString)
        let renamed = await grace.get("/v1/me")
        #expect(renamed.json["profile", "user", "displayName"].stringValue == "G. Hopper")
        #expect(renamed.json["profile", "user", "bio"].stringValue == "Before")

        _ = await grace.send(
            .put, "/v1/me/profile", body: Self.body(name: nil, bio: ""), key: UUID().uuidString)
        let cleared = await grace.get("/v1/me")
        #expect(cleared.json["profile", "user", "displayName"].stringValue == "G. Hopper")
        #expect(cleared.json["profile", "user", "bio"].stringValue == "")

        // The same key again is answered as the first time and applied once
        let first = await grace.send(
            .put, "/v1/me/profile", body: Self.body(name: "Once", bio: nil), key: "k1")
        let again = await grace.send(
            .put, "/v1/me/profile", body: Self.body(name: "Once", bio: nil), key: "k1")
        #expect(first.json["mutation", "changed"] == .bool(true))
        #expect(again.headers["Idempotent-Replayed"] == "true" && again.body == first.body)
    }

    /// The limits, tried at, under and over: 50 characters of name and 300 of bio are taken,
    /// 51 and 301 are refused with the limit named, and nothing changes.
    @Test(
        arguments: [
            (name: String(repeating: "n", count: 49), bio: "", refusal: nil),
            (name: String(repeating: "n", count: 50), bio: String(repeating: "b", count: 300), refusal: nil),
            (
                name: String(repeating: "n", count: 51), bio: "",
                refusal: "displayName: must be 1 to 50 characters, found 51"
            ),
            (
                name: "Fine", bio: String(repeating: "b", count: 301),
                refusal: "bio: 301 characters is over the limit of 300"
            ),
            (name: "   ", bio: "", refusal: "displayName: must be 1 to 50 characters, found 0"),
            (
                name: "Eve\u{1B}[2J", bio: "",
                refusal:
                    "displayName: U+001B (a control character) at character 4 is not allowed; use letters, marks, numbers, punctuation, symbols and spaces"
            ),
        ] as [(name: String, bio: String, refusal: String?)])
    func theLimits_atUnderAndOver(name: String, bio: String, refusal: String?) async throws {
        let server = try BackendFixture.fresh()
        let grace = TestClient(server: server).as("grace")
        let before = await grace.get("/v1/me")

        let response = await grace.send(
            .put, "/v1/me/profile", body: Self.body(name: name, bio: bio), key: UUID().uuidString)

        let after = await grace.get("/v1/me")
        if let refusal {
            #expect(response.status == 400)
            #expect(response.errorMessage == refusal)
            #expect(after.json["profile", "user"] == before.json["profile", "user"])
        } else {
            #expect(response.status == 200, "\(response.errorMessage ?? "")")
            #expect(after.json["profile", "user", "displayName"].stringValue == name)
            #expect(after.json["profile", "user", "bio"].stringValue == bio)
        }
    }

    @Test func withoutASession_itIs401_andAnEmptyBodyIs400() async throws {
        let server = try BackendFixture.fresh()
        let nobody = await TestClient(server: server, token: nil).send(
            .put, "/v1/me/profile", body: Self.body(name: "Mallory", bio: nil), key: UUID().uuidString)
        #expect(nobody.status == 401)
        let empty = await TestClient(server: server).send(
            .put, "/v1/me/profile", body: "{}", key: UUID().uuidString)
        #expect(empty.status == 400)
        #expect(empty.errorMessage == "send displayName, bio or both")
    }
}
