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
#include <errno.h>

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
#endif
