// libFuzzer target for the whole realtime path; built and run by Fuzz/run.
//
// The decoder-only fuzzer cannot see what a feed's values do downstream (a time of INT64_MIN
// trapped `departures`, a NaN speed trapped `vehicles`). Here each input is a selector byte and
// a FeedMessage: the message is decoded, its trip, stop and vehicle ids are mapped (by a hash of
// the id) onto the demo network's, most of its times are moved near the fixed `now` so that the
// merge uses them (the rest are kept as sent, out of range or not), and it is run through one of
// `departures`, `vehicles`, `follow --once`, `trip show`, `alerts` and `status`, in text or JSON,
// on the demo timetable (Data/gtfs), in process. No input may trap, or end in "internal error" (exit 70).

import GTFSRealtime
import TransitCLI

#if canImport(Glibc)
  import Glibc
#endif

/// The fixed world: the demo timetable ingested once into a temporary home.
enum World {
  static let now: Int64 = 1_796_110_800  // 2026-12-01T07:40:00Z
  static let root: String = {
    var path = #filePath
    for _ in 0..<2 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
  }()
  static let home: String = {
    let folder = "/tmp/transit-wholepath-\(getpid())"
    let context = CommandContext.capturing(environment: [:], currentDirectory: "/")
    let code = Transit.main(["ingest", root + "/Data/gtfs", "--feed", "demo", "--quiet", "--data-dir", folder], context: context)
    precondition(code == 0, "the demo timetable did not ingest: \(context.stderr.text)")
    // The home and the capture go when the fuzzer exits.
    atexit { _ = system("rm -rf /tmp/transit-wholepath-\(getpid())*") }
    return folder
  }()
  static let capture = "/tmp/transit-wholepath-\(getpid()).pb"

  /// The first column of a CSV file of the demo network, less the header.
  static func ids(_ file: String) -> [String] {
    guard let handle = fopen(root + "/Data/gtfs/" + file, "r") else { return [] }
    defer { fclose(handle) }
    var result: [String] = []
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    while getline(&line, &capacity, handle) > 0 {
      let text = String(cString: line!)
      result.append(String(text.prefix { $0 != "," && $0 != "\n" && $0 != "\r" }))
    }
    free(line)
    return Array(result.dropFirst())
  }
  static let trips: [String] = {
    // trips.txt: route_id,service_id,trip_id,...: the third column.
    guard let handle = fopen(root + "/Data/gtfs/trips.txt", "r") else { return [] }
    defer { fclose(handle) }
    var result: [String] = []
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    while getline(&line, &capacity, handle) > 0 {
      let columns = String(cString: line!).split(separator: ",", omittingEmptySubsequences: false)
      if columns.count > 2 { result.append(String(columns[2])) }
    }
    free(line)
    return Array(result.dropFirst())
  }()
  static let stops = ids("stops.txt")
  static let vehicles = ["V27-1", "V27-2", "V27-3", "V77X-1", "V-unknown"]
  static let routes = ids("routes.txt")
}

/// FNV-1a: a hash that is the same in every run (String's is seeded per process).
func stableHash(_ text: String) -> UInt64 {
  var hash: UInt64 = 0xCBF2_9CE4_8422_2325
  for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
  return hash
}

/// `id` mapped onto one of `known`, unless it starts with "~" (kept as sent: an unknown id).
func mapped(_ id: String?, _ known: [String]) -> String? {
  guard let id, !id.hasPrefix("~"), !known.isEmpty else { return id }
  return known[Int(stableHash(id) % UInt64(known.count))]
}

/// A time moved near `now` (within ±2 h) when its lowest bit is clear; kept as sent when set.
func near(_ time: Int64?) -> Int64? {
  guard let time, time & 1 == 0 else { return time }
  return World.now + (time >> 1) % 7200
}

func near(_ stamp: UInt64?) -> UInt64? {
  guard let stamp, stamp & 1 == 0 else { return stamp }
  return UInt64(World.now - Int64((stamp >> 1) % 600))
}

func mapped(_ descriptor: TripDescriptor?) -> TripDescriptor? {
  guard var descriptor else { return nil }
  descriptor.tripID = mapped(descriptor.tripID, World.trips)
  descriptor.routeID = mapped(descriptor.routeID, World.routes)
  return descriptor
}

