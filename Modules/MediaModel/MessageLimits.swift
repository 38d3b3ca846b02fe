/// The limits every direct message and conversation keeps, declared once beside
/// ``PostLimits``: the backend refuses what breaks them, and a composer for messages reads them.
///
/// A message's text keeps the limits of a post's (``PostLimits/textCharacters``,
/// ``PostLimits/textBytes``, ``PostLimits/combiningMarksPerCharacter``), and its photos those of
/// a post's attachments.
public enum MessageLimits {
    /// The most characters a message's text may have: a post's limit.
    public static let textCharacters = PostLimits.textCharacters

    /// The most attachments one message may carry: a post's limit.
    public static let attachmentsPerMessage = PostLimits.attachmentsPerPost

    /// The most accounts one conversation holds, the account that starts it included.
    public static let membersPerConversation = 32
}
