/// The name an uploaded photo is served by: `p` and 32 lowercase hex digits, 128 bits from the
/// system's secure generator, so that nobody can reach a photo they were not shown by counting
/// (the row ids the seed's photos are still served by are numbers in turn).
enum PhotoName {
    /// A new name.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var name = "p"
        for _ in 0..<2 {
            let half = String(generator.next() as UInt64, radix: 16)
            name += String(repeating: "0", count: 16 - half.count) + half
        }
        return name
    }

    /// Whether `name` has the form of a new name (`p` and 32 lowercase hex digits).
    static func isRandom(_ name: String) -> Bool {
        let digits = name.utf8.dropFirst()
        return name.hasPrefix("p") && digits.count == 32
            && digits.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
