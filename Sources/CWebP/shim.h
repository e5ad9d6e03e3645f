#ifndef FLIPBOOK_CWEBP_SHIM_H
#define FLIPBOOK_CWEBP_SHIM_H
/* libwebp: the encoder, WebPAnimEncoder (libwebpmux) for animations, and WebPAnimDecoder
 * (libwebpdemux) to read them back. */
#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>
#include <webp/demux.h>
#endif
