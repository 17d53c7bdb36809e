extension HTTPClient {
  /// The version of the libcurl library in use ("7.88.1"), as it reports itself at run time
  /// (loading it), or "not found" when it cannot be loaded.
  public static var libraryVersion: String { CurlLibrary.version ?? "not found" }
}
