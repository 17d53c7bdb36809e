import Fetch
import GTFSRealtime

/// Realtime read from capture files: `--realtime FILE`, a replayed snapshot, `rt dump FILE`.
/// Each file is read as a fetched body is (`RealtimeCapture`): un-gzipped when it is gzip,
/// within the caps, refused when it is an HTML page.
public enum RealtimeFiles {
  /// The feed in the file at `path`; errors name `source`, the file as the user wrote it.
  /// - Throws: a `LibraryFailure` naming the source and why.
  public static func read(_ path: String, shownAs source: String, caps: RealtimeCaps) throws -> FeedMessage {
    do {
      return try RealtimeCapture.read(path: path, source: source, limits: caps.realtimeLimits)
    } catch {
      throw LibraryFailure(error) ?? error
    }
  }

  /// The path of a `file://` URL; nil for anything else (a plain path is resolved by the
  /// caller, against its own working folder).
  public static func fileURLPath(_ source: String) -> String? { RealtimeCapture.fileURLPath(source) }
}
