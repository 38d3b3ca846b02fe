import Basics

extension PixelImage {
    /// A deterministic picture for seed data and tests: a diagonal gradient between two colors
    /// with a disc ("sun") in a third, all chosen from `seed`. Sides are clamped to 1...`maxSide`.
    ///
    /// The same seed and size always give the same pixels. Complexity: O(width * height).
    public static func generated(seed: UInt64, width: Int, height: Int) -> PixelImage {
        let scene = GeneratedScene(seed: seed, width: width, height: height)
        return PixelImage(
            uncheckedWidth: scene.width, height: scene.height,
            rgb: scene.render(width: scene.width, height: scene.height))
    }

    /// The picture ``generated(seed:width:height:)`` draws, as a scene: its colors and disc,
    /// chosen from the seed for a design size, which ``render(width:height:)`` draws at any size
    /// (the seed's stored photos are drawn larger than the rendition a post carries, and both
    /// show the same picture).
    public struct GeneratedScene: Sendable, Hashable {
        /// The design size, each side within 1...`PixelImage.maxSide`.
        public let width: Int
        public let height: Int
        let top: [Double]
        let bottom: [Double]
        let sun: [Double]
        let centerX: Double
        let centerY: Double
        let radius: Double

        /// The scene `seed` chooses for a picture of `width` × `height` (sides clamped as
        /// ``PixelImage/generated(seed:width:height:)`` clamps them).
        public init(seed: UInt64, width: Int, height: Int) {
            let width = min(max(width, 1), maxSide)
            let height = min(max(height, 1), maxSide)
            var random = SplitMix64(seed: seed)
            func next() -> UInt64 { random.next() }
            func color() -> [Double] { [Double(next() % 256), Double(next() % 256), Double(next() % 256)] }
            top = color()
            bottom = color()
            sun = color()
            centerX = Double(next() % UInt64(width))
            centerY = Double(next() % UInt64(height))
            radius = Double(max(1, min(width, height) / 4))
            self.width = width
            self.height = height
        }

        /// The scene's RGB bytes at `width` × `height` (each side at least 1), row by row: each
        /// pixel's centre is mapped into the design size, so at the design size these are exactly
        /// the bytes of ``PixelImage/generated(seed:width:height:)``.
        ///
        /// Complexity: O(width * height); a larger size runs in fixed point, a row at a time.
        public func render(width targetWidth: Int, height targetHeight: Int) -> [UInt8] {
            let targetWidth = max(targetWidth, 1)
            let targetHeight = max(targetHeight, 1)
            if targetWidth == width && targetHeight == height { return renderAtDesignSize() }
            let scaleX = Double(width) / Double(targetWidth)
            let scaleY = Double(height) / Double(targetHeight)
            let span = Double(max(1, width + height - 2))
            // Along a row a channel is linear in the column, so each pixel adds a step; scalars
            // only (no generic calls per pixel), as seeding runs this for hundreds of photos.
            let (step0, step1, step2) = (
                (bottom[0] - top[0]) * scaleX / span, (bottom[1] - top[1]) * scaleX / span,
                (bottom[2] - top[2]) * scaleX / span
            )
            let (sun0, sun1, sun2) = (UInt8(sun[0]), UInt8(sun[1]), UInt8(sun[2]))
            return [UInt8](unsafeUninitializedCapacity: targetWidth * targetHeight * 3) { bytes, count in
                guard let base = bytes.baseAddress else { return }
                for row in 0..<targetHeight {
                    let y = (Double(row) + 0.5) * scaleY - 0.5
                    let dy = y - centerY
                    // The disc's columns on this row, if it reaches it.
                    var discStart = targetWidth
                    var discEnd = targetWidth
                    let reach = radius * radius - dy * dy
                    if reach >= 0 {
                        let half = reach.squareRoot()
                        discStart = max(0, Int(((centerX - half + 0.5) / scaleX - 0.5).rounded(.up)))
                        discEnd = min(
                            targetWidth, Int(((centerX + half + 0.5) / scaleX - 0.5).rounded(.down)) + 1)
                    }
                    let t = (0.5 * scaleX - 0.5 + y) / span
                    // Half a level added once, so truncating rounds.
                    var value0 = top[0] * (1 - t) + bottom[0] * t + 0.5
                    var value1 = top[1] * (1 - t) + bottom[1] * t + 0.5
                    var value2 = top[2] * (1 - t) + bottom[2] * t + 0.5
                    var pixel = base + row * targetWidth * 3
                    for column in 0..<targetWidth {
                        if column >= discStart && column < discEnd {
                            pixel[0] = sun0
                            pixel[1] = sun1
                            pixel[2] = sun2
                        } else {
                            pixel[0] = UInt8(value0 < 0 ? 0 : value0 > 255 ? 255 : value0)
                            pixel[1] = UInt8(value1 < 0 ? 0 : value1 > 255 ? 255 : value1)
                            pixel[2] = UInt8(value2 < 0 ? 0 : value2 > 255 ? 255 : value2)
                        }
                        value0 += step0
                        value1 += step1
                        value2 += step2
                        pixel += 3
                    }
                }
                count = targetWidth * targetHeight * 3
            }
        }

        /// The bytes at the design size, pixel by pixel (the seed data's renditions depend on
        /// these exact values).
        private func renderAtDesignSize() -> [UInt8] {
            let span = Double(max(1, width + height - 2))
            var bytes: [UInt8] = []
            bytes.reserveCapacity(width * height * 3)
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
            return bytes
        }
    }

    /// Makes an image whose sizes the caller has already checked.
    init(uncheckedWidth width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }
}
