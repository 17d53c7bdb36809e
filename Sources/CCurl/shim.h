#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic: one wrapper per argument type.
static inline CURLcode transit_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode transit_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode transit_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode transit_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
typedef size_t (*transit_curl_write_fn)(char *, size_t, size_t, void *);
static inline CURLcode transit_curl_setopt_write(CURL *h, CURLoption o, transit_curl_write_fn v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode transit_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
