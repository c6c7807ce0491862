#ifndef PANTRACE_CZLIB_SHIM_H
#define PANTRACE_CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 and inflateInit2 are function-like macros that pass ZLIB_VERSION and
// sizeof(z_stream) to the real entry points; Swift cannot import function-like macros,
// so these wrappers give the codec one typed call each.

/// deflateInit2() for a gzip member (windowBits 15 + 16) with the given memLevel, default strategy.
static inline int pantrace_deflate_init_gzip(z_streamp strm, int level, int mem_level) {
    return deflateInit2(strm, level, Z_DEFLATED, 15 + 16, mem_level, Z_DEFAULT_STRATEGY);
}

/// inflateInit2() that accepts gzip only (windowBits 15 + 16): a .pantrace file is a
/// sequence of gzip members, so a zlib or raw stream is an error, not something to guess at.
static inline int pantrace_inflate_init_gzip(z_streamp strm) {
    return inflateInit2(strm, 15 + 16);
}

#endif
