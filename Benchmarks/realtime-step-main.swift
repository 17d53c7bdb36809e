// The in-process driver of Benchmarks/realtime-step: what one realtime step costs once the
// timetables are open, split as a command pays it:
//   decode    FeedMessage(decoding:) of the capture's bytes;
//   live      LiveRealtime(store:feeds:now:options:): naming every update's trip (descriptor and
//             producer rules, DescriptorResolver), reading the matched trips' stops from the
//             timetable, and the merge (Reconciler.realtime);
//   merge     Reconciler.realtime alone, on the trips `live` read (the pure part);
//   step      decode + live, the whole realtime step.
// Each REPEATS times after two warm-ups, on one Store (as one process has), in thread CPU time.
//   first     the first `live` on a Store just opened (a one-shot command's step: nothing of
//             the timetables read yet; the files in the OS's cache), min(REPEATS, 20) Stores.
//
//   realtime-step-bench DATA_DIR CAPTURE.pb NOW_UNIX REPEATS
//
// Prints "name count p50_us p95_us" lines, then "trips N updates M matched K".
import Foundation
import GTFS
import GTFSRealtime
import Merge
import Services
import TransitModel

@main
enum RealtimeStepBenchmark {
  /// The thread's CPU time `body` takes, in microseconds: on a shared machine wall time
  /// measures the other processes too.
  static func microseconds(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
      var spec = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
      return Double(spec.tv_sec) * 1e6 + Double(spec.tv_nsec) / 1e3
    }
    let start = now()
    try body()
    return now() - start
  }

  static func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[Int((p * Double(sorted.count - 1)).rounded())]
  }

  static func report(_ name: String, _ times: [Double]) {
    print(
      [name, "\(times.count)", String(format: "%.1f", percentile(times, 0.5)), String(format: "%.1f", percentile(times, 0.95))].joined(
        separator: " "))
  }

  static func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 5, let now = Int64(arguments[3]), let repeats = Int(arguments[4]), repeats > 0 else {
      FileHandle.standardError.write(Data("usage: realtime-step-bench DATA_DIR CAPTURE.pb NOW_UNIX REPEATS\n".utf8))
      exit(2)
    }
    let store = try Store(directory: arguments[1])
    guard let data = FileManager.default.contents(atPath: arguments[2]) else {
      FileHandle.standardError.write(Data("realtime-step-bench: cannot read \(arguments[2])\n".utf8))
      exit(1)
    }
    let bytes = [UInt8](data)
    let options = ServiceOptions()
    let clock = UnixTime(now)
    var decode: [Double] = [], live: [Double] = [], merge: [Double] = [], step: [Double] = []
    var last: LiveRealtime?
    var first: [Double] = []
    for _ in 0..<min(repeats, 20) {
      let fresh = try Store(directory: arguments[1])
      let feed = try FeedMessage(decoding: bytes)
      first.append(try microseconds { _ = try LiveRealtime(store: fresh, feeds: [feed], now: clock, options: options) })
    }
    for round in 0..<(repeats + 2) {
      var feed: FeedMessage?
      let d = try microseconds { feed = try FeedMessage(decoding: bytes) }
      var made: LiveRealtime?
      let l = try microseconds { made = try LiveRealtime(store: store, feeds: [feed!], now: clock, options: options) }
      let trips = made!.trips
      let m = microseconds {
        _ = Reconciler.realtime(trips: trips, feeds: made!.feeds, now: clock, options: options.reconciler)
      }
      if round >= 2 {
        decode.append(d)
        live.append(l)
        merge.append(m)
        step.append(d + l)
      }
      last = made
    }
    report("decode", decode)
    report("live", live)
    report("merge", merge)
    report("step", step)
    report("first", first)
    let report = last!.report
    print("trips \(last!.trips.count) updates \(report.tripUpdateCount) matched \(report.matchedTripUpdateCount)")
  }
}
