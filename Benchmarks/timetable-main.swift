// The in-process driver of Benchmarks/timetable: runs `transit timetable STOP --date D` through
// `Transit.main` with captured output (the whole command: open the timetable, resolve the stop,
// read the day's departures, build the grid, render it), and the grid alone
// (`TimetableGrid.build`), each REPEATS times after one warm-up.
//
//   timetable-bench DATA_DIR STOP DATE REPEATS
//
// Prints "name count p50_ms p95_ms max_ms departures".
import Foundation
import GTFS
import Services
import TransitCLI
import TransitModel

@main
enum TimetableBenchmark {
  static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
  }

  static func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[Int((p * Double(sorted.count - 1)).rounded())]
  }

  static func report(_ name: String, _ times: [Double], departures: Int) {
    print(
      [
        name, "\(times.count)", String(format: "%.3f", percentile(times, 0.5)), String(format: "%.3f", percentile(times, 0.95)),
        String(format: "%.3f", times.max()!), "\(departures)",
      ].joined(separator: " "))
  }

  static func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 5, let repeats = Int(arguments[4]) else {
      FileHandle.standardError.write(Data("usage: timetable-bench DATA_DIR STOP DATE REPEATS\n".utf8))
      exit(2)
    }
    let (dataDir, stopText, date) = (arguments[1], arguments[2], arguments[3])
    let words = ["timetable", stopText, "--date", date, "--data-dir", dataDir]
    var command: [Double] = []
    var lines = 0
    for round in 0...repeats {
      let context = CommandContext.capturing(environment: ["COLUMNS": "100"])
      let time = milliseconds { precondition(Transit.main(words, context: context) == 0, context.stderr.text) }
      if round > 0 { command.append(time) } else { lines = context.stdout.text.split(separator: "\n").count }
    }
    let store = try Store(directory: dataDir)
    guard case .found(let stop) = try store.resolveStop(stopText),
      let day = ServiceDate(gtfs: date.replacingOccurrences(of: "-", with: ""))
    else { fatalError("no stop \(stopText) or bad date \(date)") }
    var grid: [Double] = []
    var count = 0
    for round in 0...repeats {
      let time = try milliseconds {
        count = try TimetableGrid.build(stop: stop, date: day, route: nil, direction: nil, store: store).count
      }
      if round > 0 { grid.append(time) }
    }
    report("timetable-command", command, departures: count)
    report("grid-only", grid, departures: count)
    print("lines-printed \(lines)")
  }
}
