#ifndef APPSTATE_CDISPATCHMAINQUEUE_SHIM_H
#define APPSTATE_CDISPATCHMAINQUEUE_SHIM_H

/* libdispatch's hooks for a run loop that serves the main queue on the main thread, as
   CoreFoundation's does: exported by libdispatch (part of the Swift runtime on Linux) and
   declared in none of its public headers. The daemon's event loop is that run loop, so that
   the main actor and the connections share one thread. */

/* An eventfd that becomes readable whenever the main queue has work; created on first call. */
int _dispatch_get_main_queue_handle_4CF(void);

/* Runs what the main queue holds, on the main thread. The argument is unused on Linux. */
void _dispatch_main_queue_callback_4CF(void *message);

#endif
