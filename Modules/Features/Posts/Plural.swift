/// English plurals for the nouns sockets give ("comment" → "comments", "reply" → "replies").
enum Plural {
    static func of(_ noun: String, count: Int = 2) -> String {
        guard count != 1 else { return noun }
        if noun.hasSuffix("y"), let before = noun.dropLast().last, !"aeiou".contains(before) {
            return noun.dropLast() + "ies"
        }
        return noun.hasSuffix("s") ? noun + "es" : noun + "s"
    }
}
