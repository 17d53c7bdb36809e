import FoundationEssentials
import Glibc
import HostSystem
import SQLite
import TransitModel

/// stop_times.txt: when each trip calls at each stop. The largest file by far (15 M rows in a
/// country's feed): read in one loop with no lookup by name per row.
enum StopTimeColumn: Int, GTFSColumns {
  // In the order a header lacking several is reported in.
  case tripID, stopSequence, stopID, arrivalTime, departureTime, headsign, pickupType, dropOffType, timepoint, distance

  static let file = "stop_times.txt"

  var spec: ColumnSpec {
    switch self {
    case .tripID: ColumnSpec("trip_id", .required, references: "trips.txt trip_id")
    case .stopSequence: ColumnSpec("stop_sequence", .required, .integer(0...Int(Int32.max)))
    // GTFS-Flex rows name a location or a location group instead.
    case .stopID: ColumnSpec("stop_id", .requiredUnless(["location_id", "location_group_id"]), references: "stops.txt stop_id")
    // Conditionally required per row (timepoints), but without the columns every trip would load
    // with no times at all. GTFS-Flex files give pickup windows instead.
    case .arrivalTime: ColumnSpec("arrival_time", .requiredUnless(["start_pickup_drop_off_window"]), .time)
    case .departureTime: ColumnSpec("departure_time", .requiredUnless(["start_pickup_drop_off_window"]), .time)
    case .headsign: ColumnSpec("stop_headsign")
    case .pickupType: ColumnSpec("pickup_type", .optional, .enumeration(0...3, expected: "0, 1, 2 or 3"))
    case .dropOffType: ColumnSpec("drop_off_type", .optional, .enumeration(0...3, expected: "0, 1, 2 or 3"))
    case .timepoint: ColumnSpec("timepoint", .optional, .enumeration(0...1, expected: "0 or 1"))
    case .distance: ColumnSpec("shape_dist_traveled", .optional, .number())
    }
  }
}

extension FeedImporter {
  /// One stop_times row held while its trip is read (a trip's rows are needed together to fill
  /// in untimed stops and to find a repeated stop_sequence with its line).
  struct PendingStopTime {
    var sequence: Int64
    var stop: Int64
    var arrival: Int32?
    var departure: Int32?
    /// The stop_times headsign's number (`headsignNumber`), nil for none: the row holds no
    /// reference, so arrays of rows are copied and sorted as plain bytes.
    var headsign: UInt32?
    var pickup: Int64
    var dropOff: Int64
    var timepoint: Int64?
    var distance: Double?
    var line: Int
    var isInterpolated = false
  }

  /// Reads stop_times.txt trip by trip and stores each trip (`storeTrip`). With `threads` above
  /// 1, a thread of its own reads and parses (`StopTimesParser`) while this one stores, through
  /// a queue of at most `pipelineBatches` batches (back-pressure: the reader waits when the
  /// writer is that far behind, so memory stays bounded whatever the file's size); otherwise
  /// both on this thread, one after the other. The rows stored, their order, the warnings and
  /// the first error (its message and line) are the same either way: the reader hands over
  /// whole trips in file order, and a parse error after the trips read before it.
  func loadStopTimes() throws {
    let started = MonotonicClock.nanoseconds()
    var parseSeconds: Double?
    defer {
      // What is not spent on patterns and trip times is reading: the CSV and its fields. In the
      // pipeline, the reader's own busy time (beside the writer's, not before it).
      let total = Self.seconds(since: started)
      let patterns = Double(patternNanoseconds) / 1e9, tripTimes = Double(tripTimesNanoseconds) / 1e9
      summary.steps += [("csv parse", parseSeconds ?? (total - patterns - tripTimes)), ("patterns", patterns), ("trip times", tripTimes)]
      if parseSeconds != nil { summary.steps.append(("stop_times (overlapped)", total)) }
    }
    let file = StopTimeColumn.file
    guard let reader = try open(file) else { throw GTFSError(file: file, .missingFile(file)) }
    let parser = StopTimesParser(
      rows: try GTFSRows<StopTimeColumn>(reader), trips: trips, stops: stops,
      warningRoom: max(0, 200 - summary.warnings.count))
    var flushed = [Bool](repeating: false, count: tripIDs.count + 1)
    var revisited = 0, stored = 0
    func store(_ trip: Int64, _ rows: inout [PendingStopTime]) throws {
      if flushed[Int(trip)] { revisited += 1 }
      stored += try storeTrip(trip, &rows, revisited: flushed[Int(trip)])
      flushed[Int(trip)] = true
    }
    if threads > 1 {
      parseSeconds = try pipeline(parser, store: store)
    } else {
      var pending: [PendingStopTime] = []
      try parser.parse(into: &pending, tick: { self.tick(reader) }) { trip, rows, start, headsigns in
        precondition(start == 0, "each trip's rows are taken")
        self.takeHeadsigns(&headsigns)
        try store(trip, &rows)  // empties rows
      }
    }
    summary.warnings += parser.warnings
    try storePatternSpans()
    summary.warnings += parser.rows.outOfRangeWarnings
    finish(reader)
    if revisited > 0 {
      summary.warnings.append("stop_times.txt: \(revisited) trips have their rows split across the file; merged")
    }
    if summary.backwardsTrips.count > 0 {
      summary.warnings.append(
        "stop_times.txt:\(summary.backwardsTrips.firstLine): \(summary.backwardsTrips.count) trips have times that run backwards; left out")
    }
    let unknownTrips = parser.unknownTrips, unknownStops = parser.unknownStops, noStop = parser.noStop
    if unknownTrips > 0 { summary.warnings.append("stop_times.txt: \(unknownTrips) rows name trips that trips.txt lacks; left out") }
    if unknownStops > 0 { summary.warnings.append("stop_times.txt: \(unknownStops) rows name stops that stops.txt lacks; left out") }
    if noStop > 0 { summary.warnings.append("stop_times.txt: \(noStop) rows name no stop_id (GTFS-Flex locations); left out") }
    if stored == 0 && noStop == 0 {
      throw GTFSError(file: file, .emptyTable("stop_times.txt (\(unknownTrips) rows name unknown trips, \(unknownStops) unknown stops)"))
    }
    summary.rows.append((file, stored))
  }

