import Foundation
import GTFSRealtime
import History
import TestSupport
import Testing

/// The 12 consecutive New York subway captures imported into the history: every actual inferred
/// lies within the captures' bounds, and the stops the trains passed between two captures,
/// worked out here from the captures alone, are the ones the history holds.
@Suite struct HistoryRealCaptureTests {
  static let names = SharedData.files(in: "rt", withExtension: "pb").filter {
    URL(fileURLWithPath: $0).lastPathComponent.hasPrefix("nyct-subway-20230529T18")
  }

  @Test(.enabled(if: SharedData.path("static/nyct-subway-multi-2023.zip") != nil && names.count == 12))
  func trainsPassingStopsBetweenCapturesGetActualsWithinTheirBounds() throws {
    let home = try RealHome("nyct-subway-multi-2023.zip", as: "nyct")
    let folder = TemporaryFolder()
    for path in Self.names {
      try FileManager.default.createSymbolicLink(
        atPath: folder.path + "/" + URL(fileURLWithPath: path).lastPathComponent, withDestinationPath: path)
    }
    let result = transit(["history", "import", folder.path, "--data-dir", home.path, "--now", "2023-05-29T19:00:00Z"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("imported 12 snapshots"))

    // The captures on their own: header time, and per train (trip_id + start_date) the stops
    // listed with their time (departure, else arrival).
    struct Capture {
      var time: Int64
      var trains: [String: [String: Int64]]
      /// Per train, where its vehicle says it is: the stop, whether STOPPED_AT, its timestamp.
      var vehicles: [String: (stopID: String, stopped: Bool, time: Int64)]
    }
    var captures: [Capture] = []
    for path in Self.names {
      let message = try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: path))))
      var trains: [String: [String: Int64]] = [:]
      var vehicles: [String: (stopID: String, stopped: Bool, time: Int64)] = [:]
      for entity in message.entities {
        if let vehicle = entity.vehicle, let id = vehicle.trip?.tripID, let stop = vehicle.stopID {
          vehicles[id + " " + (vehicle.trip?.startDate ?? "")] = (
            stop, vehicle.currentStatus == .stoppedAt, vehicle.timestamp.map { Int64($0) } ?? Int64(message.header?.timestamp ?? 0)
          )
        }
        guard let update = entity.tripUpdate, let id = update.trip?.tripID else { continue }
        var stops: [String: Int64] = [:]
        for stu in update.stopTimeUpdates {
          guard let stop = stu.stopID, let time = stu.departure?.time ?? stu.arrival?.time else { continue }
          stops[stop] = time
        }
        trains[id + " " + (update.trip?.startDate ?? "")] = stops
      }
      captures.append(Capture(time: Int64(try #require(message.header?.timestamp)), trains: trains, vehicles: vehicles))
    }
    captures.sort { $0.time < $1.time }
    let times = Set(captures.map(\.time))
    // Passed between two consecutive captures: listed by a train in the first and not by the
    // same train, still in the feed, in the second. Its actual: the first's time for it,
    // clamped to the two captures' times.
    struct Passed: Hashable {
      var stopID: String
      var low: Int64
      var high: Int64
      var actual: Int64
    }
    var passed = Set<Passed>()
    // Left, as its vehicle said: STOPPED_AT the stop in the first, elsewhere in the second.
    struct Left: Hashable {
      var stopID: String
      var actual: Int64
    }
    var left = Set<Left>()
    for (earlier, later) in zip(captures, captures.dropFirst()) {
      for (train, stops) in earlier.trains {
        guard let next = later.trains[train] else { continue }
        if let was = earlier.vehicles[train], was.stopped, let now = later.vehicles[train], now.stopID != was.stopID || !now.stopped {
          left.insert(Left(stopID: was.stopID, actual: was.time))
          continue
        }
        for (stop, time) in stops where next[stop] == nil {
          passed.insert(Passed(stopID: stop, low: earlier.time, high: later.time, actual: min(max(time, earlier.time), later.time)))
        }
      }
    }
    #expect(passed.count > 100)

    let history = try HistoryStore(directory: home.path)
    let events = try history.allEvents()
    let inferred = events.filter { $0.kind == .inferred }
    #expect(!inferred.isEmpty)
    for event in inferred {
      let low = try #require(event.actualLow)
      let high = try #require(event.actualHigh)
      let actual = try #require(event.actual)
      // Bounded by two capture times, the actual between them.
      #expect(times.contains(low) && times.contains(high) && low < high, "\(event.key) [\(low), \(high)]")
      #expect(low <= actual && actual <= high, "\(event.key): \(actual) outside [\(low), \(high)]")
    }
    // The history's inferred actuals hold what the captures alone say was passed.
    let held = Set(
      inferred.compactMap { event in
        event.actual.map { Passed(stopID: event.stopID, low: event.actualLow ?? 0, high: event.actualHigh ?? 0, actual: $0) }
      })
    let found = passed.intersection(held).count
    #expect(Double(found) >= 0.9 * Double(passed.count), "\(found) of \(passed.count) passed stops inferred in the history")
    // And the departures the vehicles reported are observed there, at their last report.
    let observed = Set(
      events.filter { $0.kind == .observed }.compactMap { event in event.actual.map { Left(stopID: event.stopID, actual: $0) } })
    #expect(left.count > 50)
    let seen = left.intersection(observed).count
    #expect(Double(seen) >= 0.9 * Double(left.count), "\(seen) of \(left.count) departures observed in the history")
  }

  /// A folder taken in over two runs (the first six captures, then all twelve) writes the stop
  /// events and predictions one run writes, row for row: the calls still open and the trains
  /// standing STOPPED_AT a stop when the first run ended are carried to the second, so a train
  /// that leaves a stop across the seam gets an observed actual, as it does in one run (42 of
  /// them were inferred instead before).
  @Test(.enabled(if: SharedData.path("static/nyct-subway-multi-2023.zip") != nil && names.count == 12))
  func anImportInTwoRunsWritesWhatOneRunWrites() throws {
    let sorted = Self.names.sorted()
    func link(_ paths: [String], into folder: TemporaryFolder) throws {
      for path in paths {
        try FileManager.default.createSymbolicLink(
          atPath: folder.path + "/" + URL(fileURLWithPath: path).lastPathComponent, withDestinationPath: path)
      }
    }
    let firstSix = TemporaryFolder()
    let all = TemporaryFolder()
    try link(Array(sorted.prefix(6)), into: firstSix)
    try link(sorted, into: all)
    let once = try RealHome("nyct-subway-multi-2023.zip", as: "nyct")
    let twice = try RealHome("nyct-subway-multi-2023.zip", as: "nyct")
    let now = ["--now", "2023-05-29T19:00:00Z"]
    #expect(transit(["history", "import", all.path, "--data-dir", once.path] + now).code == 0)
    #expect(transit(["history", "import", firstSix.path, "--data-dir", twice.path] + now).code == 0)
    let second = transit(["history", "import", all.path, "--data-dir", twice.path] + now)
    #expect(second.code == 0, "\(second.stderr)")
    #expect(second.stdout.hasPrefix("imported 6 snapshots"), "\(second.stdout)")

    let whole = try HistoryStore(directory: once.path)
    let split = try HistoryStore(directory: twice.path)
    let wholeEvents = try whole.allEvents()
    let splitEvents = try split.allEvents()
    #expect(wholeEvents.count == splitEvents.count)
    #expect(wholeEvents.filter { $0.kind == .observed }.count > 100)
    for (a, b) in zip(wholeEvents, splitEvents) where a != b {
      Issue.record(
        "\(a.key): one run \(a.kind.map { "\($0)" } ?? "open") \(a.actual ?? 0), two runs \(b.kind.map { "\($0)" } ?? "open") \(b.actual ?? 0)"
      )
    }
    #expect(try whole.predictions(of: wholeEvents.map(\.key)) == split.predictions(of: splitEvents.map(\.key)))
    // Ghost trips are not compared: a candidate needs 10 minutes of recording after it fell due,
    // and what was due is not carried from one run to the next (each half here is 6 minutes).
  }
}
