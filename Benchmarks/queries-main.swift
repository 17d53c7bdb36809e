// The in-process driver of Benchmarks/queries: opens one timetable through `GTFS.Store` and
// times `departures` at given stops and `stops near` at random points, as the CLI asks them.
//
//   queries-bench TIMETABLE.sqlite STOPS.txt NOW_UNIX[,NOW_UNIX...] [REPEATS]
//
// STOPS.txt holds one stop_id per line (the busiest stops, chosen by the script). Prints one
// line per measurement set: "name count p50_ms p95_ms max_ms cold_p50_ms".
import Foundation
import GTFS
import TransitModel

@main
enum QueriesBenchmark {
  static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
  }

  static func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p * Double(sorted.count - 1)).rounded())
    return sorted[rank]
  }

  static func report(_ name: String, _ warm: [Double], cold: [Double]) {
    let line = [
      name, "\(warm.count)", String(format: "%.3f", percentile(warm, 0.5)), String(format: "%.3f", percentile(warm, 0.95)),
      String(format: "%.3f", warm.max() ?? .nan), String(format: "%.3f", percentile(cold, 0.5)),
    ]
    print(line.joined(separator: " "))
  }

  static func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 4 else {
      FileHandle.standardError.write(Data("usage: queries-bench TIMETABLE STOPS.txt NOW[,NOW...] [REPEATS]\n".utf8))
      exit(2)
    }
    let stopIDs = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").map(String.init)
    let moments = arguments[3].split(separator: ",").compactMap { Int64($0) }.map(UnixTime.init)
    let repeats = arguments.count > 4 ? Int(arguments[4]) ?? 5 : 5

    // Cold: a fresh Store per query, as one `transit departures` process has.
    var cold: [Double] = []
    for id in stopIDs.prefix(10) {
      cold.append(try milliseconds {
        let store = try Store(files: [("bench", arguments[1])])
        guard case .found(let stop) = try store.resolveStop(id) else { fatalError("no stop \(id)") }
        _ = try store.departures(at: stop, DepartureQuery(from: moments[0], until: moments[0] + 7200, limit: 10))
      })
    }

    let store = try Store(files: [("bench", arguments[1])])
    var warm: [Double] = []
    var found = 0
    for _ in 0..<repeats {
      for now in moments {
        for id in stopIDs {
          warm.append(try milliseconds {
            guard case .found(let stop) = try store.resolveStop(id) else { fatalError("no stop \(id)") }
            found += try store.departures(at: stop, DepartureQuery(from: now, until: now + 7200, limit: 10)).count
          })
        }
      }
    }
    report("departures", warm, cold: cold)
    FileHandle.standardError.write(Data("departures: \(found) listed in \(warm.count) queries\n".utf8))

    // stops near: 100 random points in the network's box (fixed seed), the nearest 10.
    var state: UInt64 = 42
    func unit() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    let centre = try store.networkCentre()!
    let points = (0..<100).map { _ in
      Coordinate(latitude: centre.latitude + (unit() - 0.5) * 0.4, longitude: centre.longitude + (unit() - 0.5) * 0.4)
    }
    var near: [Double] = []
    var nearCold: [Double] = []
    var listed = 0
    for (index, point) in points.enumerated() {
      let time = try milliseconds { listed += try store.nearby(point, limit: 10).count }
      if index < 3 { nearCold.append(time) }
    }
    for _ in 0..<repeats {
      for point in points { near.append(try milliseconds { listed += try store.nearby(point, limit: 10).count }) }
    }
    report("stops-near", near, cold: nearCold)
    FileHandle.standardError.write(Data("stops near: \(listed) listed\n".utf8))
  }
}
