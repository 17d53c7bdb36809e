import FoundationEssentials
import GTFSRealtime
import HostSystem
import ZIP

/// A GTFS-Realtime feed as bytes in hand: a capture file, or a body already fetched. It is
/// un-gzipped when it is gzip, held to the size caps, refused when it is an HTML page, and
/// decoded within the decoder's limits. Every command that reads a feed reads it here, so a
/// `--realtime` file, a replayed snapshot, `rt dump` and a fetched body fail alike.
public enum RealtimeCapture {
  /// The feed in the file at `path`, shown as `source` in errors (as the user wrote it).
  /// - Throws: `RealtimeCaptureError`.
  public static func read(path: String, source: String, limits: RealtimeLimits) throws -> FeedMessage {
    guard let isDirectory = FileInfo.isDirectory(path) else { throw RealtimeCaptureError(source, "no such file") }
    guard !isDirectory else { throw RealtimeCaptureError(source, "is a folder, not a feed") }
    // Refused before it is read: no feed file is larger than both caps.
    let size = FileInfo.size(path).map { Int(clamping: $0) } ?? 0
    let cap = max(limits.maxCompressedBytes, limits.maxDecompressedBytes)
    guard size <= cap else {
      throw RealtimeCaptureError(
        source, "\(size >> 20) MiB is more than the \(cap >> 20) MiB a realtime feed may hold (the realtime-max-mb setting)")
    }
    // The file's bytes straight into one array (a feed near the cap is held once); a file that
    // grew since its size was read gives the rest too, within the caps checked after.
    guard let bytes = FileReader.bytes(path, limit: size + (64 << 20), expected: size) else {
      throw RealtimeCaptureError(source, "cannot be read")
    }
    return try decode(bytes, source: source, limits: limits)
  }

  /// The path a realtime source names: a `file://` URL's path, else nil (a plain path is the
  /// caller's to resolve against its working folder).
  public static func fileURLPath(_ source: String) -> String? {
    source.lowercased().hasPrefix("file://") ? (HTTPClient.localPath(source) ?? source) : nil
  }

  /// Un-gzips (when the bytes are gzip) and decodes a FeedMessage within `limits`.
  /// - Throws: `RealtimeCaptureError`.
  public static func decode(_ bytes: [UInt8], source: String, limits: RealtimeLimits) throws -> FeedMessage {
    let bytes = try payload(bytes, source: source, limits: limits)
    do {
      return try FeedMessage(decoding: bytes, limits: limits.decoding)
    } catch {
      throw failure(error, source: source)
    }
  }

  /// The header of the feed in `bytes` (un-gzipped first when they are gzip), its entities
  /// stepped over: what `history import` sorts a folder by before decoding any file whole.
  /// - Throws: `RealtimeCaptureError`.
  public static func header(_ bytes: [UInt8], source: String, limits: RealtimeLimits) throws -> FeedHeader? {
    let bytes = try payload(bytes, source: source, limits: limits)
    do {
      return try FeedMessage.header(decoding: bytes)
    } catch {
      throw failure(error, source: source)
    }
  }

  /// A decoding error with its source first, and the setting that raises the limit it names.
  static func failure(_ error: WireError, source: String) -> RealtimeCaptureError {
    var reason = "\(error)"
    if let setting = setting(raising: error) {
      reason = reason.replacing("(a decoding limit)", with: "(the \(setting) setting)")
    }
    return RealtimeCaptureError(source, reason, decoding: error)
  }

  /// The setting that raises the limit a decoding error names, if it names one.
  static func setting(raising error: WireError) -> String? {
    guard case .tooMany(let what, _, _) = error.reason else { return nil }
    switch what {
    case "entity": return "realtime-max-entities"
    case "stop_time_update": return "realtime-max-stop-updates"
    default: return nil
    }
  }

  /// The protobuf bytes of a feed: `bytes` un-gzipped when they are gzip, within `limits`'
  /// caps, and not an HTML page.
  static func payload(_ bytes: [UInt8], source: String, limits: RealtimeLimits) throws(RealtimeCaptureError) -> [UInt8] {
    var bytes = bytes
    if source.lowercased().hasSuffix(".gz") || Gzip.isGzip(bytes) {
      guard bytes.count <= limits.maxCompressedBytes else {
        throw RealtimeCaptureError(
          source,
          "the gzip data is larger than the \(limits.maxCompressedBytes >> 20) MiB allowed (the realtime-max-download-mb setting)")
      }
      do {
        bytes = try Gzip.decompress(bytes, maxOutput: limits.maxDecompressedBytes)
      } catch ZipError.gzipTooLarge(let limit) {
        throw RealtimeCaptureError(
          source, "the gzip data decompresses to more than the \(limit >> 20) MiB allowed (the realtime-max-mb setting)")
      } catch {
        throw RealtimeCaptureError(source, "\(error)")
      }
    }
    guard bytes.count <= limits.maxDecompressedBytes else {
      throw RealtimeCaptureError(
        source, "the feed is larger than the \(limits.maxDecompressedBytes >> 20) MiB allowed (the realtime-max-mb setting)")
    }
    if HTTPClient.looksLikeHTML(Array(bytes.prefix(512))) {
      throw RealtimeCaptureError(source, "looks like an html page, not a gtfs-realtime feed")
    }
    return bytes
  }
}

/// Why a capture could not be read: "SOURCE: reason", the source as the user wrote it (any
/// key redacted by the caller), the reason naming the setting that raises a cap it hit.
public struct RealtimeCaptureError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file or URL, as the user wrote it.
  public var source: String
  /// Why, in one line.
  public var reason: String
  /// The decoder's own error, when decoding failed.
  public var decoding: WireError?

  /// A failure of `source` for `reason`.
  public init(_ source: String, _ reason: String, decoding: WireError? = nil) {
    self.source = source
    self.reason = reason
    self.decoding = decoding
  }

  public var description: String { "\(source): \(reason)" }
}
