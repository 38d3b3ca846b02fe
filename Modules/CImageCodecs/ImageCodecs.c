// ImageCodecs: each entry point wraps one whole libjpeg or libpng call in setjmp and turns a
// fatal error into a cic_status. See include/ImageCodecs.h for the contract of each function.
#include "ImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>
#include <png.h>

static void set_status(cic_status *status, int code, const char *message) {
    status->code = code;
    if (message == NULL) {
        status->message[0] = '\0';
        return;
    }
    strncpy(status->message, message, CIC_MESSAGE_CAPACITY - 1);
    status->message[CIC_MESSAGE_CAPACITY - 1] = '\0';
}

void cic_free(void *pointer) { free(pointer); }

// MARK: - JPEG

// libjpeg's error manager, extended with where to jump and what to report. `pub` comes first so
// a j_common_ptr's err can be cast back to it.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    cic_status *status;
} jpeg_error_context;

// libjpeg's progress monitor, extended with the scan limit. libjpeg calls it often while it
// reads a progressive file's scans (jpeg_start_decompress reads them all), so a file is stopped
// at the first scan past the limit, before that scan's pass over the coefficients.
typedef struct {
    struct jpeg_progress_mgr pub;
    int max_scans;
} jpeg_scan_limit;

static void jpeg_fail(j_common_ptr cinfo, int code) {
    jpeg_error_context *context = (jpeg_error_context *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    set_status(context->status, code, text);
    longjmp(context->jump, 1);
}

// A fatal error: libjpeg calls this and expects it not to return.
static void jpeg_on_error(j_common_ptr cinfo) {
    int code = cinfo->err->msg_code;
    if (code == JERR_NO_BACKING_STORE || code == JERR_OUT_OF_MEMORY) {
        jpeg_fail(cinfo, CIC_ERROR_MEMORY_LIMIT);
    }
    jpeg_fail(cinfo, CIC_ERROR_CORRUPT);
}

// Warnings (level -1) and trace messages. libjpeg carries on after a warning about damaged data,
// filling the rest of the image with grey; a photo app would then show a half-grey photo as if
// it were fine. The warnings that mean the pixels are wrong become errors here.
static void jpeg_on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:
        jpeg_fail(cinfo, CIC_ERROR_TRUNCATED);
        break;
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_MUST_RESYNC:
    case JWRN_BOGUS_PROGRESSION:
    case JWRN_NOT_SEQUENTIAL:
        jpeg_fail(cinfo, CIC_ERROR_CORRUPT);
        break;
    default:
        // Benign (an unknown JFIF revision, a few stray bytes before a marker): ignored.
        break;
    }
}

static void jpeg_silent_output(j_common_ptr cinfo) { (void)cinfo; }

static void jpeg_check_scans(j_common_ptr cinfo) {
    j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
    jpeg_scan_limit *limit = (jpeg_scan_limit *)cinfo->progress;
    if (decompress->input_scan_number > limit->max_scans) {
        jpeg_error_context *context = (jpeg_error_context *)cinfo->err;
        char text[CIC_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "more than %d scans", limit->max_scans);
        set_status(context->status, CIC_ERROR_TOO_MANY_SCANS, text);
        longjmp(context->jump, 1);
    }
}

static void jpeg_install_errors(jpeg_error_context *context, cic_status *status) {
    jpeg_std_error(&context->pub);
    context->pub.error_exit = jpeg_on_error;
    context->pub.emit_message = jpeg_on_message;
    context->pub.output_message = jpeg_silent_output;
    context->status = status;
}

static int jpeg_color_of(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return CIC_JPEG_GRAY;
    case JCS_CMYK:
    case JCS_YCCK: return CIC_JPEG_CMYK;
    default: return CIC_JPEG_COLOR;
    }
}

int cic_jpeg_read_header(const uint8_t *data, size_t size, cic_jpeg_header *header, cic_status *status) {
    set_status(status, CIC_OK, NULL);
    if (data == NULL || header == NULL || size == 0) {
        set_status(status, CIC_ERROR_ARGUMENT, "no data");
        return status->code;
    }
    struct jpeg_decompress_struct cinfo;
    memset(&cinfo, 0, sizeof cinfo);
    jpeg_error_context errors;
    cinfo.err = &errors.pub;
    jpeg_install_errors(&errors, status);
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return status->code;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    header->width = cinfo.image_width;
    header->height = cinfo.image_height;
    header->color = jpeg_color_of(cinfo.jpeg_color_space);
    header->progressive = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    jpeg_destroy_decompress(&cinfo);
    return CIC_OK;
}

