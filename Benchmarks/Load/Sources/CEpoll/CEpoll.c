// accept4 is a GNU extension.
#define _GNU_SOURCE
#include "CEpoll.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

enum { maximum_connections = 8192, maximum_state = 1 << 16 };

// Writes all of a buffer to a blocking socket; a watcher that is gone is skipped.
static void write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = send(fd, bytes, count, MSG_NOSIGNAL);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        bytes += written;
        count -= (size_t)written;
    }
}

// Makes `size` bytes durable in the directory as appstated makes its state: written to a
// temporary file, which is fsynced and renamed over the state file, and the directory fsynced.
static int write_state(int directory, size_t size) {
    static char state[maximum_state];
    if (state[0] == 0) memset(state, 'x', sizeof state);
    int file = openat(directory, "state.json.tmp", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (file < 0) return -errno;
    for (size_t written = 0; written < size;) {
        ssize_t now = write(file, state + written, size - written);
        if (now < 0 && errno == EINTR) continue;
        if (now <= 0) {
            close(file);
            return -errno;
        }
        written += (size_t)now;
    }
    int failed = fsync(file) != 0 ? -errno : 0;
    close(file);
    if (failed) return failed;
    if (renameat(directory, "state.json.tmp", directory, "state.json") != 0) return -errno;
    return fsync(directory) != 0 ? -errno : 0;
}

int appstate_broadcaster_run(const char *socket_path, const char *state_directory, size_t state_size) {
    static char is_watcher[maximum_connections];
    static int watchers[maximum_connections];
    static char event[256];
    static const char first_reply[] = "{\"parameters\":{\"root\":{}},\"continues\":true}";
    static const char change_reply[] = "{\"parameters\":{}}";
    static char buffer[65536];
    int watcher_count = 0;

    memset(event, ' ', sizeof event - 1);
    memcpy(event, "{\"parameters\":{\"event\":{}},\"continues\":true}", 44);
    event[sizeof event - 1] = 0;

    int directory = -1;
    if (state_directory != NULL) {
        if (state_size > maximum_state) return -EFBIG;
        directory = open(state_directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (directory < 0) return -errno;
    }
    int listener = appstate_listen(socket_path, 4096);
    if (listener < 0) return listener;
    int poller = epoll_create1(EPOLL_CLOEXEC);
    if (poller < 0) return -errno;
    struct epoll_event interest = { .events = EPOLLIN, .data.fd = listener };
    epoll_ctl(poller, EPOLL_CTL_ADD, listener, &interest);

    struct epoll_event ready[256];
    for (;;) {
        int count = epoll_wait(poller, ready, 256, -1);
        for (int i = 0; i < count; i++) {
            int fd = ready[i].data.fd;
            if (fd == listener) {
                int client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
                if (client < 0 || client >= maximum_connections) {
                    if (client >= 0) close(client);
                    continue;
                }
                is_watcher[client] = 0;
                struct epoll_event readable = { .events = EPOLLIN, .data.fd = client };
                epoll_ctl(poller, EPOLL_CTL_ADD, client, &readable);
                continue;
            }
            ssize_t got = read(fd, buffer, sizeof buffer - 1);
            if (got <= 0) {
                if (is_watcher[fd]) {
                    for (int w = 0; w < watcher_count; w++) {
                        if (watchers[w] == fd) {
                            watchers[w] = watchers[--watcher_count];
                            break;
                        }
                    }
                }
                epoll_ctl(poller, EPOLL_CTL_DEL, fd, NULL);
                close(fd);
                continue;
            }
            // The client sends one message per write and waits for its answer, so a read
            // holds whole messages; each NUL ends one.
            buffer[got] = 0;
            for (ssize_t at = 0; at < got; at++) {
                if (buffer[at] != 0) continue;
                if (!is_watcher[fd] && strstr(buffer, "io.appstate.Watch") != NULL) {
                    is_watcher[fd] = 1;
                    watchers[watcher_count++] = fd;
                    write_all(fd, first_reply, sizeof first_reply);
                } else {
                    if (directory >= 0) {
                        int failed = write_state(directory, state_size);
                        if (failed) return failed;
                    }
                    write_all(fd, change_reply, sizeof change_reply);
                    for (int w = 0; w < watcher_count; w++) write_all(watchers[w], event, sizeof event);
                }
            }
        }
    }
}

int appstate_listen(const char *socket_path, int backlog) {
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0) return -errno;
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    strncpy(address.sun_path, socket_path, sizeof address.sun_path - 1);
    unlink(socket_path);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, backlog) < 0) {
        int error = errno;
        close(listener);
        return -error;
    }
    return listener;
}
