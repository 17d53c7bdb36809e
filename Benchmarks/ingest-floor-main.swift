// The ingest's floor (issue 37), for Benchmarks/ingest: how long reading one file of a feed
// takes with nothing done with its bytes (inflating it, for a ZIP; read(2), for a folder), and
// scanning it once with the ingest's own CSV reader (every record's fields found and counted,
// no value parsed, nothing stored). Best of `--rounds` rounds; JSON on stdout.
//
//   ingest-floor FEED [FILE] [--rounds N]     # FILE defaults to stop_times.txt
import GTFS
import HostSystem

@main
enum IngestFloor {
  static func main() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var rounds = 3
    if let flag = arguments.firstIndex(of: "--rounds"), flag + 1 < arguments.count, let value = Int(arguments[flag + 1]) {
      rounds = max(1, value)
      arguments.removeSubrange(flag...(flag + 1))
    }
    guard let feed = arguments.first else {
      print("usage: ingest-floor FEED [FILE] [--rounds N]")
      return
    }
    let file = arguments.count > 1 ? arguments[1] : "stop_times.txt"
    let source = try FeedSource(path: feed)

    var readSeconds = Double.infinity, scanSeconds = Double.infinity
    var bytes = 0, records = 0, fields = 0
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    for _ in 0..<rounds {
      // Inflate (or read) alone.
      var started = MonotonicClock.nanoseconds()
      let (stream, _) = try source.open(file)
      var total = 0
      while case let count = try stream.read(into: buffer), count > 0 { total += count }
      readSeconds = min(readSeconds, Double(MonotonicClock.nanoseconds() - started) / 1e9)
      bytes = total

      // Inflate and scan once: every record's fields counted.
      started = MonotonicClock.nanoseconds()
      let reader = try CSVReader(source: try source.open(file).source, file: file)
      var fieldCount = reader.header.count
      while try reader.next() { fieldCount += reader.fieldCount }
      scanSeconds = min(scanSeconds, Double(MonotonicClock.nanoseconds() - started) / 1e9)
      records = reader.recordCount
      fields = fieldCount
    }
    print(
      """
      {"file": "\(file)", "bytes": \(bytes), "records": \(records), "fields": \(fields), \
      "read_seconds": \(readSeconds), "scan_seconds": \(scanSeconds), "kind": "\(source.kind)"}
      """)
  }
}
