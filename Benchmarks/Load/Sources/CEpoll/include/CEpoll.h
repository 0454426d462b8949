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