int cic_jpeg_decode(
    const uint8_t *data, size_t size, int scale_numerator, uint32_t out_width, uint32_t out_height,
    size_t max_memory, int max_scans, uint8_t *out, size_t capacity, cic_status *status) {
    set_status(status, CIC_OK, NULL);
    if (data == NULL || out == NULL || size == 0 || scale_numerator < 1 || scale_numerator > 16 || max_scans < 1) {
        set_status(status, CIC_ERROR_ARGUMENT, "no data, no output buffer, or a scale outside 1/8...16/8");
        return status->code;
    }
    if ((uint64_t)out_width * out_height * 3 != (uint64_t)capacity) {
        set_status(status, CIC_ERROR_ARGUMENT, "the output buffer does not hold out_width * out_height * 3 bytes");
        return status->code;
    }
    struct jpeg_decompress_struct cinfo;
    memset(&cinfo, 0, sizeof cinfo);
    jpeg_error_context errors;
    cinfo.err = &errors.pub;
    jpeg_install_errors(&errors, status);
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return status->code;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_scan_limit scan_limit = {.pub = {.progress_monitor = jpeg_check_scans}, .max_scans = max_scans};
    cinfo.progress = &scan_limit.pub;
    cinfo.mem->max_memory_to_use = (long)max_memory;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (jpeg_color_of(cinfo.jpeg_color_space) == CIC_JPEG_CMYK) {
        set_status(status, CIC_ERROR_UNSUPPORTED, "CMYK");
        jpeg_destroy_decompress(&cinfo);
        return status->code;
    }
    cinfo.out_color_space = JCS_RGB;
    cinfo.scale_num = (unsigned int)scale_numerator;
    cinfo.scale_denom = 8;
    jpeg_calc_output_dimensions(&cinfo);
    if (cinfo.output_width != out_width || cinfo.output_height != out_height ||
        cinfo.output_components != 3) {
        set_status(status, CIC_ERROR_ARGUMENT, "libjpeg's output size differs from the caller's");
        jpeg_destroy_decompress(&cinfo);
        return status->code;
    }
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)out_width * 3;
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = out + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return CIC_OK;
}

typedef struct {
    struct jpeg_compress_struct cinfo;
    jpeg_error_context errors;
    // Set by jpeg_mem_dest's manager as the output grows (it mallocs and frees as it goes).
    unsigned char *buffer;
    unsigned long buffer_size;
} jpeg_encode_context;

int cic_jpeg_encode(
    const uint8_t *pixels, size_t size, uint32_t width, uint32_t height, int components, int quality,
    int progressive, int grayscale, uint8_t **out, size_t *out_size, cic_status *status) {
    set_status(status, CIC_OK, NULL);
    if (pixels == NULL || out == NULL || out_size == NULL || width == 0 || height == 0 || width > 65500 ||
        height > 65500 || (components != 1 && components != 3 && components != 4) || quality < 1 ||
        quality > 100) {
        set_status(status, CIC_ERROR_ARGUMENT, "bad size, components or quality");
        return status->code;
    }
    if ((uint64_t)width * height * (uint64_t)components != (uint64_t)size) {
        set_status(status, CIC_ERROR_ARGUMENT, "the pixel buffer does not hold width * height * components bytes");
        return status->code;
    }
    jpeg_encode_context *context = calloc(1, sizeof(jpeg_encode_context));
    if (context == NULL) {
        set_status(status, CIC_ERROR_MEMORY_LIMIT, "out of memory");
        return status->code;
    }
    context->cinfo.err = &context->errors.pub;
    jpeg_install_errors(&context->errors, status);
    if (setjmp(context->errors.jump)) {
        jpeg_destroy_compress(&context->cinfo);
        free(context->buffer);
        free(context);
        return status->code;
    }
    jpeg_create_compress(&context->cinfo);
    jpeg_mem_dest(&context->cinfo, &context->buffer, &context->buffer_size);
    context->cinfo.image_width = width;
    context->cinfo.image_height = height;
    context->cinfo.input_components = components;
    context->cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(&context->cinfo);
    if (grayscale && components == 3) jpeg_set_colorspace(&context->cinfo, JCS_GRAYSCALE);
    jpeg_set_quality(&context->cinfo, quality, TRUE);
    if (progressive) jpeg_simple_progression(&context->cinfo);
    jpeg_start_compress(&context->cinfo, TRUE);
    size_t stride = (size_t)width * (size_t)components;
    while (context->cinfo.next_scanline < context->cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)context->cinfo.next_scanline * stride);
        jpeg_write_scanlines(&context->cinfo, &row, 1);
    }
    jpeg_finish_compress(&context->cinfo);
    jpeg_destroy_compress(&context->cinfo);
    *out = context->buffer;
    *out_size = context->buffer_size;
    free(context);
    return CIC_OK;
}

// MARK: - PNG

