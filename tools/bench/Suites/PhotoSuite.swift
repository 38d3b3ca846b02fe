import CommandLineKit
import Foundation
import Imaging

/// `photo`: an 80-pixel-wide thumbnail of a 12-megapixel JPEG (4000x3000, made in the run),
/// decoded at libjpeg's 1/8 DCT scale and brought to size with the area filter, beside (a) the
/// same library decoding the photo at full size and then scaling it down, and (b) `djpeg -scale
/// 1/8` on the same file when `djpeg` is on PATH (libjpeg-turbo-progs).
enum PhotoSuite {
    static let suite = BenchSuite(
        name: "photo",
        summary: "80-pixel thumbnail of a 12-megapixel JPEG: scaled decode vs full decode, djpeg"
    ) { runner in
        let width = 4000
        let height = 3000
        let jpeg = try ImageEncoder.jpeg(gradientPhoto(width: width, height: height), quality: 85)
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-photo-\(ProcessInfo.processInfo.processIdentifier).jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoder = ImageDecoder()
        let probe = try decoder.thumbnail(jpeg, width: 80)
        let draft = try decoder.decode(jpeg, minimumWidth: 80)
        runner.log(
            "\(width)x\(height) baseline JPEG, \(jpeg.count / 1024) KiB; decoded at \(draft.width)x\(draft.height), "
                + "thumbnail \(probe.width)x\(probe.height)")

        let thumbnail = try runner.measure(warmup: 2, runs: 15) {
            blackHole(try decoder.thumbnail(jpeg, width: 80))
        }
        let full = try runner.measure(warmup: 1, runs: 5) {
            let raster = try decoder.decode(jpeg)
            blackHole(try raster.scaled(toWidth: 80, height: 60))
        }
        runner.report(
            "thumbnail 80 px of 4000x3000 (1/8 DCT scale)", thumbnail, unit: .milliseconds,
            baseline: ("full decode + area downscale", full), targets: [.fasterThanBaseline(by: 5)])

        // For the record: the same work on a smooth gradient (a sky, a wall), whose small
        // entropy-coded data leaves the pixel work, which the 1/8 scale skips, to dominate.
        let smooth = try ImageEncoder.jpeg(
            gradientPhoto(width: width, height: height, textured: false), quality: 85)
        let smoothThumbnail = try runner.measure(warmup: 2, runs: 15) {
            blackHole(try decoder.thumbnail(smooth, width: 80))
        }
        let smoothFull = try runner.measure(warmup: 1, runs: 5) {
            blackHole(try decoder.decode(smooth).scaled(toWidth: 80, height: 60))
        }
        runner.report(
            "  the same on a smooth gradient (\(smooth.count / 1024) KiB)", smoothThumbnail,
            unit: .milliseconds,
            baseline: ("full decode + area downscale", smoothFull))

        guard let djpeg = executable("djpeg") else {
            runner.log("djpeg is not on PATH (apt-get install libjpeg-turbo-progs); the djpeg row is skipped")
            return
        }
        func runDjpeg() throws {
            let result = try Subprocess.run(djpeg, ["-scale", "1/8", "-outfile", "/dev/null", path])
            guard result.status == 0 else {
                throw ImageError(
                    .invalidArgument, "djpeg failed (status \(result.status)): \(result.errorText)")
            }
        }
        // Interleave rounds so drift on a loaded machine hits both sides alike.
        var ours: [Double] = []
        var theirs: [Double] = []
        var theirsFull: [Double] = []
        for _ in 0..<3 {
            theirsFull += try runner.measure(warmup: 1, runs: 3) {
                let result = try Subprocess.run(djpeg, ["-outfile", "/dev/null", path])
                guard result.status == 0 else {
                    throw ImageError(
                        .invalidArgument, "djpeg failed (status \(result.status)): \(result.errorText)")
                }
            }.sorted
            theirs += try runner.measure(warmup: 1, runs: 7) { try runDjpeg() }.sorted
            ours += try runner.measure(warmup: 1, runs: 7) {
                blackHole(try decoder.thumbnail(jpeg, width: 80))
            }.sorted
        }
        runner.report(
            "thumbnail 80 px vs djpeg -scale 1/8", Samples(ours), unit: .milliseconds,
            baseline: ("djpeg -scale 1/8 -outfile /dev/null (process included)", Samples(theirs)),
            targets: [.withinBaseline(factor: 1.5)],
            note:
                "ours also scales 500x375 to 80x60 in linear light; djpeg's includes spawning and reading the file"
        )
        // For the record: what the library itself gains from the 1/8 scale on this file, the
        // ceiling of the first row's ratio (the entropy-coded data is read in full either way).
        runner.report(
            "  djpeg -scale 1/8 vs djpeg at full size", Samples(theirs), unit: .milliseconds,
            baseline: ("djpeg full size -outfile /dev/null", Samples(theirsFull)))
    }

    /// The first `name` on PATH that is executable.
    static func executable(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin").split(
            separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A gradient, with a fine texture (about 2 bits a pixel at quality 85, like a phone photo)
    /// unless `textured` is false.
    static func gradientPhoto(width: Int, height: Int, textured: Bool = true) throws -> Raster {
        let rgb = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
            var offset = 0
            for y in 0..<height {
                for x in 0..<width {
                    let texture = textured ? (x * 7 + y * 13) % 23 : 0
                    buffer[offset] = UInt8((x * 255 / width + texture) & 0xFF)
                    buffer[offset + 1] = UInt8((y * 255 / height + texture) & 0xFF)
                    buffer[offset + 2] = UInt8(((x + y) * 255 / (width + height)) & 0xFF)
                    offset += 3
                }
            }
            count = offset
        }
        return try Raster(width: width, height: height, rgb: rgb)
    }
}
