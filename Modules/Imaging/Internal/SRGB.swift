import Foundation

/// sRGB <-> linear light, for averaging colors the way light adds up.
enum SRGB {
    /// The linear-light value (0...1) of each 8-bit sRGB code.
    static let toLinear: [Float] = (0..<256).map { code in
        let c = Double(code) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    /// The 255 linear values halfway between neighbouring codes of `toLinear`: the code of a linear
    /// value is the number of midpoints below it.
    static let midpoints: [Float] = (0..<255).map { (toLinear[$0] + toLinear[$0 + 1]) / 2 }

    /// The 8-bit sRGB code nearest (in linear light) to a linear value; exact for every value
    /// of `toLinear`. Eight comparisons (binary search).
    @inline(__always)
    static func code(_ linear: Float, _ midpoints: UnsafeBufferPointer<Float>) -> UInt8 {
        var low = 0
        var high = 255
        while low < high {
            let middle = (low + high) >> 1
            if linear > midpoints[middle] { low = middle + 1 } else { high = middle }
        }
        return UInt8(truncatingIfNeeded: low)
    }
}
