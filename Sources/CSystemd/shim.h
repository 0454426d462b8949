#ifndef APPSTATE_CSYSTEMD_SHIM_H
#define APPSTATE_CSYSTEMD_SHIM_H

#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#endif
