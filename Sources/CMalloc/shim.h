#ifndef FLIPBOOK_CMALLOC_SHIM_H
#define FLIPBOOK_CMALLOC_SHIM_H
/* glibc's malloc tuning (mallopt), which Swift's Glibc module leaves out. Part of libc:
 * nothing to link or install; empty elsewhere (macOS has no mallopt). */
#if defined(__linux__)
#include <malloc.h>
#endif
#endif
