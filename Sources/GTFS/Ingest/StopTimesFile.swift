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

  func loadStopTimes() throws {
    let started = MonotonicClock.nanoseconds()
    defer {
      // What is not spent on patterns and trip times is reading: the CSV and its fields.
      let total = Self.seconds(since: started)
      let patterns = Double(patternNanoseconds) / 1e9, tripTimes = Double(tripTimesNanoseconds) / 1e9
      summary.steps += [("csv parse", total - patterns - tripTimes), ("patterns", patterns), ("trip times", tripTimes)]
    }
    let file = StopTimeColumn.file
    guard let reader = try open(file) else { throw GTFSError(file: file, .missingFile(file)) }
    let r = try GTFSRows<StopTimeColumn>(reader)
    var pending: [PendingStopTime] = []
    var currentTrip: Int64 = 0
    var currentTripBytes: [UInt8] = []
    var flushed = [Bool](repeating: false, count: tripIDs.count + 1)
    var revisited = 0
    var unknownTrips = 0, unknownStops = 0, noStop = 0, stored = 0
    // Locals: a class property costs an exclusivity check on every row.
    let trips = self.trips, stops = self.stops
    // The stop ids of the previous trip and of this one so far, by position: consecutive trips
    // mostly share their stops, so comparing a few bytes spares making and hashing a String
    // for most rows.
    var previousStopBytes: [UInt8] = [], previousStopEnds: [Int] = [], previousStops: [Int64] = []
    var currentStopBytes: [UInt8] = [], currentStopEnds: [Int] = [], currentStops: [Int64] = []

    while try r.next() {
      tick(reader)
      // The trip: rows come trip by trip, so compare bytes before hashing a String.
      let tripBytes = r.bytes(.tripID)
      if !FieldParsing.equal(tripBytes, currentTripBytes) {
        if currentTrip != 0 && !pending.isEmpty {
          if flushed[Int(currentTrip)] { revisited += 1 }
          stored += try storeTrip(currentTrip, &pending, revisited: flushed[Int(currentTrip)])
          flushed[Int(currentTrip)] = true
        }
        currentTripBytes.removeAll(keepingCapacity: true)
        currentTripBytes.append(contentsOf: tripBytes)
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
        if unknownTrips <= 3 { warn(reader, "trip_id '\(r.string(.tripID))' is not in trips.txt; row left out") }
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
          if unknownStops <= 3 { warn(reader, "stop_id '\(r.string(.stopID))' is not in stops.txt; row left out") }
          continue
        }
        stop = found
      }
      currentStopBytes.append(contentsOf: stopBytes)
      currentStopEnds.append(currentStopBytes.count)
      currentStops.append(stop)
      let sequence = try r.requiredInt(.stopSequence)
      var arrival = try r.time(.arrivalTime)
      var departure = try r.time(.departureTime)
      if arrival == nil { arrival = departure }
      if departure == nil { departure = arrival }
      let headsign = r.bytes(.headsign)
      pending.append(
        PendingStopTime(
          sequence: Int64(sequence), stop: stop, arrival: arrival, departure: departure,
          headsign: headsign.isEmpty ? nil : headsignNumber(FieldParsing.text(headsign)),
          pickup: Int64(try r.int(.pickupType) ?? 0), dropOff: Int64(try r.int(.dropOffType) ?? 0),
          timepoint: try r.int(.timepoint).map(Int64.init), distance: try r.number(.distance), line: reader.line))
    }
    if currentTrip != 0 && !pending.isEmpty {
      if flushed[Int(currentTrip)] { revisited += 1 }
      stored += try storeTrip(currentTrip, &pending, revisited: flushed[Int(currentTrip)])
    }
    try storePatternSpans()
    summary.warnings += r.outOfRangeWarnings
    finish(reader)
    if revisited > 0 {
      summary.warnings.append("stop_times.txt: \(revisited) trips have their rows split across the file; merged")
    }
    if summary.backwardsTrips.count > 0 {
      summary.warnings.append(
        "stop_times.txt:\(summary.backwardsTrips.firstLine): \(summary.backwardsTrips.count) trips have times that run backwards; left out")
    }
    if unknownTrips > 0 { summary.warnings.append("stop_times.txt: \(unknownTrips) rows name trips that trips.txt lacks; left out") }
    if unknownStops > 0 { summary.warnings.append("stop_times.txt: \(unknownStops) rows name stops that stops.txt lacks; left out") }
    if noStop > 0 { summary.warnings.append("stop_times.txt: \(noStop) rows name no stop_id (GTFS-Flex locations); left out") }
    if stored == 0 && noStop == 0 {
      throw GTFSError(file: file, .emptyTable("stop_times.txt (\(unknownTrips) rows name unknown trips, \(unknownStops) unknown stops)"))
    }
    summary.rows.append((file, stored))
  }
}
