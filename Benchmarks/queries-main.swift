// The in-process driver of Benchmarks/queries: opens timetables through `GTFS.Store` (one, or
// many held at once) and times `departures` at given stops, `stops near` at given points and
// `stops search` for given texts, as the CLI asks them.
//
//   queries-bench TIMETABLE.sqlite[,TIMETABLE.sqlite...] STOPS.txt NOW_UNIX[,NOW_UNIX...] REPEATS
//                 POINTS.txt SEARCHES.txt
//
// STOPS.txt holds one stop_id per line (the busiest stops, chosen by the script), POINTS.txt
// one "lat,lon" per line, SEARCHES.txt one search text per line. Each timetable is opened under
// its file name without ".sqlite". Prints one line per measurement set:
// "name count p50_ms p95_ms max_ms cold_p50_ms cpu_p50_ms cpu_p95_ms": wall time, and the
// thread's CPU time (what a query costs whatever the machine's load).
import Foundation
import GTFS
import TransitModel

@main
enum QueriesBenchmark {
  /// The CPU time of each query measured, in ms, beside the wall time `milliseconds` returns.
  nonisolated(unsafe) static var cpu: [Double] = []

  static func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let startCPU = threadCPUNanoseconds()
    try body()
    cpu.append(Double(threadCPUNanoseconds() - startCPU) / 1e6)
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
  }

  static func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p * Double(sorted.count - 1)).rounded())
    return sorted[rank]
  }

  /// Prints one line; `cpuTimes` are the CPU times of the warm queries.
  static func report(_ name: String, _ warm: [Double], cold: [Double], cpuTimes: [Double]) {
    let line = [
      name, "\(warm.count)", String(format: "%.3f", percentile(warm, 0.5)), String(format: "%.3f", percentile(warm, 0.95)),
      String(format: "%.3f", warm.max() ?? .nan), String(format: "%.3f", percentile(cold, 0.5)),
      String(format: "%.3f", percentile(cpuTimes, 0.5)), String(format: "%.3f", percentile(cpuTimes, 0.95)),
    ]
    print(line.joined(separator: " "))
  }

  static func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 7 else {
      FileHandle.standardError.write(
        Data("usage: queries-bench TIMETABLE[,TIMETABLE...] STOPS.txt NOW[,NOW...] REPEATS POINTS.txt SEARCHES.txt\n".utf8))
      exit(2)
    }
    func lines(_ path: String) throws -> [String] {
      try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }
    let files = arguments[1].split(separator: ",").map { path in
      (name: String(((String(path) as NSString).lastPathComponent as NSString).deletingPathExtension), path: String(path))
    }
    let stopIDs = try lines(arguments[2])
    let moments = arguments[3].split(separator: ",").compactMap { Int64($0) }.map { UnixTime($0) }
    let repeats = Int(arguments[4]) ?? 5
    let points = try lines(arguments[5]).map { line in
      let parts = line.split(separator: ",").compactMap { Double($0) }
      return Coordinate(latitude: parts[0], longitude: parts[1])
    }
    let searches = try lines(arguments[6])

    // Cold: a fresh Store per query, as one `transit departures` process has.
    var cold: [Double] = []
    for id in stopIDs.prefix(10) {
      cold.append(
        try milliseconds {
          let store = try Store(files: files)
          guard case .found(let stop) = try store.resolveStop(id) else { fatalError("no stop \(id)") }
          _ = try store.departures(at: stop, DepartureQuery(from: moments[0], until: moments[0] + 7200, limit: 10))
        })
    }

    let store = try Store(files: files)
    cpu = []
    var warm: [Double] = []
    var found = 0
    for _ in 0..<repeats {
      for now in moments {
        for id in stopIDs {
          warm.append(
            try milliseconds {
              guard case .found(let stop) = try store.resolveStop(id) else { fatalError("no stop \(id)") }
              found += try store.departures(at: stop, DepartureQuery(from: now, until: now + 7200, limit: 10)).count
            })
        }
      }
    }
    report("departures", warm, cold: cold, cpuTimes: cpu)
    FileHandle.standardError.write(Data("departures: \(found) listed in \(warm.count) queries\n".utf8))

    // stops near: the given points, the nearest 10 with their routes.
    var near: [Double] = []
    var nearCold: [Double] = []
    var listed = 0
    for (index, point) in points.enumerated() {
      let time = try milliseconds { listed += try store.nearby(point, limit: 10).count }
      if index < 3 { nearCold.append(time) }
    }
    cpu = []
    for _ in 0..<repeats {
      for point in points { near.append(try milliseconds { listed += try store.nearby(point, limit: 10).count }) }
    }
    report("stops-near", near, cold: nearCold, cpuTimes: cpu)
    FileHandle.standardError.write(Data("stops near: \(listed) listed\n".utf8))

    // stops search: each text, without a location and near the first point (nearest first).
    var search: [Double] = []
    var searchCold: [Double] = []
    var matched = 0
    for (index, text) in searches.enumerated() {
      let time = try milliseconds { matched += try store.search(text, limit: 10).count }
      if index < 3 { searchCold.append(time) }
    }
    cpu = []
    for _ in 0..<repeats {
      for (index, text) in searches.enumerated() {
        let near = index % 2 == 0 ? nil : points[index % points.count]
        search.append(try milliseconds { matched += try store.search(text, near: near, limit: 10).count })
      }
    }
    report("stops-search", search, cold: searchCold, cpuTimes: cpu)
    FileHandle.standardError.write(Data("stops search: \(matched) matches\n".utf8))
  }
}
