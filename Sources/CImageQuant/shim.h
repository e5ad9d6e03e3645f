#ifndef FLIPBOOK_CIMAGEQUANT_SHIM_H
#define FLIPBOOK_CIMAGEQUANT_SHIM_H
#include <stddef.h>
#include <libimagequant.h>
#endif
