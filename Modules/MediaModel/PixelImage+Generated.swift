import Basics

extension PixelImage {
    /// A deterministic picture for seed data and tests: a diagonal gradient between two colors
    /// with a disc ("sun") in a third, all chosen from `seed`. Sides are clamped to 1...`maxSide`.
    ///
    /// The same seed and size always give the same pixels. Complexity: O(width * height).
    public static func generated(seed: UInt64, width: Int, height: Int) -> PixelImage {
        let width = min(max(width, 1), maxSide)
        let height = min(max(height, 1), maxSide)
        var random = SplitMix64(seed: seed)
        func next() -> UInt64 { random.next() }
        func color() -> [Double] { [Double(next() % 256), Double(next() % 256), Double(next() % 256)] }
        let top = color()
        let bottom = color()
        let sun = color()
        let centerX = Double(next() % UInt64(width))
        let centerY = Double(next() % UInt64(height))
        let radius = Double(max(1, min(width, height) / 4))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 3)
        let span = Double(max(1, width + height - 2))
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - centerX
                let dy = Double(y) - centerY
                if dx * dx + dy * dy <= radius * radius {
                    bytes += sun.map { UInt8($0) }
                } else {
                    let t = Double(x + y) / span
                    bytes += (0..<3).map { UInt8((top[$0] * (1 - t) + bottom[$0] * t).rounded()) }
                }
            }
        }
        return PixelImage(uncheckedWidth: width, height: height, rgb: bytes)
    }

    /// Makes an image whose sizes the caller has already checked.
    init(uncheckedWidth width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }
}
