extension RGBColor {
    /// The xterm 256-color palette index nearest to this color, from the 6×6×6 cube (16...231)
    /// or the 24-step gray ramp (232...255).
    ///
    /// The 16 system colors (0...15) are never chosen: users redefine them, so their RGB values
    /// are unknown. Distance is squared Euclidean in RGB; on a tie the cube wins. O(1).
    ///
    /// ```swift
    /// RGBColor(red: 255, green: 0, blue: 0).xterm256Index  // 196
    /// RGBColor(red: 128, green: 128, blue: 128).xterm256Index  // 244
    /// ```
    public var xterm256Index: UInt8 {
        let r = Self.nearestCubeLevel(red)
        let g = Self.nearestCubeLevel(green)
        let b = Self.nearestCubeLevel(blue)
        let cubeIndex = 16 + 36 * r + 6 * g + b
        let cubeColor = RGBColor(
            red: Self.cubeLevels[r], green: Self.cubeLevels[g], blue: Self.cubeLevels[b])

        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let grayStep = min(max((average - 3) / 10, 0), 23)
        // The two ramp steps around the average; pick the nearer.
        let candidates = [grayStep, min(grayStep + 1, 23)]
        var bestGray = candidates[0]
        var bestGrayDistance = Int.max
        for step in candidates {
            let level = UInt8(8 + 10 * step)
            let distance = squaredDistance(to: RGBColor(red: level, green: level, blue: level))
            if distance < bestGrayDistance {
                bestGray = step
                bestGrayDistance = distance
            }
        }
        if squaredDistance(to: cubeColor) <= bestGrayDistance {
            return UInt8(cubeIndex)
        }
        return UInt8(232 + bestGray)
    }

    /// The RGB value the xterm palette gives index `index` (16...255); nil for the 16 system
    /// colors, whose values the user chooses.
    public static func xterm256Color(at index: UInt8) -> RGBColor? {
        switch index {
        case 16...231:
            let cube = Int(index) - 16
            return RGBColor(
                red: cubeLevels[cube / 36], green: cubeLevels[(cube / 6) % 6], blue: cubeLevels[cube % 6])
        case 232...255:
            let level = UInt8(8 + 10 * (Int(index) - 232))
            return RGBColor(red: level, green: level, blue: level)
        default:
            return nil
        }
    }

    /// The six component values of the xterm color cube.
    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The index (0...5) of the cube level nearest to `value`.
    static func nearestCubeLevel(_ value: UInt8) -> Int {
        // Midpoints between consecutive levels: 47.5, 115, 155, 195, 235.
        switch value {
        case 0..<48: 0
        case 48..<115: 1
        case 115..<155: 2
        case 155..<195: 3
        case 195..<235: 4
        default: 5
        }
    }

    func squaredDistance(to other: RGBColor) -> Int {
        let dr = Int(red) - Int(other.red)
        let dg = Int(green) - Int(other.green)
        let db = Int(blue) - Int(other.blue)
        return dr * dr + dg * dg + db * db
    }
}
