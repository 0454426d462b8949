// epoll for the load tool's watcher reader: Glibc's Swift module does not include it.
#include <sys/epoll.h>
