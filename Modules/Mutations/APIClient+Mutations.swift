import MediaModel
import ServerAPI
import Wire

extension APIClient {
    /// Sends a mutation with its client token: the server applies a token at most once, so a
    /// retry after a timeout is safe and returns the first attempt's response
    /// (`MutationResult.replayed`).
    public func send(_ mutation: Mutation, clientToken: String) async throws(TransportError)
        -> WireEnvelope<MutationResult>
    {
        let request = try mutation.request(clientToken: clientToken, bearerToken: nil)
        var (envelope, replayed) = try await perform(request, decoding: MutationResult.self)
        envelope.payload.replayed = replayed
        return envelope
    }
}