  /// Rows of whole trips a batch holds before it is handed over (about 400 kB of rows; a
  /// handover costs microseconds, 3,700 of them for 15 M rows).
  static let pipelineBatchRows = 4_096
  /// Batches the queue holds at most: with the one being filled and the one being stored, at
  /// most four batches (under 2 MB) are alive at once.
  static let pipelineBatches = 2

  /// Whole trips read by the parser thread, in file order, with the headsigns first met in them
  /// and, last, the error that stopped the reading, if any.
  struct StopTimeBatch: Sendable {
    /// The trips' rows, trip after trip (one array, so that a batch is one allocation).
    var rows: [PendingStopTime] = []
    /// Each trip and where its rows end in `rows`.
    var trips: [(trip: Int64, end: Int)] = []
    var headsigns: [String] = []
    var records = 0
    var storedBytes: UInt64 = 0
    var failure: GTFSError?
    /// The parser's busy seconds (reading and parsing, not waiting for the queue), on the last batch.
    var parseSeconds: Double?
  }

  /// The parser, handed to its thread; read again only once that thread has ended.
  private final class HandedOver: @unchecked Sendable {
    let parser: StopTimesParser
    let storedBytes: () -> UInt64
    init(_ parser: StopTimesParser, storedBytes: @escaping () -> UInt64) {
      self.parser = parser
      self.storedBytes = storedBytes
    }
  }

