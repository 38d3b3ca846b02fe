@_spi(Testing) import Backend
import MediaModel
import Mutations
import ServerAPI
import Testing
import Wire

/// Every kind of change the apps can make (`MutationKind.all`) reaches a route of the backend:
/// a kind described without its route would be refused with 404 on every device, forever.
@Suite struct MutationKindRouteTests {
    @Test func everyKindOfChange_isAppliedByTheBackend() async throws {
        // Given a seeded backend and a post of ada's own (so that a delete is hers to make)
        let server = try BackendFixture.fresh()
        let token = server.testToken(forHandle: "ada")
        func send(_ mutation: Mutation, _ key: String) async throws -> Response {
            try await server.handle(mutation.request(clientToken: key, bearerToken: token))
        }
        let made = try await send(Mutation(.post, text: "ada's own", attachments: []), "own")
        let result = try WireFormat.decode(MutationResult.self, from: made.body).payload
        let own = try #require(result.media?.id, "the post was not made: \(made.status)")
        let started = await TestClient(server: server).send(
            .post, "/v1/conversations", body: #"{"members": ["u2"]}"#)
        let conversation = try #require(started.json["conversation", "id"].stringValue, "\(started.text)")

        // When a change of every kind is sent, each on ada's post, on user u2 or in ada's
        // conversation with u2
        // (a change that hides the post goes last: the others act on it)
        let hiding = MutationKind.all.filter { $0.effect == .hide }
        let kinds = MutationKind.all.filter { $0.effect != .hide } + hiding
        for (index, kind) in kinds.enumerated() {
            let mutation: Mutation =
                switch kind.subject {
                case .newPost: Mutation(kind, text: "a \(kind)", attachments: [])
                case .reply: Mutation(kind, to: own, text: "a \(kind)", attachments: [])
                case .media: Mutation(kind, own)
                case .user: Mutation(kind, UserID("u2"))
                case .conversation:
                    Mutation(kind, in: ConversationID(conversation), text: "a \(kind)", sharing: own)
                case .account: .profile(displayName: "Ada, a \(kind)", bio: nil)
                }
            let response = try await send(mutation, "kind-\(index)")

            // Then the backend applies it
            #expect(
                (200..<300).contains(response.status),
                "\(kind.route) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"
            )
        }
    }
}
