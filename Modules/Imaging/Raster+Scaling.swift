extension Raster {
    /// The raster resampled to exactly `width` x `height` with an area (box) filter in linear
    /// light.
    ///
    /// Each output pixel is the average of the source area it covers, partly covered source
    /// pixels weighted by the fraction covered. Colors are averaged as light, not as sRGB codes
    /// (sRGB to linear through a 256-entry table, back to the nearest code), so a fine
    /// black-and-white pattern shrinks to the grey it looks like, not a darker one. O(source
    /// pixels + output pixels); memory is one row of each.
    ///
    /// - Throws: ``ImageError/Code/invalidArgument`` when a side is below 1.
    public func scaled(toWidth newWidth: Int, height newHeight: Int) throws(ImageError) -> Raster {
        guard newWidth >= 1, newHeight >= 1, Raster.byteCount(width: newWidth, height: newHeight) != nil
        else {
            throw ImageError(
                .invalidArgument, "cannot scale to \(newWidth)x\(newHeight); each side must be at least 1")
        }
        return resampled(width: newWidth, height: newHeight)
    }

    /// ``scaled(toWidth:height:)`` for sides the caller has checked (at least 1, no overflow).
    func resampled(width newWidth: Int, height newHeight: Int) -> Raster {
        if newWidth == width && newHeight == height { return self }
        let columns = BoxWeights(source: width, target: newWidth)
        let rows = BoxWeights(source: height, target: newHeight)
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        var reduced = [Float](repeating: 0, count: newWidth * 3)  // one source row, narrowed
        var accumulated = [Float](repeating: 0, count: newWidth * 3)  // one output row
        var reducedRow = -1
        let sourceWidth = width
        SRGB.toLinear.withUnsafeBufferPointer { linear in
            SRGB.midpoints.withUnsafeBufferPointer { midpoints in
                rgb.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { output in
                        reduced.withUnsafeMutableBufferPointer { reduced in
                            accumulated.withUnsafeMutableBufferPointer { accumulated in
                                for y in 0..<newHeight {
                                    for i in 0..<accumulated.count { accumulated[i] = 0 }
                                    for (sourceRow, rowWeight) in rows.span(y) {
                                        if sourceRow != reducedRow {
                                            columns.reduce(
                                                row: input.baseAddress! + sourceRow * sourceWidth * 3,
                                                linear: linear, into: reduced)
                                            reducedRow = sourceRow
                                        }
                                        for i in 0..<accumulated.count {
                                            accumulated[i] += rowWeight * reduced[i]
                                        }
                                    }
                                    let base = y * newWidth * 3
                                    for i in 0..<accumulated.count {
                                        output[base + i] = SRGB.code(accumulated[i], midpoints)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return Raster(unchecked: newWidth, height: newHeight, rgb: output)
    }
}

/// For each output index along one axis, the source indices it covers and their weights
/// (fractions of the output pixel's area, summing to 1).
struct BoxWeights {
    /// Output index i covers `indices[first[i]..<first[i + 1]]` with `weights[...]` alike.
    private var first: [Int] = [0]
    private var indices: [Int] = []
    private var weights: [Float] = []

    init(source: Int, target: Int) {
        let step = Double(source) / Double(target)
        for output in 0..<target {
            let start = Double(output) * step
            let end = Double(output + 1) * step
            var index = Int(start.rounded(.down))
            while Double(index) < end && index < source {
                let covered = min(end, Double(index + 1)) - max(start, Double(index))
                if covered > 0 {
                    indices.append(index)
                    weights.append(Float(covered / step))
                }
                index += 1
            }
            first.append(indices.count)
        }
    }

    /// The source indices and weights of output index `output`.
    func span(_ output: Int) -> Zip2Sequence<ArraySlice<Int>, ArraySlice<Float>> {
        zip(indices[first[output]..<first[output + 1]], weights[first[output]..<first[output + 1]])
    }

    /// Narrows one RGB source row to the target width, in linear light.
    func reduce(
        row: UnsafePointer<UInt8>, linear: UnsafeBufferPointer<Float>,
        into reduced: UnsafeMutableBufferPointer<Float>
    ) {
        indices.withUnsafeBufferPointer { indices in
            weights.withUnsafeBufferPointer { weights in
                for output in 0..<(first.count - 1) {
                    var red: Float = 0
                    var green: Float = 0
                    var blue: Float = 0
                    for k in first[output]..<first[output + 1] {
                        let pixel = row + indices[k] * 3
                        let weight = weights[k]
                        red += weight * linear[Int(pixel[0])]
                        green += weight * linear[Int(pixel[1])]
                        blue += weight * linear[Int(pixel[2])]
                    }
                    reduced[output * 3] = red
                    reduced[output * 3 + 1] = green
                    reduced[output * 3 + 2] = blue
                }
            }
        }
    }
}
