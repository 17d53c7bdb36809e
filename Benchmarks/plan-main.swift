// The in-process driver of Benchmarks/plan: opens one timetable through `GTFS.Store`, builds
// the router's network as `transit plan` does, and times journey searches between random
// stops (fixed seed).
//
//   plan-bench TIMETABLE.sqlite STOPS.txt NOW_UNIX[,NOW_UNIX...] QUERIES
//
// STOPS.txt holds one stop_id per line (stops some trip calls at), or "GROUP stop_id": then
// both ends of each pair come from one group (one network of a scaled feed), as a rider's
// journey stays within one region. Prints lines
// "name count p50_ms p95_ms max_ms" for: network loads (the 8 h window of each moment, three
// times each), searches (QUERIES random pairs; every fifth an --arrive-by search), and whole
// queries (load + search, as one `transit plan` process does, on 10 pairs); then
// "found N of M" and the network's size.
//
// Each search loads what `transit plan` loads: the parts of the network its two ends are in
// (`Store.routingScope`, read from the arrays ingest stored); "wholeload" is the whole
// network of each moment's window, built from the tables, for comparison.
import Foundation
import GTFS
import Routing
import Services
import TransitModel

@main
enum PlanBenchmark {
  struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// The thread's CPU time of each measurement, in ms, in order (beside the wall times).
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
    return sorted[Int((p * Double(sorted.count - 1)).rounded())]
  }

  /// Prints the wall times of `values`, then "cpu-NAME" with the CPU times of the same
  /// measurements (the last `values.count` of the first `upTo` CPU times recorded).
  static func report(_ name: String, _ values: [Double], cpuTimes: ArraySlice<Double>) {
    report(name, values)
    report("cpu-" + name, Array(cpuTimes))
  }

  static func report(_ name: String, _ values: [Double]) {
    print(
      [
        name, "\(values.count)", String(format: "%.3f", percentile(values, 0.5)), String(format: "%.3f", percentile(values, 0.95)),
        String(format: "%.3f", values.max() ?? .nan),
      ].joined(separator: " "))
  }

  static let horizon: Int64 = 8 * 3600

  /// The query `transit plan STOP STOP` makes: each stop's platforms and their footpaths.
  static func query(_ store: Store, _ network: RoutingNetwork, from: Stop, to: Stop) throws -> RoutingQuery {
    func ends(_ stop: Stop) throws -> [StopWalk] {
      var best: [Int32: Int32] = [:]
      for index in try store.routingStops(at: stop, in: network) {
        best[index] = 0
        for path in network.timetable.footpaths[Int(index)] where (best[path.to] ?? .max) > path.seconds { best[path.to] = path.seconds }
      }
      return best.map { StopWalk(stop: $0.key, seconds: $0.value) }
    }
    return RoutingQuery(access: try ends(from), egress: try ends(to), maxRides: 4)
  }

  static func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 5 else {
      FileHandle.standardError.write(Data("usage: plan-bench TIMETABLE STOPS.txt NOW[,NOW...] QUERIES\n".utf8))
      exit(2)
    }
    // Groups of stop ids, in file order.
    var groupIDs: [[String]] = []
    var groupIndex: [String: Int] = [:]
    for line in try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
      let group = fields.count == 2 ? fields[0] : ""
      if groupIndex[group] == nil {
        groupIndex[group] = groupIDs.count
        groupIDs.append([])
      }
      groupIDs[groupIndex[group]!].append(fields.last!)
    }
    let moments = arguments[3].split(separator: ",").compactMap { Int64($0) }.map { UnixTime($0) }
    let count = Int(arguments[4]) ?? 100
    let store = try Store(files: [("bench", arguments[1])])
    let feed = FeedName("bench")
    let groups = try groupIDs.map { ids in try ids.compactMap { try store.stop(StopID($0), feed: feed) } }.filter { $0.count >= 2 }
    guard !groups.isEmpty, !moments.isEmpty else { fatalError("need two stops and a moment") }
    /// Two different stops of one group, the group at random.
    func pair(_ random: inout SplitMix64) -> (Stop, Stop) {
      let stops = groups[Int.random(in: 0..<groups.count, using: &random)]
      let a = stops[Int.random(in: 0..<stops.count, using: &random)]
      var b = stops[Int.random(in: 0..<stops.count, using: &random)]
      if a.id == b.id { b = stops[(stops.firstIndex(of: a)! + 1) % stops.count] }
      return (a, b)
    }

    /// What `transit plan A B` loads: the parts of the network its two ends are in.
    func scope(_ a: Stop, _ b: Stop) throws -> RoutingScope { try store.routingScope(stops: [a, b], points: []) }

    // The whole network (every part), each moment's window once: what a search would load
    // without the stored index.
    var wholeLoads: [Double] = []
    var wholeNetwork: RoutingNetwork?
    for moment in moments {
      var network: RoutingNetwork?
      wholeLoads.append(try milliseconds { network = try store.routingNetwork(from: moment, until: moment + horizon) })
      if wholeNetwork == nil { wholeNetwork = network }
    }

    // Per pair, as one `transit plan` process does: load the parts its ends are in (timed as
    // a load), then search (timed as a search).
    var random = SplitMix64(state: 20_121_010)
    var loads: [Double] = []
    var searches: [Double] = []
    var found = 0
    var scopedNetwork: RoutingNetwork?
    for index in 0..<count {
      let (a, b) = pair(&random)
      let slot = index % moments.count
      let moment = moments[slot]
      var network: RoutingNetwork!
      loads.append(try milliseconds { network = try store.routingNetwork(from: moment, until: moment + horizon, scope: try scope(a, b)) })
      if scopedNetwork == nil { scopedNetwork = network }
      var journeys: [Journey] = []
      searches.append(
        try milliseconds {
          let router = Router(network.timetable)
          let q = try query(store, network, from: a, to: b)
          if index % 5 == 4 {
            let deadline = network.seconds(moment + horizon / 2)
            journeys = router.journeys(q, arrivingBy: deadline, notBefore: network.seconds(moment), count: 3)
          } else {
            journeys = router.journeys(q, departingAt: network.seconds(moment), count: 3)
          }
        })
      if !journeys.isEmpty { found += 1 }
    }

    // Whole queries: load, then search, as one process does.
    var whole: [Double] = []
    for _ in 0..<10 {
      let (a, b) = pair(&random)
      let moment = moments[0]
      whole.append(
        try milliseconds {
          let network = try store.routingNetwork(from: moment, until: moment + horizon, scope: try scope(a, b))
          _ = Router(network.timetable).journeys(try query(store, network, from: a, to: b), departingAt: network.seconds(moment), count: 3)
        })
    }
    // CPU times in the order measured: the whole loads, then per pair its load and its search,
    // then the whole queries.
    let pairs = cpu[wholeLoads.count..<(wholeLoads.count + 2 * count)]
    report("load", loads, cpuTimes: ArraySlice(pairs.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)))
    report("search", searches, cpuTimes: ArraySlice(pairs.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)))
    report("whole", whole, cpuTimes: cpu[(wholeLoads.count + 2 * count)...])
    report("wholeload", wholeLoads, cpuTimes: cpu[0..<wholeLoads.count])
    print("found \(found) \(count)")
    let network = wholeNetwork!, scoped = scopedNetwork!
    print("network \(network.timetable.stopCount) \(network.timetable.routes.count) \(network.trips.count)")
    print("scoped \(scoped.timetable.routes.count) \(scoped.trips.count)")
  }
}
