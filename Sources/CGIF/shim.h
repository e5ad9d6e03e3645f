#ifndef FLIPBOOK_CGIF_SHIM_H
#define FLIPBOOK_CGIF_SHIM_H
#include <gif_lib.h>
#endif
