extension String {
    /// This text with every occurrence of `target` replaced by `replacement`, without
    /// Foundation. O(length).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var remainder = self[...]
        while let range = remainder.firstRange(of: target) {
            result += remainder[..<range.lowerBound]
            result += replacement
            remainder = remainder[range.upperBound...]
        }
        result += remainder
        return result
    }
}
