#include <dlfcn.h>
#include <stddef.h>

// SHA-256 from the system's libcrypto (OpenSSL 3 or 1.1), opened at first use with dlopen as
// libcurl is (Sources/CCurl/shim.h): nothing is linked, no OpenSSL header is needed, and the
// commands that never hash a feed do not load it. OpenSSL uses the CPU's SHA instructions
// (x86 SHA-NI, ARMv8 SHA-2) where there are any, several times faster than portable code: an
// ingest hashes the whole feed (885 MB for a country) beside the load. Every function returns
// a failure (NULL, 0) when the library or a function is missing; the caller then hashes in Swift.
//
// The EVP interface only: EVP_MD_CTX_new, EVP_sha256, EVP_DigestInit_ex, EVP_DigestUpdate,
// EVP_DigestFinal_ex and EVP_MD_CTX_free have kept these signatures from OpenSSL 1.1 to 3.

static inline void *transit_crypto_symbol(const char *name) {
  static void *cached;
  void *handle = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
  if (handle == NULL) {
    handle = dlopen("libcrypto.so.3", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) handle = dlopen("libcrypto.so.1.1", RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) return NULL;
    __atomic_store_n(&cached, handle, __ATOMIC_RELEASE);
  }
  return dlsym(handle, name);
}

// A SHA-256 context, or NULL when libcrypto cannot be had. Free it with transit_sha256_free.
static inline void *transit_sha256_new(void) {
  void *(*new_context)(void) = (void *(*)(void))transit_crypto_symbol("EVP_MD_CTX_new");
  const void *(*sha256)(void) = (const void *(*)(void))transit_crypto_symbol("EVP_sha256");
  int (*init)(void *, const void *, void *) = (int (*)(void *, const void *, void *))transit_crypto_symbol("EVP_DigestInit_ex");
  void (*free_context)(void *) = (void (*)(void *))transit_crypto_symbol("EVP_MD_CTX_free");
  if (new_context == NULL || sha256 == NULL || init == NULL || free_context == NULL) return NULL;
  if (transit_crypto_symbol("EVP_DigestUpdate") == NULL || transit_crypto_symbol("EVP_DigestFinal_ex") == NULL) return NULL;
  void *context = new_context();
  if (context == NULL) return NULL;
  if (init(context, sha256(), NULL) != 1) {
    free_context(context);
    return NULL;
  }
  return context;
}

// Adds `count` bytes; 1 on success.
static inline int transit_sha256_update(void *context, const void *bytes, size_t count) {
  int (*update)(void *, const void *, size_t) = (int (*)(void *, const void *, size_t))transit_crypto_symbol("EVP_DigestUpdate");
  return update == NULL ? 0 : update(context, bytes, count);
}

// Writes the 32-byte digest; 1 on success. The context takes no more bytes afterwards.
static inline int transit_sha256_final(void *context, unsigned char *digest) {
  int (*final)(void *, unsigned char *, unsigned int *) =
      (int (*)(void *, unsigned char *, unsigned int *))transit_crypto_symbol("EVP_DigestFinal_ex");
  unsigned int length = 0;
  return final == NULL ? 0 : (final(context, digest, &length) == 1 && length == 32);
}

static inline void transit_sha256_free(void *context) {
  void (*free_context)(void *) = (void (*)(void *))transit_crypto_symbol("EVP_MD_CTX_free");
  if (free_context != NULL && context != NULL) free_context(context);
}
