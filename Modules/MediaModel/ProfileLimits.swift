/// The limits of what a person writes about themselves, declared once beside ``PostLimits``:
/// the backend refuses what breaks them (at account creation and at `PUT /v1/me/profile`), and
/// the profile editor counts against them as the person types.
public enum ProfileLimits {
    /// How many characters a display name has, after trimming spaces at both ends.
    public static let displayNameCharacters = 1...50
    /// The most UTF-8 bytes a display name may take (4 per character: room for accents and
    /// emoji, none for hidden bulk).
    public static let displayNameBytes = 200
    /// The most characters a bio may have (line breaks allowed).
    public static let bioCharacters = 300
    /// The most UTF-8 bytes a bio may take.
    public static let bioBytes = 1200
}
