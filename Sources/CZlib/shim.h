#include <zlib.h>

// inflateInit2 is a macro; raw deflate (ZIP method 8) needs negative window bits.
static inline int transit_inflateInitRaw(z_streamp stream) {
  return inflateInit2(stream, -MAX_WBITS);
}
// gzip (and zlib) with automatic header detection, for .gz realtime captures.
static inline int transit_inflateInitGzip(z_streamp stream) {
  return inflateInit2(stream, MAX_WBITS + 32);
}
