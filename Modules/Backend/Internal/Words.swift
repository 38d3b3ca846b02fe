/// Word lists the seed's names and sentences are drawn from.
enum Words {
    static let surnames = [
        "Abbott", "Baker", "Castillo", "Dubois", "Eriksen", "Fischer", "Garcia", "Hughes", "Ito", "Jensen",
        "Kowalski", "Larsen", "Moreau", "Nakamura", "Okafor", "Petrov", "Quinn", "Rossi", "Silva", "Tanaka",
        "Ueda", "Varga", "Weber", "Xu", "Yilmaz", "Zhou",
    ]

    static let common = [
        "morning", "light", "coffee", "river", "city", "mountain", "quiet", "train", "window", "garden",
        "street", "market", "ocean", "walk", "bread", "music", "night", "sky", "rain", "bridge",
        "book", "letter", "color", "shadow", "summer", "winter", "harbor", "forest", "field", "stone",
        "today", "finally", "again", "slowly", "almost", "always", "never", "still", "already", "maybe",
        "found", "made", "saw", "tried", "built", "shipped", "fixed", "learned", "wrote", "cooked",
        "the", "a", "this", "that", "our", "my", "every", "some", "new", "old",
        "small", "bright", "warm", "cold", "green", "golden", "blue", "long", "short", "early",
        "and", "with", "over", "under", "near", "after", "before", "around", "through", "across",
        "compiler", "test", "release", "diff", "cache", "thread", "photo", "friend", "team", "idea",
    ]
}
