#ifndef PANTRACE_CLIBWEBSOCKETS_SHIM_H
#define PANTRACE_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <pthread.h>

// The bridge relies on libwebsockets 4.1.x behaviour, read in its source (docs/PROTOCOL.md §1):
// the FILTER_NETWORK_CONNECTION descriptor, lws_rx_flow_control on the listener, the
// pipelining buffer, the close-frame checks. Another version must fail here, not at run time.
#if !defined(LWS_LIBRARY_VERSION_MAJOR) || LWS_LIBRARY_VERSION_MAJOR != 4 || LWS_LIBRARY_VERSION_MINOR != 1
#error "PanTrace's bridge needs libwebsockets 4.1.x (Debian 12: libwebsockets-dev 4.1.6); this is another version"
#endif

// LWS_PRE is a function-like macro expansion (_LWS_PAD(4 + 10 + 2)) that Swift cannot import
// (lws 4.1.6 `include/libwebsockets/lws-write.h`: `#define LWS_PRE _LWS_PAD(4 + 10 + 2)`): the bytes lws_write asks for before every buffer (where it writes the
// frame header of a text write; the bridge's raw writes keep them free all the same).
static inline size_t pantrace_lws_pre(void) { return LWS_PRE; }

// pthread_setname_np is a GNU extension that <pthread.h> only declares under _GNU_SOURCE, which
// the Swift importer does not define; glibc exports it, declared here with its glibc signature.
int pthread_setname_np(pthread_t thread, const char *name);

// Names the calling thread for the kernel (top, perf, /proc/PID/task/*/comm): the lws service
// threads, one per shard. Names longer than 15 bytes are refused (ERANGE) and the call is a no-op.
static inline int pantrace_name_this_thread(const char *name) { return pthread_setname_np(pthread_self(), name); }

// mallopt and M_MMAP_THRESHOLD live in <malloc.h>, which Swift's Glibc module does not include,
// and the constant is a macro. The bridge sets the threshold once at start (LargeBuffers.swift).
#include <malloc.h>
static inline int pantrace_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

#endif
