#ifndef PANTRACE_CLIBWEBSOCKETS_SHIM_H
#define PANTRACE_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

// LWS_PRE is a function-like macro expansion (_LWS_PAD(4 + 10 + 2)) that Swift cannot import
// (libwebsockets.md §2.2): the bytes lws needs before a payload to write the frame header in place.
static inline size_t pantrace_lws_pre(void) { return LWS_PRE; }

#endif
