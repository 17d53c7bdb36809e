/// A problem in a GTFS feed, with where it is: the file, the line, and what is wrong.
///
/// Prints as `stops.txt:42: stop_lat 'abc' is not a number between -90 and 90`.
public struct GTFSError: Error, Equatable, CustomStringConvertible {
  /// Why the feed was refused.
  public enum Reason: Equatable, Sendable {
    case missingFile(String)
    case missingColumn(String)
    case emptyFile
    case invalidValue(column: String, value: String, expected: String)
    case missingValue(column: String)
    case invalidUTF8
    case utf16
    case nulByte
    case unterminatedQuote
    case recordTooLong(bytes: Int)
    case tooManyFields(limit: Int)
    case feedTooLarge(declaredBytes: UInt64, limitBytes: UInt64)
    case duplicateKey(column: String, value: String)
    case duplicateStopSequence(tripID: String, sequence: Int)
    case noFeedRoot
    case ambiguousFeedRoot([String])
    case nestedArchive(String)
    case invalidJSON(String)
    case emptyTable(String)
    case tooManyDanglingReferences(String)
    case unreadable(String)
    /// Past one of ingest's limits on a feed's size (`what` says which, with the limit).
    case limitExceeded(String)
  }

  /// The file in the feed (`stop_times.txt`), or the feed itself for whole-feed problems.
  public var file: String
  /// The 1-based line the record starts on (the header is line 1), when there is one.
  public var line: Int?
  public var reason: Reason

  public init(file: String, line: Int? = nil, _ reason: Reason) {
    self.file = file
    self.line = line
    self.reason = reason
  }

  public var description: String {
    let place = line.map { "\(file):\($0)" } ?? file
    return "\(place): \(message)"
  }

  static func mebibytes(_ bytes: UInt64) -> String {
    bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
  }

  /// The reason as a lower-case fragment.
  public var message: String {
    switch reason {
    case .missingFile(let name): return "required file \(name) is missing"
    case .missingColumn(let column): return "required column \(column) is missing from the header"
    case .emptyFile: return "file is empty (not even a header)"
    case .invalidValue(let column, let value, let expected):
      return "\(column) '\(value)' is not \(expected)"
    case .missingValue(let column): return "\(column) is empty but required"
    case .invalidUTF8: return "text is not valid UTF-8"
    case .utf16: return "file is UTF-16; GTFS files must be UTF-8"
    case .nulByte: return "contains a NUL byte"
    case .unterminatedQuote: return "quoted field is never closed"
    case .recordTooLong(let bytes): return "record is longer than \(bytes) bytes"
    case .tooManyFields(let limit): return "record has more than \(limit) fields"
    case .feedTooLarge(let declared, let limit):
      return "the feed's files unzip to \(Self.mebibytes(declared)), more than the \(Self.mebibytes(limit)) allowed"
        + " (the feed-max-unzipped-mb setting)"
    case .duplicateKey(let column, let value): return "\(column) '\(value)' appears twice"
    case .duplicateStopSequence(let trip, let sequence):
      return "trip '\(trip)' has stop_sequence \(sequence) twice"
    case .noFeedRoot: return "no stops.txt found: not a GTFS feed"
    case .ambiguousFeedRoot(let folders):
      return "stops.txt found in more than one folder (\(folders.joined(separator: ", ")))"
    case .nestedArchive(let name):
      return "the archive holds another archive (\(name)) and no feed; unzip it and ingest the inner one"
    case .invalidJSON(let detail): return "not a stops.json list: \(detail)"
    case .emptyTable(let table): return "\(table) has no usable rows"
    case .tooManyDanglingReferences(let detail): return detail
    case .unreadable(let detail): return detail
    case .limitExceeded(let detail): return detail
    }
  }
}
