import Foundation
import MediaModel
import Mutations
import ServerAPI
import Testing
import Wire

/// Each kind of change is described once (MutationKinds.swift); these check that the
/// descriptions agree with each other and that what derives from them (the request, the lane,
/// the journal, the keys) holds for every kind, a new one included.
@Suite struct MutationKindTests {
    /// A change of `kind` on seeded content: post m1 (or `media`), user u2.
    static func sample(of kind: MutationKind, media: MediaID = "m1") -> Mutation {
        switch kind.subject {
        case .newPost: Mutation(kind, text: "a sample \(kind) · ünïcödé ✓", attachments: [])
        case .reply: Mutation(kind, to: media, text: "a sample \(kind) · ünïcödé ✓", attachments: [])
        case .media: Mutation(kind, media)
        case .user: Mutation(kind, UserID("u2"))
        case .conversation: Mutation(kind, in: "c1", text: "a sample \(kind) · ünïcödé ✓", sharing: media)
        case .account: .profile(displayName: "Ada · ünïcödé ✓", bio: "a sample \(kind)")
        }
    }

    @Test func everyKind_hasItsOwnNameTagAndRoute() {
        let kinds = MutationKind.all
        #expect(Set(kinds.map(\.name)).count == kinds.count, "two kinds share a name")
        #expect(Set(kinds.map(\.journalTag)).count == kinds.count, "two kinds share a journal tag")
        #expect(!kinds.contains { $0.journalTag == 0 }, "tag 0 is not a kind's")
        #expect(Set(kinds.map(\.route)).count == kinds.count, "two kinds share a route")
        #expect(
            kinds.allSatisfy {
                MutationKind(named: $0.name) == $0 && MutationKind(journalTag: $0.journalTag) == $0
            })
    }

    @Test func thePostKeys_areDistinct_andNoneIsTheProfileKey() {
        let keys = MutationKind.all.compactMap(\.key?.character)
        #expect(Set(keys).count == keys.count, "two kinds share a post key: \(keys)")
        #expect(!keys.contains("p"), "p opens the author's profile")
    }

    @Test func aToggle_isUndoneByAKindOfTheSameFlagAndRoute() throws {
        for kind in MutationKind.all where kind.key?.action == .toggle {
            let undo = try #require(kind.undoKind, "\(kind) toggles but names no undo kind in `all`")
            guard case .flag(let flag, true) = kind.effect, case .flag(let undone, false) = undo.effect else {
                Issue.record("\(kind) and \(undo) must set and clear one flag")
                continue
            }
            #expect(flag == undone)
            #expect(undo.subject == kind.subject && undo.path == kind.path)
            #expect(undo.key == nil, "the undo kind's key is its kind's")
        }
    }

    @Test(arguments: MutationKind.all)
    func aChange_isSentToItsKindsRoute_inItsSubjectsLane(kind: MutationKind) throws {
        let mutation = Self.sample(of: kind)
        let request = try mutation.request(clientToken: "tok", bearerToken: "seed-ada")
        #expect(request.headers["Idempotency-Key"] == "tok")
        #expect(request.headers["Authorization"] == "Bearer seed-ada")
        let id = mutation.conversation?.rawValue ?? mutation.media?.rawValue ?? mutation.user?.rawValue ?? ""
        #expect("\(request.method) \(request.path)" == kind.route.replacingOccurrences(of: "{id}", with: id))
        let lane: MutationLane =
            switch kind.subject {
            case .newPost: .posts
            case .reply: .thread("m1")
            case .media: .media("m1")
            case .user: .user("u2")
            case .conversation: .conversation("c1")
            case .account: .account
            }
        #expect(mutation.lane == lane)
        #expect(request.body.isEmpty == !kind.carriesContent)
    }

    @Test func theRoutesTheServerKnows_stayWhereTheyAre() {
        // The backend's routes are a contract with every installed build: a kind's route never moves.
        let routes = Dictionary(uniqueKeysWithValues: MutationKind.all.map { ($0.name, $0.route) })
        let shipped = [
            "post": "POST /v1/posts", "reply": "POST /v1/posts/{id}/replies",
            "like": "PUT /v1/posts/{id}/like",
            "unlike": "DELETE /v1/posts/{id}/like", "repost": "PUT /v1/posts/{id}/repost",
            "unrepost": "DELETE /v1/posts/{id}/repost", "delete": "DELETE /v1/posts/{id}",
            "follow": "PUT /v1/users/{id}/follow", "unfollow": "DELETE /v1/users/{id}/follow",
            "message": "POST /v1/conversations/{id}/messages", "profile": "PUT /v1/me/profile",
        ]
        for (name, route) in shipped { #expect(routes[name] == route, "\(name)") }
    }

    @Test func theJournalsTags_stayWhereTheyAre() {
        // Journals on disk hold these numbers: a kind's tag never changes, a removed kind's is never reused.
        let shipped: [String: UInt8] = [
            "post": 1, "reply": 2, "like": 3, "unlike": 4, "repost": 5, "delete": 6, "follow": 7,
            "unfollow": 8,
            "unrepost": 9, "message": 10, "profile": 11,
        ]
        for kind in MutationKind.all {
            if let tag = shipped[kind.name] {
                #expect(kind.journalTag == tag, "\(kind)")
            } else {
                #expect(!shipped.values.contains(kind.journalTag), "\(kind) reuses a shipped tag")
            }
        }
    }

    @Test func aChangeRetargeted_keepsItsKindAndContent() {
        for kind in MutationKind.all {
            let mutation = Self.sample(of: kind, media: "local:tok")
            let moved = mutation.retargeted(to: "m9")
            #expect(moved.kind == kind && moved.text == mutation.text)
            #expect(moved.media == (mutation.media == nil ? nil : "m9"))
        }
    }
}
