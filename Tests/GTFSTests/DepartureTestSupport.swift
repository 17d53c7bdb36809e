import Foundation
import Testing
import TransitModel

@testable import GTFS

/// The demo network (Data/gtfs) ingested once per test process; each test opens its own Store.
private let demoIngest = Result { () throws -> String in
  var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
    url.deleteLastPathComponent()
  }
  let folder = NSTemporaryDirectory() + "transit-demo-" + UUID().uuidString
  let timetables = Timetables(directory: folder)
  let (name, _) = try timetables.ingest(url.path + "/Data/gtfs", as: "demo", now: 1)
  return try timetables.path(of: name)
}

/// The demo network (Data/gtfs) ingested once per test process; if that failed, every test asking
/// for it fails with the ingest's error (and the rest of the run goes on).
func demoTimetable() throws -> String { try demoIngest.get() }

func demoStore() throws -> Store { try Store(files: [("demo", demoTimetable())]) }

/// The instant of a wall-clock time in `zone`, computed with Foundation's Calendar (not with
/// the code under test). `text` is "2026-12-01 07:30" (seconds optional).
func wallClock(_ text: String, _ zone: String = "Europe/Dublin") -> UnixTime {
  let parts = text.split { $0 == "-" || $0 == " " || $0 == ":" }.map { Int($0)! }
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: zone)!
  let components = DateComponents(
    year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts.count > 5 ? parts[5] : 0)
  return UnixTime(Int64(calendar.date(from: components)!.timeIntervalSince1970))
}

/// A departure reduced to what the expectations name.
struct Seen: Equatable, CustomStringConvertible {
  var trip: String
  var stop: String
  var serviceDate: Int
  var time: UnixTime
  var description: String { "\(trip)@\(stop) \(serviceDate) \(time)" }
}

extension ScheduledCall {
  var seen: Seen { Seen(trip: tripID.rawValue, stop: stopID.rawValue, serviceDate: serviceDate.yyyymmdd, time: scheduledTime!) }
}

extension Store {
  /// Departures at the stop with id `id` from `start` for `minutes`.
  func departures(
    _ id: String, from start: UnixTime, minutes: Int, feed: String = "demo", arrivals: Bool = false, route: String? = nil,
    to: String? = nil, limit: Int? = nil
  ) throws -> [ScheduledCall] {
    let stop = try #require(try self.stop(StopID(id), feed: FeedName(feed)))
    return try departures(
      at: stop,
      DepartureQuery(
        from: start, until: start + Int64(minutes * 60), limit: limit, includeArrivals: arrivals, route: route, destination: to))
  }
}
