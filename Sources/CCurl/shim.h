#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

// libcurl is not linked: it is opened at first use with dlopen, so the commands that never fetch
// (departures, stops, plan, ...) do not pay for loading it and the ~30 libraries it pulls in.
// curl.h is included for its types and constants only. Every function transit calls goes through
// one of the transit_curl_ wrappers below, which look the function up once with dlsym; calling
// curl.h's own declarations would need -lcurl and fails to link, by design.
//
// Swift may emit a copy of these static functions (and their static caches) into every object
// file that calls one, so each wrapper resolves its own pointer; the caches are atomics, and a
// race only looks the same symbol up twice.

#ifndef TRANSIT_CURL_LIBRARY
#define TRANSIT_CURL_LIBRARY "libcurl.so.4"  // the soname of libcurl 7 and 8
#endif

static inline void *transit_curl_library(void) {
  static void *cached;
  void *handle = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
  if (handle == NULL) {
    handle = dlopen(TRANSIT_CURL_LIBRARY, RTLD_LAZY | RTLD_LOCAL);  // functions bound when first called
    if (handle != NULL) __atomic_store_n(&cached, handle, __ATOMIC_RELEASE);
  }
  return handle;
}

// The function `name` of libcurl, or NULL when the library or the function is missing.
static inline void *transit_curl_symbol(const char *name) {
  void *library = transit_curl_library();
  return library == NULL ? NULL : dlsym(library, name);
}

// Declares `name_function`, a pointer of `type` to libcurl's `name`, looked up once per copy.
#define TRANSIT_CURL_RESOLVE(type, name)                                   \
  static __typeof__(type) cached_##name;                                   \
  __typeof__(type) name##_function = __atomic_load_n(&cached_##name, __ATOMIC_ACQUIRE); \
  if (name##_function == NULL) {                                           \
    name##_function = (type)transit_curl_symbol(#name);                    \
    __atomic_store_n(&cached_##name, name##_function, __ATOMIC_RELEASE);   \
  }

// NULL when libcurl is loaded with every function transit uses; otherwise one line naming what
// is missing ("libcurl.so.4: cannot open shared object file: No such file or directory").
static inline const char *transit_curl_load_error(void) {
  if (transit_curl_library() == NULL) {
    const char *message = dlerror();
    return message != NULL ? message : TRANSIT_CURL_LIBRARY ": cannot be loaded";
  }
  static const char *const names[] = {
    "curl_global_init", "curl_version_info", "curl_easy_init", "curl_easy_cleanup", "curl_easy_reset",
    "curl_easy_perform", "curl_easy_setopt", "curl_easy_getinfo", "curl_easy_strerror", "curl_slist_append",
    "curl_slist_free_all",
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (transit_curl_symbol(names[i]) == NULL) {
      const char *message = dlerror();
      return message != NULL ? message : TRANSIT_CURL_LIBRARY ": a function transit needs is missing";
    }
  }
  return NULL;
}

// MARK: - The functions transit calls (transit_curl_load_error() must have returned NULL first)

static inline CURL *transit_curl_easy_init(void) {
  TRANSIT_CURL_RESOLVE(CURL *(*)(void), curl_easy_init)
  return curl_easy_init_function();
}
static inline void transit_curl_easy_cleanup(CURL *h) {
  TRANSIT_CURL_RESOLVE(void (*)(CURL *), curl_easy_cleanup)
  curl_easy_cleanup_function(h);
}
static inline void transit_curl_easy_reset(CURL *h) {
  TRANSIT_CURL_RESOLVE(void (*)(CURL *), curl_easy_reset)
  curl_easy_reset_function(h);
}
static inline CURLcode transit_curl_easy_perform(CURL *h) {
  TRANSIT_CURL_RESOLVE(CURLcode(*)(CURL *), curl_easy_perform)
  return curl_easy_perform_function(h);
}
static inline const char *transit_curl_easy_strerror(CURLcode code) {
  TRANSIT_CURL_RESOLVE(const char *(*)(CURLcode), curl_easy_strerror)
  return curl_easy_strerror_function(code);
}
static inline struct curl_slist *transit_curl_slist_append(struct curl_slist *list, const char *string) {
  TRANSIT_CURL_RESOLVE(struct curl_slist * (*)(struct curl_slist *, const char *), curl_slist_append)
  return curl_slist_append_function(list, string);
}
static inline void transit_curl_slist_free_all(struct curl_slist *list) {
  TRANSIT_CURL_RESOLVE(void (*)(struct curl_slist *), curl_slist_free_all)
  curl_slist_free_all_function(list);
}

// curl_easy_setopt and curl_easy_getinfo are variadic: one wrapper per argument type.
typedef CURLcode (*transit_curl_setopt_fn)(CURL *, CURLoption, ...);
typedef CURLcode (*transit_curl_getinfo_fn)(CURL *, CURLINFO, ...);
static inline transit_curl_setopt_fn transit_curl_setopt_function(void) {
  TRANSIT_CURL_RESOLVE(transit_curl_setopt_fn, curl_easy_setopt)
  return curl_easy_setopt_function;
}
static inline transit_curl_getinfo_fn transit_curl_getinfo_function(void) {
  TRANSIT_CURL_RESOLVE(transit_curl_getinfo_fn, curl_easy_getinfo)
  return curl_easy_getinfo_function;
}
static inline CURLcode transit_curl_setopt_long(CURL *h, CURLoption o, long v) { return transit_curl_setopt_function()(h, o, v); }
static inline CURLcode transit_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return transit_curl_setopt_function()(h, o, v); }
static inline CURLcode transit_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return transit_curl_setopt_function()(h, o, v); }
static inline CURLcode transit_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return transit_curl_setopt_function()(h, o, v); }
typedef size_t (*transit_curl_write_fn)(char *, size_t, size_t, void *);
static inline CURLcode transit_curl_setopt_write(CURL *h, CURLoption o, transit_curl_write_fn v) { return transit_curl_setopt_function()(h, o, v); }
static inline CURLcode transit_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return transit_curl_getinfo_function()(h, i, v); }
static inline CURLcode transit_curl_setopt_header(CURL *h, CURLoption o, transit_curl_write_fn v) { return transit_curl_setopt_function()(h, o, v); }
static inline CURLcode transit_curl_getinfo_double(CURL *h, CURLINFO i, double *v) { return transit_curl_getinfo_function()(h, i, v); }
static inline CURLcode transit_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return transit_curl_getinfo_function()(h, i, v); }
// CURL_GLOBAL_DEFAULT is a macro expression Swift does not import.
static inline CURLcode transit_curl_global_init(void) {
  TRANSIT_CURL_RESOLVE(CURLcode(*)(long), curl_global_init)
  return curl_global_init_function(CURL_GLOBAL_DEFAULT);
}
// CURLVERSION_NOW is a macro naming the struct version this header was built with.
static inline const char *transit_curl_version(void) {
  TRANSIT_CURL_RESOLVE(curl_version_info_data * (*)(CURLversion), curl_version_info)
  return curl_version_info_function(CURLVERSION_NOW)->version;
}
