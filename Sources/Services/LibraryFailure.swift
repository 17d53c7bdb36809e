import Fetch
import GTFS
import GTFSRealtime
import History

/// An error of a library below the answers (the timetables, a decoded feed, fetching, the
/// history), as the command line reports it: the kind of failure, the library's own words and
/// where. The command line phrases it and adds the advice that names a command, so no library
/// writes a command line into a message and the command line names none of their types.
public struct LibraryFailure: Error, Sendable, Equatable {
  public typealias Kind = TimetableFailure.Kind

  public var kind: Kind
  /// The library's reason, in one line.
  public var reason: String
  /// Where: a feed's file and line (`stops.txt:42`), or nil.
  public var location: String?

  /// `error` as a failure; nil when no library below reports it (then it is a bug).
  public init?(_ error: any Error) {
    if let failure = TimetableFailure(error) {
      (kind, reason, location) = (failure.kind, failure.reason, failure.location)
      return
    }
    kind = .failure
    switch error {
    case let error as WireError: reason = error.description
    case let error as FetchError: reason = error.description
    case let error as RealtimeCaptureError: reason = error.description
    case let error as FeedConfigError: reason = error.description
    case let error as FileStoreError: reason = error.description
    case let error as FingerprintError: reason = error.description
    case let error as HistoryError: reason = error.description
    default: return nil
    }
  }
}
