#ifndef MENUSCAN_CTESSERACT_SHIM_H
#define MENUSCAN_CTESSERACT_SHIM_H
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
#endif
