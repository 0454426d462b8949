// clock_gettime and the socket calls, without the GNU extensions.
#define _POSIX_C_SOURCE 200809L
#include "CEpoll.h"

#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { reply_buffer = 1 << 20 };

static uint64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

// Connects to the Unix socket; a read that waits 30 s fails, so that a server that stops
// answering ends the run rather than hangs it.
static int connect_unix(const char *socket_path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    struct timeval timeout = { .tv_sec = 30 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    strncpy(address.sun_path, socket_path, sizeof address.sun_path - 1);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}

static int write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return written < 0 ? -errno : -EPIPE;
        bytes += written;
        count -= (size_t)written;
    }
    return 0;
}

// Reads until `frames` NUL-terminated frames have arrived; counts the bytes and, when
// `errors` is given, the frames that are error replies (the first bytes of each frame).
static int read_frames(int fd, char *buffer, long frames, long *bytes, long *errors) {
    static const char error_start[] = "{\"error\":";
    int at_start = 1;
    char start[sizeof error_start - 1];
    size_t started = 0;
    while (frames > 0) {
        ssize_t got = read(fd, buffer, reply_buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return got < 0 ? -errno : -ECONNRESET;
        *bytes += got;
        for (char *p = buffer, *end = buffer + got; p < end;) {
            if (errors != NULL && at_start) {
                while (started < sizeof start && p < end) start[started++] = *p++;
                if (started < sizeof start) break;
                if (memcmp(start, error_start, sizeof start) == 0) (*errors)++;
                at_start = 0;
                started = 0;
                continue;
            }
            char *nul = memchr(p, 0, (size_t)(end - p));
            if (nul == NULL) break;
            p = nul + 1;
            at_start = 1;
            if (--frames == 0 && p < end) return -EPROTO;
        }
    }
    return 0;
}

int appstate_pipeline_run(const char *socket_path, const char *request, size_t size, long batch, long total,
                          struct appstate_pipeline_result *result) {
    memset(result, 0, sizeof *result);
    int fd = connect_unix(socket_path);
    if (fd < 0) return fd;
    char *batch_bytes = malloc(size * (size_t)batch);
    char *buffer = malloc(reply_buffer);
    int status = batch_bytes == NULL || buffer == NULL ? -ENOMEM : 0;
    for (long i = 0; status == 0 && i < batch; i++) memcpy(batch_bytes + (size_t)i * size, request, size);
    uint64_t start = now_ns();
    for (long done = 0; status == 0 && done < total; done += batch) {
        status = write_all(fd, batch_bytes, size * (size_t)batch);
        if (status == 0) status = read_frames(fd, buffer, batch, &result->bytes, &result->errors);
        if (status == 0) result->calls += batch;
    }
    result->seconds = (double)(now_ns() - start) / 1e9;
    free(batch_bytes);
    free(buffer);
    close(fd);
    return status;
}

int appstate_round_trips(const char *socket_path, const char *request, size_t size, long count, double *microseconds) {
    int fd = connect_unix(socket_path);
    if (fd < 0) return fd;
    char *buffer = malloc(reply_buffer);
    int status = buffer == NULL ? -ENOMEM : 0;
    long bytes = 0;
    for (long i = 0; status == 0 && i < count; i++) {
        uint64_t start = now_ns();
        status = write_all(fd, request, size);
        if (status == 0) status = read_frames(fd, buffer, 1, &bytes, NULL);
        microseconds[i] = (double)(now_ns() - start) / 1e3;
    }
    free(buffer);
    close(fd);
    return status;
}

// One connection of the forking server: each NUL that ends a request is answered with the reply.
static void answer_connection(int fd, const char *reply, size_t size) {
    static char buffer[65536];
    for (;;) {
        ssize_t got = read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return;
        for (char *p = buffer, *end = buffer + got; (p = memchr(p, 0, (size_t)(end - p))) != NULL; p++) {
            if (write_all(fd, reply, size) != 0) return;
        }
    }
}

int appstate_forking_server_run(const char *socket_path, const char *reply, size_t size) {
    // Children are reaped by the kernel.
    signal(SIGCHLD, SIG_IGN);
    int listener = appstate_listen(socket_path, 128);
    if (listener < 0) return listener;
    for (;;) {
        int fd = accept(listener, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            return -errno;
        }
        pid_t child = fork();
        if (child == 0) {
            close(listener);
            answer_connection(fd, reply, size);
            _exit(0);
        }
        close(fd);
        if (child < 0) return -errno;
    }
}
