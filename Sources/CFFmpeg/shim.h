#ifndef FLIPBOOK_CFFMPEG_SHIM_H
#define FLIPBOOK_CFFMPEG_SHIM_H
/* FFmpeg's libraries: libavcodec (H.264 through libx264), libavformat (the MP4 container),
 * libswscale (RGBA to and from YUV 4:2:0) and libavutil. */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/error.h>
#include <libavutil/cpu.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <errno.h>
#include <math.h>

/* AVERROR(EAGAIN) and AVERROR_EOF are macros Swift cannot import. */
static inline int flipbook_averror_again(void) { return AVERROR(EAGAIN); }
static inline int flipbook_averror_eof(void) { return AVERROR_EOF; }

/* MKTAG is a macro too: the four-character code Apple's players read HEVC under. */
static inline unsigned int flipbook_tag_hvc1(void) { return MKTAG('h', 'v', 'c', '1'); }

/* AV_NOPTS_VALUE is a cast Swift does not import. */
static inline int64_t flipbook_no_timestamp(void) { return AV_NOPTS_VALUE; }

/* av_err2str is a macro over a compound literal; this is the same, into a caller's buffer. */
static inline const char *flipbook_av_error(int code, char *buffer, size_t size) {
    return av_make_error_string(buffer, size, code);
}
/* The turn players give a stream's pictures, in degrees clockwise (0, 90, 180 or 270), from its
 * display matrix (a phone's portrait recording is stored landscape, with a matrix that turns it),
 * as ffplay reads it. Where the matrix lives moved in libavformat 61. */
static inline int flipbook_stream_rotation(const AVStream *stream) {
    const int32_t *matrix = NULL;
#if LIBAVFORMAT_VERSION_MAJOR >= 61
    const AVPacketSideData *side = av_packet_side_data_get(
        stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    if (side && side->size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)side->data;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data && size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)data;
#endif
    if (!matrix) return 0;
    double angle = av_display_rotation_get(matrix);
    if (isnan(angle)) return 0;
    long turns = lround(-angle / 90.0);
    return (int)(((turns % 4) + 4) % 4) * 90;
}

/* Whether a pixel format carries alpha. */
static inline int flipbook_has_alpha(int format) {
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get((enum AVPixelFormat)format);
    return d && (d->flags & AV_PIX_FMT_FLAG_ALPHA) ? 1 : 0;
}

/* A converter from `format` at `width`x`height` to RGBA at the same size, bilinear with accurate
 * rounding, on `threads` threads (0: one a core). Each thread converts its own rows with the
 * whole picture's filters and dither, so the bytes are those of one thread. */
static inline struct SwsContext *flipbook_rgba_converter(int width, int height, int format, int threads) {
    struct SwsContext *c = sws_alloc_context();
    if (!c) return NULL;
    if (av_opt_set_int(c, "srcw", width, 0) < 0 || av_opt_set_int(c, "srch", height, 0) < 0
        || av_opt_set_int(c, "src_format", format, 0) < 0 || av_opt_set_int(c, "dstw", width, 0) < 0
        || av_opt_set_int(c, "dsth", height, 0) < 0 || av_opt_set_int(c, "dst_format", AV_PIX_FMT_RGBA, 0) < 0
        || av_opt_set_int(c, "sws_flags", SWS_BILINEAR | SWS_ACCURATE_RND, 0) < 0
        || av_opt_set_int(c, "threads", threads, 0) < 0 || sws_init_context(c, NULL, NULL) < 0) {
        sws_freeContext(c);
        return NULL;
    }
    return c;
}

static void flipbook_borrowed(void *opaque, uint8_t *data) { (void)opaque; (void)data; }

/* Converts `source` through `converter` into the caller's RGBA rows (`stride` bytes apart),
 * which stay the caller's: the frame that wraps them only borrows them. */
static inline int flipbook_convert_rgba(struct SwsContext *converter, const AVFrame *source, uint8_t *rgba, int stride) {
    AVFrame *out = av_frame_alloc();
    if (!out) return AVERROR(ENOMEM);
    out->buf[0] = av_buffer_create(rgba, (size_t)stride * source->height, flipbook_borrowed, NULL, 0);
    if (!out->buf[0]) {
        av_frame_free(&out);
        return AVERROR(ENOMEM);
    }
    out->data[0] = rgba;
    out->linesize[0] = stride;
    out->width = source->width;
    out->height = source->height;
    out->format = AV_PIX_FMT_RGBA;
    int result = sws_scale_frame(converter, out, source);
    av_frame_free(&out);
    return result;
}
#endif