/// The feed moved onto the demo network.
func grounded(_ feed: FeedMessage) -> FeedMessage {
  var feed = feed
  if feed.header != nil { feed.header!.timestamp = near(feed.header!.timestamp) }
  for index in feed.entities.indices {
    if var update = feed.entities[index].tripUpdate {
      update.trip = mapped(update.trip)
      update.timestamp = near(update.timestamp)
      if var vehicle = update.vehicle {
        vehicle.id = mapped(vehicle.id, World.vehicles)
        update.vehicle = vehicle
      }
      for stop in update.stopTimeUpdates.indices {
        update.stopTimeUpdates[stop].stopID = mapped(update.stopTimeUpdates[stop].stopID, World.stops)
        if let sequence = update.stopTimeUpdates[stop].stopSequence, sequence % 4 != 3 {
          update.stopTimeUpdates[stop].stopSequence = (sequence % 40 + 1) * 10
        }
        for side in [\TripUpdate.StopTimeUpdate.arrival, \TripUpdate.StopTimeUpdate.departure] {
          guard var event = update.stopTimeUpdates[stop][keyPath: side] else { continue }
          event.time = near(event.time)
          update.stopTimeUpdates[stop][keyPath: side] = event
        }
      }
      feed.entities[index].tripUpdate = update
    }
    if var alert = feed.entities[index].alert {
      for selector in alert.informedEntities.indices {
        alert.informedEntities[selector].routeID = mapped(alert.informedEntities[selector].routeID, World.routes)
        alert.informedEntities[selector].stopID = mapped(alert.informedEntities[selector].stopID, World.stops)
        alert.informedEntities[selector].trip = mapped(alert.informedEntities[selector].trip)
      }
      for period in alert.activePeriods.indices {
        alert.activePeriods[period].start = near(alert.activePeriods[period].start)
        alert.activePeriods[period].end = near(alert.activePeriods[period].end)
      }
      feed.entities[index].alert = alert
    }
    if var vehicle = feed.entities[index].vehicle {
      vehicle.trip = mapped(vehicle.trip)
      vehicle.timestamp = near(vehicle.timestamp)
      vehicle.stopID = mapped(vehicle.stopID, World.stops)
      if var descriptor = vehicle.vehicle {
        descriptor.id = mapped(descriptor.id, World.vehicles)
        vehicle.vehicle = descriptor
      }
      if var position = vehicle.position, let latitude = position.latitude, latitude.isFinite, latitude.bitPattern & 1 == 0 {
        // Somewhere round Tallaght, within about 5 km.
        position.latitude = 53.29 + latitude.truncatingRemainder(dividingBy: 0.05)
        position.longitude = -6.37 + (position.longitude ?? 0).truncatingRemainder(dividingBy: 0.05)
        vehicle.position = position
      }
      feed.entities[index].vehicle = vehicle
    }
  }
  return feed
}

let commands: [[String]] = [
  ["departures", "TINT"], ["departures", "TINT", "--json"], ["vehicles"], ["vehicles", "--json"],
  ["follow", "V27-3", "--once"], ["follow", "V27-3", "--once", "--json"], ["trip", "show", "V27-3"],
  ["trip", "show", "V27-3", "--json"], ["departures", "4530", "--line"], ["vehicles", "--near", "53.2875,-6.3664"],
  ["alerts", "--all"], ["alerts", "--all", "--json"], ["status", "27", "77X"],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWholePath(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 1 else { return 0 }
  let command = commands[Int(data[0]) % commands.count]
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  guard let feed = try? FeedMessage(decoding: bytes) else { return 0 }
  let encoded = grounded(feed).encoded()
  let home = World.home
  guard let file = fopen(World.capture, "w") else { return 0 }
  _ = encoded.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  fclose(file)
  let context = CommandContext.capturing(environment: [:], currentDirectory: "/")
  let code = Transit.main(
    command + ["--realtime", World.capture, "--now", "@\(World.now)", "--data-dir", home], context: context)
  precondition(code != 70, "internal error on \(command): \(context.stderr.text)")
  return 0
}
