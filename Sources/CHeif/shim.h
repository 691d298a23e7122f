#ifndef MENUSCAN_CHEIF_SHIM_H
#define MENUSCAN_CHEIF_SHIM_H
// libheif (Debian 12: 1.15): HEIC/HEIF and AVIF decoding for the image decoder.
#include <libheif/heif.h>
#endif