typedef struct {
    jmp_buf jump;
    cic_status *status;
    const uint8_t *data;
    size_t size;
    size_t offset;
    // Set by the read function when the data runs out, so the error is reported as truncation.
    int truncated;
} png_read_context;

static void png_on_error(png_structp png, png_const_charp message) {
    png_read_context *context = png_get_error_ptr(png);
    if (context->truncated) {
        set_status(context->status, CIC_ERROR_TRUNCATED, "file ends early");
    } else {
        set_status(context->status, CIC_ERROR_CORRUPT, message);
    }
    longjmp(context->jump, 1);
}

static void png_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void png_read_from_memory(png_structp png, png_bytep destination, size_t length) {
    png_read_context *context = png_get_io_ptr(png);
    if (length > context->size - context->offset) {
        context->truncated = 1;
        png_error(png, "file ends early");
    }
    memcpy(destination, context->data + context->offset, length);
    context->offset += length;
}

// Blends an 8-bit channel over the background by its 8-bit alpha, rounding to nearest.
static uint8_t blend(uint8_t value, uint8_t background, uint8_t alpha) {
    unsigned int sum = (unsigned int)value * alpha + (unsigned int)background * (255u - alpha);
    return (uint8_t)((sum + 127u) / 255u);
}

static void composite_row(const uint8_t *rgba, uint8_t *rgb, uint32_t width, const uint8_t background[3]) {
    for (uint32_t x = 0; x < width; x++) {
        uint8_t alpha = rgba[x * 4 + 3];
        for (int c = 0; c < 3; c++) rgb[x * 3 + c] = blend(rgba[x * 4 + c], background[c], alpha);
    }
}

int cic_png_has_alpha(const uint8_t *data, size_t size, cic_status *status) {
    set_status(status, CIC_OK, NULL);
    if (data == NULL) {
        set_status(status, CIC_ERROR_ARGUMENT, "no data");
        return -1;
    }
    png_read_context context = {.status = status, .data = data, .size = size, .offset = 0, .truncated = 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, png_on_error, png_on_warning);
    if (png == NULL) {
        set_status(status, CIC_ERROR_MEMORY_LIMIT, "out of memory");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL || setjmp(context.jump)) {
        if (info == NULL) set_status(status, CIC_ERROR_MEMORY_LIMIT, "out of memory");
        png_destroy_read_struct(&png, info == NULL ? NULL : &info, NULL);
        return -1;
    }
    png_set_chunk_cache_max(png, 64);
    png_set_chunk_malloc_max(png, 4u * 1024u * 1024u);
    png_set_read_fn(png, &context, png_read_from_memory);
    // Reads the chunks before the image data: the header, and tRNS if there is one.
    png_read_info(png, info);
    int has_alpha =
        (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS);
    png_destroy_read_struct(&png, &info, NULL);
    return has_alpha ? 1 : 0;
}

