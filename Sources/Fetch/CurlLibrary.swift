import CCurl

/// libcurl, opened at first use rather than linked: most commands never fetch, and loading
/// libcurl with the ~30 libraries it needs costs every process about 10 ms (issue 24).
/// `Sources/CCurl/shim.h` opens `libcurl.so.4` with `dlopen` and finds each function with
/// `dlsym`.
enum CurlLibrary {
  /// nil once libcurl is loaded with every function transit calls; otherwise why not, in one
  /// line.
  private static let libraryError: String? = transit_curl_load_error().map { message in
    "cannot load libcurl, which fetching needs (\(String(cString: message))); install the libcurl4 package"
  }

  /// nil once libcurl is loaded and globally set up; otherwise why not. Computed once:
  /// `curl_global_init` is not thread-safe, and a Swift global is initialised exactly once.
  private static let setUpError: String? = {
    if let libraryError { return libraryError }
    let code = transit_curl_global_init()
    return code == CURLE_OK ? nil : "curl_global_init failed: \(String(cString: transit_curl_easy_strerror(code)))"
  }()

  /// Loads and sets up libcurl unless that is done already.
  /// - Throws: `FetchError` naming the missing library or function.
  static func load() throws(FetchError) {
    if let setUpError { throw FetchError(url: "", .transfer(setUpError)) }
  }

  /// The version libcurl reports at run time ("7.88.1"), or nil when it cannot be loaded.
  /// (Loads it, without the global set-up a transfer needs: TLS libraries start there.)
  static var version: String? {
    libraryError == nil ? String(cString: transit_curl_version()) : nil
  }
}

// MARK: - libcurl's functions, through the loader

// These shadow the declarations of curl.h (Swift prefers a module's own declarations to those
// of the modules it imports), so HTTPClient reads as plain libcurl while every call goes through
// the shim's looked-up pointers. Calling curl.h's declarations directly would need `-lcurl`,
// which the build does not pass: such a call fails to link. Call `CurlLibrary.load()` first.

func curl_easy_init() -> UnsafeMutableRawPointer? { transit_curl_easy_init() }
func curl_easy_cleanup(_ handle: UnsafeMutableRawPointer?) { transit_curl_easy_cleanup(handle) }
func curl_easy_reset(_ handle: UnsafeMutableRawPointer?) { transit_curl_easy_reset(handle) }
func curl_easy_perform(_ handle: UnsafeMutableRawPointer?) -> CURLcode { transit_curl_easy_perform(handle) }
func curl_easy_strerror(_ code: CURLcode) -> UnsafePointer<CChar>! { transit_curl_easy_strerror(code) }
func curl_slist_append(
  _ list: UnsafeMutablePointer<curl_slist>?, _ string: UnsafePointer<CChar>?
)
  -> UnsafeMutablePointer<curl_slist>?
{ transit_curl_slist_append(list, string) }
func curl_slist_free_all(_ list: UnsafeMutablePointer<curl_slist>?) { transit_curl_slist_free_all(list) }
