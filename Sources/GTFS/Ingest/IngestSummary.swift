/// What an ingest loaded, and what it had to leave out.
public struct IngestSummary: Sendable, Equatable {
  /// Rows stored per GTFS file, in load order (`stop_times.txt`: 3498).
  public var rows: [(file: String, count: Int)] = []
  /// Problems that did not stop the load, each a one-line message with file and line.
  public var warnings: [String] = []
  /// Stop times with empty times filled in between timed stops.
  public var interpolatedStopTimes = 0
  /// Trips left out because their times run backwards, and the first line of the first one.
  public var backwardsTrips: (count: Int, firstLine: Int) = (0, 0)
  /// Seconds the load took.
  public var seconds: Double = 0
  /// Seconds per step of the load, in order: "stops", "csv parse" (stop_times.txt read and its
  /// fields converted), "patterns", "trip times", "shapes", "footpaths", "indexes",
  /// "validation", … (not part of equality: timings vary from run to run).
  public var steps: [(step: String, seconds: Double)] = []
  /// The swap gate's checks against the timetable replaced (none for a first load).
  public var checks: [SwapCheck] = []

  public init() {}

  /// Rows stored from `file`, 0 when the feed had none.
  public func count(_ file: String) -> Int { rows.first { $0.file == file }?.count ?? 0 }

  public static func == (lhs: IngestSummary, rhs: IngestSummary) -> Bool {
    lhs.rows.elementsEqual(rhs.rows, by: { $0 == $1 }) && lhs.warnings == rhs.warnings
      && lhs.interpolatedStopTimes == rhs.interpolatedStopTimes
  }
}

/// Progress of a running ingest, for a progress bar.
public struct IngestProgress: Sendable {
  /// The file being read.
  public var file: String
  /// Stored (compressed) bytes read so far over the whole feed, and the total.
  public var bytesDone: UInt64
  public var bytesTotal: UInt64
  /// Rows read from the current file.
  public var rows: Int
  /// Whether the load is building indexes (no byte progress then).
  public var isIndexing: Bool
}
