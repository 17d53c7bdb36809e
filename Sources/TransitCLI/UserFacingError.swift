import FoundationEssentials
import Services
import TransitModel

/// An error the user can act on: one line of text and the exit code it ends the process with
/// (DESIGN.md: 1 runtime failure, 2 usage, 3 not found, 4 a refused timetable swap).
///
/// The conformances below are the closed list `Transit.report` renders; any other error is a
/// bug in transit and is reported as an internal error (exit 70).
protocol UserFacingError: Error {
  /// What went wrong, in one line, naming the field or value at fault; without the
  /// "transit: " prefix and without `location`.
  var message: String { get }
  /// The process's exit code.
  var exitCode: Int32 { get }
  /// Where the problem is, printed before the message: a feed's file and line
  /// (`stops.txt:42`), a file error's path, or nil.
  var location: String? { get }
}

extension UserFacingError {
  var location: String? { nil }
  /// A runtime failure unless the type says otherwise.
  var exitCode: Int32 { 1 }

  /// The line printed on stderr, after "transit: ".
  var oneLine: String { location.map { "\($0): \(message)" } ?? message }
}

extension UserFacingError where Self: CustomStringConvertible {
  /// An error that prints as one line says it as it prints (a type with a `message` of its
  /// own says that).
  var message: String { description }
}

extension UsageError: UserFacingError {
  var exitCode: Int32 { 2 }
}

extension NotFoundError: UserFacingError {
  var exitCode: Int32 { 3 }
}

extension AlertResolver.Unknown: UserFacingError {
  var exitCode: Int32 { 3 }
}

extension LibraryFailure: UserFacingError {
  /// 4 when the swap gate refused the new timetable, so cron can tell it from a failure.
  var exitCode: Int32 { kind == .refusedSwap ? 4 : 1 }

  /// The library's reason, with the command line's advice where there is some to give.
  var message: String {
    switch kind {
    case .refusedSwap: return reason + " (--force swaps anyway)"
    case .incompatibleLayout: return reason + "; load the feed again with 'transit ingest'"
    case .failure: return reason
    }
  }
}

extension SnapshotFolderError: UserFacingError {
  var message: String {
    switch self {
    case .unreadable(let path): return "cannot read replay folder '\(path)'"
    case .empty(let path): return "no snapshots (<unix-seconds>-<kind>.pb or .pb.gz) in '\(path)'"
    }
  }
}

// Exit 1, the message as the error prints.
extension RuntimeError: UserFacingError {}
extension SettingsError: UserFacingError {}
extension LocalZoneError: UserFacingError {}

extension FeedKeepingError {
  /// The library's reason as the command line says it, with the advice that names a command.
  var phrased: any UserFacingError {
    switch self {
    case .notHeld(let name): return NotFoundError("no feed named '\(name)' is held (see 'transit ingest --list')")
    case .notConfigured(let name, let names):
      return NotFoundError(
        "no feed named '\(name)' is configured"
          + (names.isEmpty ? " (add one with 'transit feeds add')" : "; configured: \(names.joined(separator: ", "))"))
    case .noGTFSURL(let name): return UsageError("feed '\(name)' has no --gtfs url (see 'transit feeds list')")
    case .nothingToIngest: return UsageError("missing PATH|URL (or configure a feed with 'transit feeds add NAME --gtfs URL')")
    case .noRealtimeFeeds: return RuntimeError("no realtime feeds are configured; add one with 'transit feeds add'")
    case .cannotCreate(let folder, let error): return RuntimeError("cannot create \(folder): \(Transit.fileProblem(error))")
    case .unreadableCABundle(let path): return RuntimeError("TRANSIT_CA_BUNDLE: \(path) cannot be read")
    case .cannotSave(let detail): return RuntimeError("cannot save the feed configuration: \(detail)")
    case .download(let message), .badDownload(let message): return RuntimeError(message)
    }
  }
}

extension Transit {
  /// `error` as the user reads it: a library's typed reason phrased by the command line, else
  /// the error itself when it is one the command line renders; nil for a bug.
  static func userFacing(_ error: any Error) -> (any UserFacingError)? {
    if let error = error as? FeedKeepingError { return error.phrased }
    if let problem = error as? FeedSetup.Problem { return problem.phrased }
    if let error = error as? any UserFacingError { return error }
    return LibraryFailure(error)
  }
}

/// Foundation's file errors (a data folder under a plain file, a full disk, no permission):
/// "PATH: reason", exit 1, never an internal error.
extension CocoaError: UserFacingError {
  var message: String { Transit.fileProblem(self) }
  var location: String? { filePath ?? url?.path ?? "file" }
}
