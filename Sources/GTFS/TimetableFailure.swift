import SQLite
import ZIP

/// The errors of the timetables and the libraries under them (ingest, a feed's files, its ZIP,
/// the SQLite files), as what the command line needs to report them: what kind of failure,
/// the library's own words, and where (a feed's file and line). The command line phrases
/// them and adds its advice without naming these types.
public struct TimetableFailure: Error, Sendable, Equatable {
  /// What kind of failure it is.
  public enum Kind: Sendable, Equatable {
    /// The swap gate refused the new timetable (`SwapPolicy`).
    case refusedSwap
    /// A held timetable was written by another layout of the database.
    case incompatibleLayout
    /// Anything else the library reports.
    case failure
  }

  public var kind: Kind
  /// The library's reason, in one line.
  public var reason: String
  /// Where: a feed's file and line (`stops.txt:42`), or nil.
  public var location: String?

  /// `error` as a failure; nil when it is none of the timetables' errors.
  public init?(_ error: any Error) {
    switch error {
    case let error as IngestError:
      switch error {
      case .refused: kind = .refusedSwap
      case .incompatibleLayout: kind = .incompatibleLayout
      default: kind = .failure
      }
      reason = error.description
    case let error as GTFSError:
      kind = .failure
      reason = error.message
      location = error.line.map { "\(error.file):\($0)" } ?? error.file
    case let error as ZipError:
      kind = .failure
      reason = error.description
    case let error as SQLiteError:
      kind = .failure
      reason = error.description
    default: return nil
    }
  }

  /// Whether `error` is about the feed's own bytes (a bad archive or a bad file in it), not
  /// the machine or the timetables held.
  public static func isAboutTheFeed(_ error: any Error) -> Bool { error is ZipError || error is GTFSError }
}
