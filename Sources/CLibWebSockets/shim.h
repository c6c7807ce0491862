#ifndef PANTRACE_CLIBWEBSOCKETS_SHIM_H
#define PANTRACE_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <pthread.h>

// LWS_PRE is a function-like macro expansion (_LWS_PAD(4 + 10 + 2)) that Swift cannot import
// (libwebsockets.md §2.2): the bytes lws_write asks for before every buffer (where it writes the
// frame header of a text write; the bridge's raw writes keep them free all the same).
static inline size_t pantrace_lws_pre(void) { return LWS_PRE; }

// pthread_setname_np is a GNU extension that <pthread.h> only declares under _GNU_SOURCE, which
// the Swift importer does not define; glibc exports it, declared here with its glibc signature.
int pthread_setname_np(pthread_t thread, const char *name);

// Names the calling thread for the kernel (top, perf, /proc/PID/task/*/comm): the lws service
// threads, one per shard. Names longer than 15 bytes are refused (ERANGE) and the call is a no-op.
static inline int pantrace_name_this_thread(const char *name) { return pthread_setname_np(pthread_self(), name); }

#endif
