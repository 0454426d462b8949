#ifndef APPSTATE_CWAYLANDCLIENT_SHIM_H
#define APPSTATE_CWAYLANDCLIENT_SHIM_H

#include <wayland-client.h>

/* The address of libwayland's own wl_output interface. Swift imports a C constant as a
   value, and a copy's address is not the library's symbol: a proxy and the interface tables
   of other protocols (xdg-output's get_xdg_output names wl_output) must point at the symbol. */
static inline const struct wl_interface *appstate_wl_output_interface(void) {
    return &wl_output_interface;
}

#endif
