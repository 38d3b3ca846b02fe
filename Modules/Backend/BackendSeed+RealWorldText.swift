extension BackendSeed {
    /// One post of real-world text in the seed: what it says, whether it has a photo, and which
    /// earlier post of `realWorldText` it replies to.
    public struct RealWorldPost: Sendable, Hashable {
        /// The post's text, exactly as stored.
        public let text: String
        /// Whether it has a photo (so the photo-first app shows it too).
        public let hasPhoto: Bool
        /// The index in `realWorldText` of the post it replies to, if it is a reply.
        public let replyTo: Int?

        init(_ text: String, photo: Bool = false, replyTo: Int? = nil) {
            self.text = text
            self.hasPhoto = photo
            self.replyTo = replyTo
        }
    }

    /// How far back the real-world posts are, in days: deep in every feed and profile, so the
    /// first screens of the seed stay as they were.
    public static let realWorldTextDaysBack = 25

    /// Posts in the scripts people really write, made after the generated posts (`m2001` on) by
    /// the accounts the first user follows, `realWorldTextDaysBack` days back, 17 minutes apart:
    /// wide CJK and Hangul, emoji with ZWJ sequences and skin tones, flags, decomposed accents,
    /// Arabic and Hebrew, a 200-character token with no spaces, and a photo with no caption.
    public static let realWorldText: [RealWorldPost] = [
        RealWorldPost("東京の朝ごはん：味噌汁と焼き魚。今日も一日がんばろう！"),
        RealWorldPost("夕焼けの海 🌅 한강에서 본 노을, 漢字とかなとハングル", photo: true),
        RealWorldPost("Pairing all morning 👩‍💻 then dinner with the family 👨‍👩‍👧 — nice work 👍🏽 🇯🇵"),
        RealWorldPost(
            "Cafe\u{301} au lait and cre\u{300}me bru\u{302}le\u{301}e, a nai\u{308}ve re\u{301}sume\u{301}",
            photo: true),
        RealWorldPost("مرحبا بالعالم! هذا نص عربي يُقرأ من اليمين إلى اليسار"),
        RealWorldPost("שלום עולם — a Hebrew caption with an English tail", photo: true),
        RealWorldPost(
            "https://example.com/"
                + String(repeating: "very-long-path-segment-without-spaces/", count: 4)
                + String(repeating: "x", count: 28)),
        RealWorldPost("", photo: true),
        RealWorldPost("美味しそう！😋 また行きたい", replyTo: 0),
        RealWorldPost("👍🏽👍🏽👍🏽 same here, שלום", replyTo: 2),
    ]
}
