// sched_setaffinity and CPU_SET are GNU extensions.
#define _GNU_SOURCE
#include "CEpoll.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int pin_thread(pid_t tid, int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    long count = sysconf(_SC_NPROCESSORS_CONF);
    for (long c = 0; c < count && c < CPU_SETSIZE; c++) {
        if (cpu < 0 || c == cpu) CPU_SET(c, &set);
    }
    return sched_setaffinity(tid, sizeof set, &set) == 0 ? 0 : -errno;
}

int appstate_pin(int pid, int cpu) {
    if (pid == 0) return pin_thread(0, cpu);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *tasks = opendir(path);
    if (tasks == NULL) return -errno;
    int result = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        int status = pin_thread((pid_t)atoi(entry->d_name), cpu);
        // A thread that ended since the listing (an idle libdispatch worker does) needs no pinning.
        if (status != 0 && status != -ESRCH && result == 0) result = status;
    }
    closedir(tasks);
    return result;
}