int cic_png_decode(
    const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint32_t max_side, uint8_t background_red,
    uint8_t background_green, uint8_t background_blue, int keep_alpha, uint8_t *out, size_t capacity,
    cic_status *status) {
    set_status(status, CIC_OK, NULL);
    size_t out_channels = keep_alpha ? 4 : 3;
    if (data == NULL || out == NULL || width == 0 || height == 0 ||
        (uint64_t)width * height * out_channels != (uint64_t)capacity) {
        set_status(status, CIC_ERROR_ARGUMENT, "no data, or an output buffer that is not width * height * channels");
        return status->code;
    }
    png_read_context context = {.status = status, .data = data, .size = size, .offset = 0, .truncated = 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, png_on_error, png_on_warning);
    if (png == NULL) {
        set_status(status, CIC_ERROR_MEMORY_LIMIT, "out of memory");
        return status->code;
    }
    png_infop info = png_create_info_struct(png);
    // Buffers made after setjmp and freed after a longjmp: volatile so their values survive it.
    uint8_t *volatile rgba = NULL;
    png_bytep *volatile rows = NULL;
    if (info == NULL || setjmp(context.jump)) {
        if (info == NULL) set_status(status, CIC_ERROR_MEMORY_LIMIT, "out of memory");
        png_destroy_read_struct(&png, info == NULL ? NULL : &info, NULL);
        free(rgba);
        free(rows);
        return status->code;
    }
    png_set_user_limits(png, max_side, max_side);
    png_set_chunk_cache_max(png, 64);
    png_set_chunk_malloc_max(png, 4u * 1024u * 1024u);
    png_set_read_fn(png, &context, png_read_from_memory);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        set_status(status, CIC_ERROR_ARGUMENT, "the header's size differs from the caller's");
        png_destroy_read_struct(&png, &info, NULL);
        return status->code;
    }
    int color_type = png_get_color_type(png, info);
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS);
    // To 8-bit RGB or RGBA: palette and low-depth gray expanded, tRNS made an alpha channel,
    // 16-bit channels scaled (not truncated) to 8, gray widened to RGB.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    // Kept transparency: an opaque image gets an alpha of 255, so every row is RGBA.
    if (keep_alpha && !has_alpha) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t channels = (has_alpha || keep_alpha) ? 4 : 3;
    if (png_get_rowbytes(png, info) != (size_t)width * channels) {
        set_status(status, CIC_ERROR_ARGUMENT, "libpng's row size differs from the expected RGB(A) row");
        png_destroy_read_struct(&png, &info, NULL);
        return status->code;
    }
    const uint8_t background[3] = {background_red, background_green, background_blue};
    size_t stride = (size_t)width * channels;
    if (!has_alpha || keep_alpha) {
        // Straight into the output; an interlaced file fills every row once per pass.
        for (int pass = 0; pass < passes; pass++) {
            for (uint32_t y = 0; y < height; y++) png_read_row(png, out + (size_t)y * stride, NULL);
        }
    } else if (passes == 1) {
        // Row by row through one RGBA row, composited into the output.
        rgba = malloc(stride);
        if (rgba == NULL) png_error(png, "out of memory");
        for (uint32_t y = 0; y < height; y++) {
            png_read_row(png, rgba, NULL);
            composite_row(rgba, out + (size_t)y * width * 3, width, background);
        }
    } else {
        // Interlaced with alpha: the passes fill the whole RGBA image, then it is composited.
        rgba = malloc(stride * height);
        rows = malloc(sizeof(png_bytep) * height);
        if (rgba == NULL || rows == NULL) png_error(png, "out of memory");
        for (uint32_t y = 0; y < height; y++) rows[y] = rgba + (size_t)y * stride;
        png_read_image(png, rows);
        for (uint32_t y = 0; y < height; y++) {
            composite_row(rgba + (size_t)y * stride, out + (size_t)y * width * 3, width, background);
        }
    }
    // png_read_end is not called: the image is complete, and whatever follows (more compressed
    // data than the header needs, text chunks) is never inflated.
    png_destroy_read_struct(&png, &info, NULL);
    free(rgba);
    free(rows);
    return CIC_OK;
}

typedef struct {
    jmp_buf jump;
    cic_status *status;
    uint8_t *buffer;
    size_t size;
    size_t capacity;
} png_write_context;

static void png_on_write_error(png_structp png, png_const_charp message) {
    png_write_context *context = png_get_error_ptr(png);
    set_status(context->status, CIC_ERROR_CORRUPT, message);
    longjmp(context->jump, 1);
}

static void png_write_to_memory(png_structp png, png_bytep bytes, size_t length) {
    png_write_context *context = png_get_io_ptr(png);
    if (length > context->capacity - context->size) {
        size_t capacity = context->capacity ? context->capacity : 4096;
        while (length > capacity - context->size) {
            if (capacity > SIZE_MAX / 2) png_error(png, "output too large");
            capacity *= 2;
        }
        uint8_t *grown = realloc(context->buffer, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        context->buffer = grown;
        context->capacity = capacity;
    }
    memcpy(context->buffer + context->size, bytes, length);
    context->size += length;
}

static void png_flush_nothing(png_structp png) { (void)png; }

int cic_png_encode(
    const uint8_t *pixels, size_t size, uint32_t width, uint32_t height, int components, uint8_t **out,
    size_t *out_size, cic_status *status) {
    set_status(status, CIC_OK, NULL);
    if (pixels == NULL || out == NULL || out_size == NULL || width == 0 || height == 0 ||
        (components != 3 && components != 4) ||
        (uint64_t)width * height * (uint64_t)components != (uint64_t)size) {
        set_status(status, CIC_ERROR_ARGUMENT, "bad size or components");
        return status->code;
    }
    png_write_context context = {.status = status, .buffer = NULL, .size = 0, .capacity = 0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, png_on_write_error, png_on_warning);
    if (png == NULL) {
        set_status(status, CIC_ERROR_MEMORY_LIMIT, "out of memory");
        return status->code;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL || setjmp(context.jump)) {
        if (info == NULL) set_status(status, CIC_ERROR_MEMORY_LIMIT, "out of memory");
        png_destroy_write_struct(&png, info == NULL ? NULL : &info);
        free(context.buffer);
        return status->code;
    }
    png_set_write_fn(png, &context, png_write_to_memory, png_flush_nothing);
    png_set_IHDR(
        png, info, width, height, 8, components == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
        PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    size_t stride = (size_t)width * (size_t)components;
    for (uint32_t y = 0; y < height; y++) png_write_row(png, pixels + (size_t)y * stride);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = context.buffer;
    *out_size = context.size;
    return CIC_OK;
}
