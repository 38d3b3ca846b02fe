import Basics

/// The draws the seeder makes, on top of the shared generator.
extension SplitMix64 {
    /// A uniform integer in `range` (empty ranges give the lower bound).
    mutating func int(_ range: Range<Int>) -> Int {
        guard range.count > 1 else { return range.lowerBound }
        return range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `chance`.
    mutating func chance(_ chance: Double) -> Bool { unit() < chance }

    /// An element of a non-empty array.
    mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }
}
