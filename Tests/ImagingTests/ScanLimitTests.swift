import Imaging
import PhotoTesting
import Testing

/// A progressive JPEG makes the decoder pass over every coefficient once a scan, so a file of
/// hundreds of scans costs seconds to decode while it keeps every other limit (issue 34: 704
/// scans, 11.5 s). The decoder stops at ``ImageLimits/maxScans``.
@Suite struct ScanLimitTests {
    @Test func aJPEGOfAsManyScansAsTheLimit_decodes() throws {
        let file = HostilePhotos.progressiveJPEG(scans: ImageLimits.standard.maxScans)

        let raster = try ImageDecoder().decode(file)

        #expect(ImageLimits.standard.maxScans == 64)
        #expect(raster.width == 8 && raster.height == 8)
    }

    @Test func aJPEGOfOneScanMoreThanTheLimit_isRefusedWithTheLimitNamed() throws {
        for scans in [ImageLimits.standard.maxScans + 1, HostilePhotos.mostScans] {
            let file = HostilePhotos.progressiveJPEG(scans: scans)

            #expect(
                throws: ImageError(
                    .tooManyScans,
                    "the progressive JPEG has more than 64 scans, the limit; save it as a baseline (not "
                        + "progressive) JPEG and try again")
            ) { try ImageDecoder().decode(file) }
        }
    }

    @Test func aLowerLimit_isTheOneKept() throws {
        let decoder = ImageDecoder(limits: ImageLimits(maxScans: 10))

        #expect(throws: ImageError.self) { try decoder.decode(HostilePhotos.progressiveJPEG(scans: 11)) }
        #expect(try decoder.decode(HostilePhotos.progressiveJPEG(scans: 10)).width == 8)
    }
}