  /// The writer's side of the pipeline: stores the batches' trips as they come, reports
  /// progress, and throws the parser's error after the trips read before it. On any error the
  /// parser is told to stop and has ended when this throws (`handingOff` joins it). Returns the
  /// parser's busy seconds.
  private func pipeline(_ parser: StopTimesParser, store: (Int64, inout [PendingStopTime]) throws -> Void) throws -> Double {
    let handed = HandedOver(parser, storedBytes: currentStoredBytes)
    var parseSeconds = 0.0
    var lastReported = 0
    try handingOff(capacity: Self.pipelineBatches) { (_, put: (StopTimeBatch) -> Bool) in
      let parser = handed.parser
      var busy: UInt64 = 0
      var resumed = MonotonicClock.nanoseconds()
      var batch = StopTimeBatch()
      var pending: [PendingStopTime] = []
      pending.reserveCapacity(Self.pipelineBatchRows + 256)
      /// Hands the batch over with `rows`, the rows of its trips (the wait for room not counted
      /// as busy); false once the writer stopped.
      func handOver(_ rows: inout [PendingStopTime], last: Bool) -> Bool {
        swap(&batch.rows, &rows)
        rows.reserveCapacity(Self.pipelineBatchRows + 256)
        batch.records = parser.rows.reader.recordCount
        batch.storedBytes = handed.storedBytes()
        let now = MonotonicClock.nanoseconds()
        busy += now - resumed
        if last { batch.parseSeconds = Double(busy) / 1e9 }
        let taken = put(batch)
        batch = StopTimeBatch()
        resumed = MonotonicClock.nanoseconds()
        return taken
      }
      struct Stopped: Error {}
      do {
        try parser.parse(into: &pending, tick: nil) { trip, rows, _, headsigns in
          batch.headsigns += headsigns
          headsigns.removeAll(keepingCapacity: true)
          batch.trips.append((trip, rows.count))  // the rows stay where they are, in the batch's
          if rows.count >= Self.pipelineBatchRows, !handOver(&rows, last: false) { throw Stopped() }
        }
      } catch let error as GTFSError {
        batch.failure = error  // (rows after the last trip's end, if any, are the failed trip's)
      } catch {
        return  // the writer stopped
      }
      _ = handOver(&pending, last: true)
    } consume: { next in
      var rows: [PendingStopTime] = []
      while var batch = next() {
        takeHeadsigns(&batch.headsigns)
        var start = 0
        for (trip, end) in batch.trips {
          rows.removeAll(keepingCapacity: true)
          rows += batch.rows[start..<end]
          start = end
          try store(trip, &rows)
        }
        if let progress, batch.records - lastReported >= 0x10000 || batch.parseSeconds != nil {
          lastReported = batch.records
          progress(
            IngestProgress(
              file: parser.rows.file, bytesDone: bytesDone + batch.storedBytes, bytesTotal: bytesTotal, rows: batch.records,
              isIndexing: false))
        }
        if let failure = batch.failure { throw failure }
        if let seconds = batch.parseSeconds { parseSeconds = seconds }
      }
    }
    return parseSeconds
  }

  /// Takes the headsigns the parser numbered since the last call (in number order).
  func takeHeadsigns(_ headsigns: inout [String]) {
    for headsign in headsigns {
      headsignTexts.append(headsign)
      stopHeadsigns[headsign] = UInt32(headsignTexts.count)
    }
    headsigns.removeAll(keepingCapacity: true)
  }
}

/// Reads stop_times.txt row by row into whole trips: finds each row's trip and stop (by
/// comparing bytes with the previous trip's stops before hashing a String), parses its times
/// and values, and numbers its headsign. Touches no database and nothing of the importer's, so
/// it may run on a thread of its own (`FeedImporter.pipeline`).
final class StopTimesParser {
  let rows: GTFSRows<StopTimeColumn>
  private let trips: [String: Int64]
  private let stops: [String: Int64]
  /// Warnings about rows left out, at most `warningRoom` (the summary's cap).
  private(set) var warnings: [String] = []
  private let warningRoom: Int
  private(set) var unknownTrips = 0, unknownStops = 0, noStop = 0
  /// The stop_times headsigns numbered so far (by number from 1).
  private var headsignNumbers: [String: UInt32] = [:]

  init(rows: GTFSRows<StopTimeColumn>, trips: [String: Int64], stops: [String: Int64], warningRoom: Int) {
    self.rows = rows
    self.trips = trips
    self.stops = stops
    self.warningRoom = warningRoom
  }

  private func warn(_ message: String) {
    if warnings.count < warningRoom { warnings.append("\(rows.file):\(rows.line): \(message)") }
  }

