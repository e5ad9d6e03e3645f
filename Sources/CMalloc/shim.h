#ifndef FLIPBOOK_CMALLOC_SHIM_H
#define FLIPBOOK_CMALLOC_SHIM_H
/* glibc's malloc tuning (mallopt), which Swift's Glibc module leaves out. Part of libc:
 * nothing to link or install. */
#include <malloc.h>
#endif
