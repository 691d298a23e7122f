#ifndef MENUSCAN_CPOPPLER_SHIM_H
#define MENUSCAN_CPOPPLER_SHIM_H
// poppler-glib (Debian 12: 22.12) reads PDF menus: page count, text layer
// with character boxes, and rendering through cairo image surfaces.
#include <poppler.h>
#include <cairo.h>
#endif
