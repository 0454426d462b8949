#ifndef APPSTATE_CSYSTEMD_SHIM_H
#define APPSTATE_CSYSTEMD_SHIM_H

/* Swift calls the plain sd_journal_sendv() and supplies CODE_FILE/CODE_LINE/CODE_FUNC
   itself; without this, sd-journal.h redefines sd_journal_sendv as a macro that would
   stamp this header's location on every entry (in C callers). */
#define SD_JOURNAL_SUPPRESS_LOCATION 1

#include <errno.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

/* The layout of Linux's `struct ucred`. Glibc only declares that struct under
   _GNU_SOURCE, which Swift's Glibc module is not built with, so Swift cannot name it. */
struct appstate_peer_credentials {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};

/* Reads SO_PEERCRED of a connected AF_UNIX socket: the credentials the peer had when it
   connected (or called socketpair). Returns 0, or a negative errno. */
static inline int appstate_get_peer_credentials(int fd, struct appstate_peer_credentials *credentials) {
    socklen_t length = sizeof(*credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, credentials, &length) < 0) {
        return -errno;
    }
    return length == sizeof(*credentials) ? 0 : -EIO;
}

/* One basic D-Bus value as sd_bus_message_read_basic() stores it: which member is valid
   follows from the type code the caller asked for. */
union appstate_bus_basic {
    uint8_t byte;
    int boolean;
    int16_t int16;
    uint16_t uint16;
    int32_t int32;
    uint32_t uint32;
    int64_t int64;
    uint64_t uint64;
    double real;
    const char *text;
    int fd;
};

/* SD_BUS_ERROR_NULL is a macro Swift cannot expand. */
static inline sd_bus_error appstate_bus_error_null(void) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    return error;
}

#endif
