// epoll for the load tool's watcher reader: Glibc's Swift module does not include it.
#include <sys/epoll.h>

// The floor of the paced fan-out figure: a single-threaded epoll server on a Unix socket.
// A connection whose first message contains "io.appstate.Watch" becomes a watcher and gets a
// short first reply; every other message is a change: it is answered, then a 256-byte event
// (NUL included) is written to every watcher. Runs until killed; returns only on a setup
// error, with -errno.
int appstate_broadcaster_run(const char *socket_path);

// Pins every thread of process `pid` (0: the calling thread only) to CPU `cpu`, or lets it run
// on all CPUs when `cpu` is negative. Returns 0, or -errno of the first failure.
int appstate_pin(int pid, int cpu);