  /// Reads to the end, appending each row to `pending` and calling `emit` as soon as a trip's
  /// last row is read (its next row names another trip, or the file ends): the trip's rows are
  /// `rows[start...]`, and `emit` may leave them there (with the trips before them, the
  /// pipeline's batch: no copy) or take them (emptying `rows`); it is given the headsigns
  /// numbered since the last call, and empties that list. `tick` runs every 65,536 records.
  /// - Throws: a `GTFSError` naming the line of the first row that cannot be read, after the
  ///   trips before it were given to `emit` (`pending` then ends with that trip's rows so far);
  ///   what `emit` throws.
  func parse(
    into pending: inout [FeedImporter.PendingStopTime], tick: (() -> Void)?,
    emit: (_ trip: Int64, _ rows: inout [FeedImporter.PendingStopTime], _ start: Int, _ headsigns: inout [String]) throws -> Void
  ) throws {
    let r = rows, reader = rows.reader
    var tripStart = pending.count
    var newHeadsigns: [String] = []
    var currentTrip: Int64 = 0
    var currentTripBytes: [UInt8] = []
    var unknownTrips = 0, unknownStops = 0, noStop = 0
    defer {
      self.unknownTrips = unknownTrips
      self.unknownStops = unknownStops
      self.noStop = noStop
    }
    // Locals: a class property costs an exclusivity check on every row.
    let trips = self.trips, stops = self.stops
    var headsignNumbers = self.headsignNumbers
    defer { self.headsignNumbers = headsignNumbers }
    // The stop ids of the previous trip and of this one so far, by position: consecutive trips
    // mostly share their stops, so comparing a few bytes spares making and hashing a String
    // for most rows.
    var previousStopBytes: [UInt8] = [], previousStopEnds: [Int] = [], previousStops: [Int64] = []
    var currentStopBytes: [UInt8] = [], currentStopEnds: [Int] = [], currentStops: [Int64] = []

    /// shape_dist_traveled: a plain decimal read at once; anything else (and every error) as
    /// `GTFSRows.number` reads it.
    @inline(__always) func distance() throws(GTFSError) -> Double? {
      let bytes = r.bytes(.distance)
      if bytes.isEmpty { return nil }
      if let value = FieldParsing.double(bytes), value.isFinite { return value }
      return try r.number(.distance)
    }
    while try r.next() {
      if let tick, reader.recordCount & 0xFFFF == 0 { tick() }
      // The trip: rows come trip by trip, so compare bytes before hashing a String.
      let tripBytes = r.bytes(.tripID)
      if !FieldParsing.equal(tripBytes, currentTripBytes) {
        if currentTrip != 0 && pending.count > tripStart {
          try emit(currentTrip, &pending, tripStart, &newHeadsigns)
        }
        tripStart = pending.count
        currentTripBytes.removeAll(keepingCapacity: true)
        currentTripBytes.append(contentsOf: tripBytes.assumingMemoryBound(to: UInt8.self))
        if !currentStops.isEmpty {
          swap(&previousStopBytes, &currentStopBytes)
          swap(&previousStopEnds, &currentStopEnds)
          swap(&previousStops, &currentStops)
          currentStopBytes.removeAll(keepingCapacity: true)
          currentStopEnds.removeAll(keepingCapacity: true)
          currentStops.removeAll(keepingCapacity: true)
        }
        guard !tripBytes.isEmpty else { throw r.missing(.tripID) }
        currentTrip = trips[FieldParsing.text(tripBytes)] ?? 0
      }
      guard currentTrip != 0 else {
        unknownTrips += 1
        if unknownTrips <= 3 { warn("trip_id '\(r.string(.tripID))' is not in trips.txt; row left out") }
        continue
      }
      let stopBytes = r.bytes(.stopID)
      if stopBytes.isEmpty {
        noStop += 1  // GTFS-Flex rows name a location or location group instead
        continue
      }
      let position = currentStops.count
      let stop: Int64
      if position < previousStops.count,
        case let start = position == 0 ? 0 : previousStopEnds[position - 1],
        previousStopEnds[position] - start == stopBytes.count,
        previousStopBytes.withUnsafeBytes({ memcmp($0.baseAddress! + start, stopBytes.baseAddress!, stopBytes.count) == 0 })
      {
        stop = previousStops[position]
      } else {
        guard let found = stops[FieldParsing.text(stopBytes)] else {
          unknownStops += 1
          if unknownStops <= 3 { warn("stop_id '\(r.string(.stopID))' is not in stops.txt; row left out") }
          continue
        }
        stop = found
      }
      // As typed bytes (a contiguous copy), not as a raw buffer.
      currentStopBytes.append(contentsOf: stopBytes.assumingMemoryBound(to: UInt8.self))
      currentStopEnds.append(currentStopBytes.count)
      currentStops.append(stop)
      let sequence = try r.requiredInt(.stopSequence)
      var arrival = try r.time(.arrivalTime)
      var departure = try r.time(.departureTime)
      if arrival == nil { arrival = departure }
      if departure == nil { departure = arrival }
      let headsignBytes = r.bytes(.headsign)
      var headsign: UInt32?
      if !headsignBytes.isEmpty {
        let text = FieldParsing.text(headsignBytes)
        if let number = headsignNumbers[text] {
          headsign = number
        } else {
          let number = UInt32(headsignNumbers.count + 1)
          headsignNumbers[text] = number
          newHeadsigns.append(text)
          headsign = number
        }
      }
      pending.append(
        FeedImporter.PendingStopTime(
          sequence: Int64(sequence), stop: stop, arrival: arrival, departure: departure, headsign: headsign,
          pickup: Int64(try r.int(.pickupType) ?? 0), dropOff: Int64(try r.int(.dropOffType) ?? 0),
          timepoint: try r.int(.timepoint).map(Int64.init), distance: try distance(), line: reader.line))
    }
    if currentTrip != 0 && pending.count > tripStart {
      try emit(currentTrip, &pending, tripStart, &newHeadsigns)
    }
  }
}

@available(*, unavailable)
extension StopTimesParser: Sendable {}
