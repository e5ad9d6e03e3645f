#ifndef FLIPBOOK_CPNG_SHIM_H
#define FLIPBOOK_CPNG_SHIM_H
/* libpng's simplified png_image API only: the classic API reports errors with
 * longjmp, which Swift frames cannot unwind through. */
#include <png.h>

/* The format constants are composite macros; give Swift plain values. */
static inline png_uint_32 cpng_format_gray(void) { return PNG_FORMAT_GRAY; }
static inline png_uint_32 cpng_format_ga(void) { return PNG_FORMAT_GA; }
static inline png_uint_32 cpng_format_rgb(void) { return PNG_FORMAT_RGB; }
static inline png_uint_32 cpng_format_rgba(void) { return PNG_FORMAT_RGBA; }
static inline png_uint_32 cpng_format_rgba_colormap(void) { return PNG_FORMAT_RGBA_COLORMAP; }
static inline int cpng_image_failed(const png_image *image) {
    return (image->warning_or_error & PNG_IMAGE_ERROR) != 0;
}
static inline png_uint_32 cpng_image_version(void) { return PNG_IMAGE_VERSION; }
#endif
