import Foundation
import MediaModel

/// A client-made token that names one mutation everywhere: the journal's key, the optimistic
/// layer's key, and the `Idempotency-Key` sent on every attempt (also after a restart), so the
/// server applies the mutation at most once.
///
/// Made once per mutation by `MutationManager` (see `MutationManager.Configuration.tokens`);
/// 1 to 128 visible ASCII characters, as the server requires.
public struct MutationToken: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The token's text (`"3f6c0b9e-…"`).
    public let rawValue: String

    /// Wraps a token's text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a token's text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// A new random token (a lowercase UUID).
    public static func random() -> MutationToken { MutationToken(UUID().uuidString.lowercased()) }

    /// Orders tokens by their text.
    public static func < (lhs: MutationToken, rhs: MutationToken) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The token's text.
    public var description: String { rawValue }

    /// The first 8 characters, for logs and screens.
    public var short: String { String(rawValue.prefix(8)) }

    /// The id a post made by this mutation has while only this device knows it (`local:<token>`);
    /// the merged views use it for the post's media and its feed entry.
    public var localMediaID: MediaID { MediaID(Self.localPrefix + rawValue) }

    /// The feed entry id of the post made by this mutation in merged views (`local:<token>`),
    /// kept from pending until a server list shows the post, so the row keeps its identity.
    public var localEntryID: FeedEntryID { FeedEntryID(Self.localPrefix + rawValue) }

    /// The token whose pending post `id` names, if `id` is a local id.
    public init?(localMediaID id: MediaID) {
        guard id.rawValue.hasPrefix(Self.localPrefix) else { return nil }
        self.init(String(id.rawValue.dropFirst(Self.localPrefix.count)))
    }

    static let localPrefix = "local:"
}
