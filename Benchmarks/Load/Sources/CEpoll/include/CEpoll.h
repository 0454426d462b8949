// epoll for the load tool's watcher reader: Glibc's Swift module does not include it.
#include <sys/epoll.h>

// The floor of the paced fan-out figure: a single-threaded epoll server on a Unix socket.
// A connection whose first message contains "io.appstate.Watch" becomes a watcher and gets a
// short first reply; every other message is a change: it is answered, then a 256-byte event
// (NUL included) is written to every watcher. With a state directory, each change is first
// made durable there as appstated makes its state (`state_size` bytes written to a temporary
// file, fsync, rename, fsync of the directory): the floor of a durable change. Runs until
// killed; returns only on an error, with -errno.
int appstate_broadcaster_run(const char *socket_path, const char *state_directory, size_t state_size);

// Pins every thread of process `pid` (0: the calling thread only) to CPU `cpu`, or lets it run
// on all CPUs when `cpu` is negative. Returns 0, or -errno of the first failure.
int appstate_pin(int pid, int cpu);

// A Unix socket listening at `socket_path` (a stale file there removed): its descriptor, or
// -errno.
int appstate_listen(const char *socket_path, int backlog);

// What one pipelined run did (appstate_pipeline_run).
struct appstate_pipeline_result {
    long calls;
    long bytes;
    long errors;
    double seconds;
};

// Figure 11's client, in C so that no Swift of the project's is on the client's side:
// `total` calls on one connection to the Unix socket, written `batch` at once (copies of the
// NUL-terminated frame `request`, `size` bytes with its NUL), each batch's replies read
// before the next is written. Returns 0 or -errno; `result` says what was done.
int appstate_pipeline_run(const char *socket_path, const char *request, size_t size, long batch, long total,
                          struct appstate_pipeline_result *result);

// Figure 12's client: `count` round trips of `request` on one connection, each written and
// its reply read before the next; each one's time goes to `microseconds`. Returns 0 or -errno.
int appstate_round_trips(const char *socket_path, const char *request, size_t size, long count, double *microseconds);

// Figure 12's floor: a forking server on a Unix socket, one child process per connection,
// answering every NUL-terminated request with the fixed reply (`size` bytes, its NUL included).
// Runs until killed; returns only on an error, with -errno.
int appstate_forking_server_run(const char *socket_path, const char *reply, size_t size);
