import Foundation

/// What the backend's deterministic seed data is made of: who the users are.
///
/// Seeding is a pure function of the seed number and the backend clock's time when it seeds:
/// the same seed always gives the same users, follows, posts (generated pictures stored as
/// photos, carousels, videos, text, a few polls this client does not know), threads, likes, reposts and
/// events, at the same distances back from that time, and then the same few posts of real-world
/// text (`realWorldText`: CJK, emoji sequences, accents, right-to-left scripts, a very long word,
/// an empty caption). Every seeded time lies before it, so a
/// backend seeded today shows posts from the last weeks, and anything made afterwards is newer.
/// A `ManualClock` starts at `epoch`, so tests seed the same data at the same times.
public enum BackendSeed {
    /// 2024-05-01 12:00:00 UTC, where a `ManualClock` starts: seeded with one, posts span the 30
    /// days before it.
    public static let epoch = Date(timeIntervalSince1970: 1_714_564_800)
    /// How many users a seed makes (`u1` ... `u60`).
    public static let userCount = 60
    /// How many generated posts, replies included, a seed makes (`m1` ... `m2000`); the posts of
    /// `realWorldText` follow them.
    public static let postCount = 2000
    /// The seed used when none is given.
    public static let defaultSeed: UInt64 = 1

    /// The seed users' handles, in id order (`u1` is `ada`). The same for every seed number.
    /// They are demo accounts: their password is `DemoAccounts.password`, and they may sign in
    /// only on a server in demo mode.
    public static let handles = [
        "ada", "grace", "alan", "edsger", "barbara", "donald", "ken", "dennis", "linus", "margaret",
        "katherine", "john", "tim", "vint", "radia", "frances", "hedy", "claude", "niklaus", "bjarne",
        "guido", "james", "larry", "sophie", "anita", "fran", "karen", "lynn", "mary", "joan",
        "ivan", "tony", "leslie", "robin", "butler", "whitfield", "jean", "adele", "shafi", "silvio",
        "judea", "yoshua", "geoffrey", "yann", "andrew", "fei", "daphne", "cynthia", "shwetak", "manuel",
        "ellen", "susan", "evelyn", "annie", "betty", "kathleen", "ruth", "marlyn", "ida", "carol",
    ]

    /// The handle of the first seed user (`ada`), the default viewer.
    public static var firstHandle: String { handles[0] }
}
