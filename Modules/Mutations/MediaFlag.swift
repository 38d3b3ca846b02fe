import MediaModel

/// One of the viewer's flags on a post in `MediaFacts` (liked, reposted), with the count it moves:
/// what a flag kind's pending change sets in the merged facts.
///
/// The merge sets `state` to the last pending change's value and moves `count` (when there is
/// one) only by the difference from the server's state, so a refresh that already holds the
/// change neither counts it twice nor undoes it.
public struct MediaFlag: Hashable, Sendable, CustomStringConvertible {
    /// The flag's name (`"liked"`), unique among flags.
    public let name: String
    /// The viewer's state in the facts.
    public let state: any WritableKeyPath<MediaFacts, Bool> & Sendable
    /// The count the flag is part of, if any.
    public let count: (any WritableKeyPath<MediaFacts, Int> & Sendable)?

    /// Describes a flag.
    public init(
        _ name: String, state: any WritableKeyPath<MediaFacts, Bool> & Sendable,
        count: (any WritableKeyPath<MediaFacts, Int> & Sendable)? = nil
    ) {
        self.name = name
        self.state = state
        self.count = count
    }

    /// The viewer liked the post; moves `likeCount`.
    public static let liked = MediaFlag("liked", state: \MediaFacts.viewerLiked, count: \MediaFacts.likeCount)
    /// The viewer reposted the post; moves `repostCount`.
    public static let reposted = MediaFlag(
        "reposted", state: \MediaFacts.viewerReposted, count: \MediaFacts.repostCount)

    /// `facts` with the flag set to `value`, the count moved by the difference.
    public func applied(_ value: Bool, to facts: MediaFacts) -> MediaFacts {
        guard facts[keyPath: state] != value else { return facts }
        var facts = facts
        facts[keyPath: state] = value
        if let count { facts[keyPath: count] = max(0, facts[keyPath: count] + (value ? 1 : -1)) }
        return facts
    }

    /// The name.
    public var description: String { name }

    public static func == (lhs: MediaFlag, rhs: MediaFlag) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
