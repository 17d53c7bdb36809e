import CCurl

extension HTTPClient {
  /// The version of the libcurl library in use ("7.88.1"), as it reports itself at run time.
  public static var libraryVersion: String { String(cString: transit_curl_version()) }
}
