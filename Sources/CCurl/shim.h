#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic: one wrapper per argument type.
static inline CURLcode transit_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode transit_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode transit_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode transit_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
typedef size_t (*transit_curl_write_fn)(char *, size_t, size_t, void *);
static inline CURLcode transit_curl_setopt_write(CURL *h, CURLoption o, transit_curl_write_fn v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode transit_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode transit_curl_setopt_header(CURL *h, CURLoption o, transit_curl_write_fn v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode transit_curl_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode transit_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
// CURL_GLOBAL_DEFAULT is a macro expression Swift does not import.
static inline CURLcode transit_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }
// CURLVERSION_NOW is a macro naming the struct version this header was built with.
static inline const char *transit_curl_version(void) { return curl_version_info(CURLVERSION_NOW)->version; }
