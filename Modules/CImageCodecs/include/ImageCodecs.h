// ImageCodecs: a small C layer between Swift and the system's libjpeg and libpng.
//
// Both libraries report a fatal error by calling a function that must not return; the usual way
// out is longjmp back to a setjmp made before the call. Swift cannot call setjmp, so each entry
// point here makes its own setjmp, runs the whole library call, and turns a fatal error into a
// code and a message in `cic_status`. Nothing here exits, prints or aborts.
//
// Every function checks the caller's buffer against the sizes the library computes before a
// single byte is written: a mismatch is CIC_ERROR_ARGUMENT, never an overrun. The Swift module
// Imaging is the only caller; it checks the image size against its limits (and allocates the
// output) between reading the header and decoding.
#ifndef LOOM_IMAGE_CODECS_H
#define LOOM_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The capacity of `cic_status.message`, terminating zero included.
#define CIC_MESSAGE_CAPACITY 200

/// What went wrong, if anything.
typedef enum {
    /// Success.
    CIC_OK = 0,
    /// The data is damaged (the library's message says how).
    CIC_ERROR_CORRUPT = 1,
    /// The data ends before the image does.
    CIC_ERROR_TRUNCATED = 2,
    /// The image is valid but of a kind this layer does not decode (CMYK JPEG).
    CIC_ERROR_UNSUPPORTED = 3,
    /// The decoder would need more memory than the caller allows.
    CIC_ERROR_MEMORY_LIMIT = 4,
    /// The caller's arguments or buffer do not match the image.
    CIC_ERROR_ARGUMENT = 5,
    /// A progressive JPEG has more scans than the caller allows.
    CIC_ERROR_TOO_MANY_SCANS = 6,
} cic_code;

/// The outcome of a call: a code and, unless it is CIC_OK, a message (zero-terminated).
typedef struct {
    int code;
    char message[CIC_MESSAGE_CAPACITY];
} cic_status;

/// The colour model of a JPEG file.
typedef enum {
    CIC_JPEG_GRAY = 1,
    CIC_JPEG_COLOR = 3,
    /// CMYK or YCCK: reported, not decoded.
    CIC_JPEG_CMYK = 4,
} cic_jpeg_color;

/// What a JPEG file's header says.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// A cic_jpeg_color.
    int color;
    /// 1 when the file is progressive.
    int progressive;
} cic_jpeg_header;

/// Reads a JPEG file's header (up to its first scan), without decoding pixels.
/// Returns status->code.
int cic_jpeg_read_header(const uint8_t *data, size_t size, cic_jpeg_header *header, cic_status *status);

/// Decodes a JPEG file to RGB8 at scale `scale_numerator`/8 (1...16), libjpeg's DCT scaling.
///
/// The output is `out_width` x `out_height` pixels, which the caller computes as
/// ceil(width * scale_numerator / 8) and ceil(height * scale_numerator / 8); the call fails with
/// CIC_ERROR_ARGUMENT if libjpeg's own figures differ or `capacity` is not
/// out_width * out_height * 3. `max_memory` bounds libjpeg's working memory (a progressive
/// file keeps every coefficient); beyond it the call fails with CIC_ERROR_MEMORY_LIMIT.
/// A file that ends early is CIC_ERROR_TRUNCATED; damaged entropy-coded data is
/// CIC_ERROR_CORRUPT (libjpeg only warns about it, this layer does not accept it). A file of more
/// than `max_scans` scans fails with CIC_ERROR_TOO_MANY_SCANS as soon as libjpeg starts the scan
/// after the last one allowed (each scan of a progressive file is a pass over every coefficient).
int cic_jpeg_decode(
    const uint8_t *data, size_t size, int scale_numerator, uint32_t out_width, uint32_t out_height,
    size_t max_memory, int max_scans, uint8_t *out, size_t capacity, cic_status *status);

/// Encodes `width` x `height` pixels of `components` bytes each (1 gray, 3 RGB, 4 CMYK), row by
/// row, as a JPEG of `quality` (1...100), progressive when `progressive` is 1, and stored as
/// grayscale when `grayscale` is 1 (from RGB input too).
///
/// On success `*out` points at `*out_size` bytes allocated with malloc; the caller frees them
/// with `cic_free`.
int cic_jpeg_encode(
    const uint8_t *pixels, size_t size, uint32_t width, uint32_t height, int components, int quality,
    int progressive, int grayscale, uint8_t **out, size_t *out_size, cic_status *status);

/// Decodes a PNG file of `width` x `height` pixels (from its IHDR, which the caller has already
/// checked) to RGB8: every colour type and bit depth, interlaced or not, 16-bit channels scaled to
/// 8, transparency (an alpha channel or tRNS) composited over the background colour in the
/// file's own (gamma-encoded) space. With `keep_alpha` non-zero the output is RGBA8 instead,
/// the transparency kept (255 for an opaque image) and the background unused. `max_side` is
/// handed to png_set_user_limits; ancillary chunks are capped in number and size. `capacity` must
/// be width * height * 3 (RGB) or * 4 (with `keep_alpha`).
int cic_png_decode(
    const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint32_t max_side, uint8_t background_red,
    uint8_t background_green, uint8_t background_blue, int keep_alpha, uint8_t *out, size_t capacity,
    cic_status *status);

/// Whether a PNG file's header says it has transparency (an alpha channel, or a tRNS chunk before
/// the image data): 1 or 0, or -1 with `status` set when the header cannot be read.
int cic_png_has_alpha(const uint8_t *data, size_t size, cic_status *status);

/// Encodes `width` x `height` pixels, 3 bytes (RGB) or 4 bytes (RGBA) each, as a non-interlaced
/// 8-bit PNG. On success `*out` points at `*out_size` bytes allocated with malloc; free them with
/// `cic_free`.
int cic_png_encode(
    const uint8_t *pixels, size_t size, uint32_t width, uint32_t height, int components, uint8_t **out,
    size_t *out_size, cic_status *status);

/// Frees a buffer an encoder returned.
void cic_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
