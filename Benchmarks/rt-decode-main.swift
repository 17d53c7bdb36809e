// The driver of Benchmarks/rt-decode: compiled together with Sources/GTFSRealtime into one
// optimized executable (no SwiftPM product needed). Decodes one capture repeatedly into the
// model (and frees it again, as a real poller would) and prints the throughput of the best of
// five rounds, each of at least 50 MB, measured in thread CPU time on one core. With
// `--table FILE...` it prints one line per capture instead: MB/s and microseconds per decode,
// against the per-capture target; with `--count N FILE` it only decodes FILE N times (for
// callgrind). Not a test: it only reports.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@main
enum RTDecodeBenchmark {
  static let targetMBPerSecond = 300.0

  /// What every capture, small ones included, should reach (issue 24).
  static let perCaptureTargetMBPerSecond = 250.0

  static func main() {
    let arguments = CommandLine.arguments
    if arguments.count >= 2 && arguments[1] == "--table" {
      table(Array(arguments.dropFirst(2)))
      return
    }
    if arguments.count == 4 && arguments[1] == "--count", let count = Int(arguments[2]) {
      repeatDecode(arguments[3], count: count)
      return
    }
    guard arguments.count >= 2 else {
      fputs("usage: rt-decode-bench FILE [TOTAL_MB]\n", stderr)
      exit(2)
    }
    let path = arguments[1]
    let totalMB = arguments.count > 2 ? Double(arguments[2]) ?? 50 : 50
    guard let bytes = readFile(path), !bytes.isEmpty else {
      fputs("rt-decode: cannot read \(path)\n", stderr)
      exit(1)
    }
    let feed: FeedMessage
    do {
      feed = try FeedMessage(decoding: bytes)
    } catch {
      fputs("rt-decode: \(path): \(error)\n", stderr)
      exit(1)
    }
    let entities = feed.entities.count
    let repetitions = max(1, Int((totalMB * 1_000_000 / Double(bytes.count)).rounded(.up)))

    // Warm up caches and the allocator.
    var checksum = 0
    for _ in 0..<10 { checksum &+= decode(bytes) }

    // The machine may be shared: time on-CPU (thread CPU time, so waiting for a core does not
    // count) and keep the best of several rounds, each of at least `totalMB`.
    var best = Double.infinity
    var rounds: [String] = []
    for _ in 0..<roundCount {
      let wallStart = ContinuousClock.now
      let cpuStart = threadCPUSeconds()
      for _ in 0..<repetitions { checksum &+= decode(bytes) }
      let cpu = threadCPUSeconds() - cpuStart
      let wall = ContinuousClock.now - wallStart
      best = min(best, cpu)
      rounds.append("\(format(cpu, 3)) s cpu / \(format(seconds(wall), 3)) s wall")
    }

    let megabytes = Double(bytes.count) * Double(repetitions) / 1_000_000
    let mbPerSecond = megabytes / best
    let entitiesPerSecond = Double(entities) * Double(repetitions) / best
    let verdict = mbPerSecond >= targetMBPerSecond ? "PASS" : "FAIL"
    print("rounds: " + rounds.joined(separator: ", "))
    print(
      "rt-decode: \(bytes.count) bytes x \(repetitions) = \(format(megabytes, 1)) MB in "
        + "\(format(best, 3)) s: \(format(mbPerSecond, 1)) MB/s, "
        + "\(format(entitiesPerSecond, 0)) entities/s "
        + "(target \(Int(targetMBPerSecond)) MB/s: \(verdict))")
    if checksum == 42 { print("") }  // keep the work observable
  }

  static let roundCount = 5

  /// Decodes `path` `count` times and nothing more, untimed: for instruction counts that do not
  /// depend on the machine's load, the difference of two runs under callgrind with different
  /// counts, divided by the difference of the counts, is what one decode and free costs (reading
  /// the file and starting the process cancel out).
  static func repeatDecode(_ path: String, count: Int) {
    guard let bytes = readFile(path) else {
      fputs("rt-decode: cannot read \(path)\n", stderr)
      exit(1)
    }
    var checksum = 0
    for _ in 0..<count { checksum &+= decode(bytes) }
    if checksum == 42 { print("") }  // keep the work observable
  }

  /// One line per capture: size, entities, microseconds per decode and MB/s (best of
  /// `roundCount` rounds of at least `roundMB` each, thread CPU time), then how many pass.
  static func table(_ paths: [String], roundMB: Double = 10) {
    var lines: [String] = []
    var passed = 0
    var slowest = (name: "", mbPerSecond: Double.infinity)
    let header = padRight("capture", 46) + "   bytes  entities   us/decode      MB/s"
    print(header)
    for path in paths {
      let name = String(path.split(separator: "/").last ?? Substring(path))
      guard let bytes = readFile(path), let feed = try? FeedMessage(decoding: bytes) else {
        print("\(name): cannot read or decode")
        continue
      }
      let repetitions = max(1, Int((roundMB * 1_000_000 / Double(max(bytes.count, 1))).rounded(.up)))
      var checksum = 0
      for _ in 0..<min(repetitions, 1000) { checksum &+= decode(bytes) }
      var best = Double.infinity
      for _ in 0..<roundCount {
        let start = threadCPUSeconds()
        for _ in 0..<repetitions { checksum &+= decode(bytes) }
        best = min(best, threadCPUSeconds() - start)
      }
      let microseconds = best / Double(repetitions) * 1e6
      let mbPerSecond = Double(bytes.count) * Double(repetitions) / 1_000_000 / best
      let pass = mbPerSecond >= perCaptureTargetMBPerSecond
      if pass { passed += 1 }
      if mbPerSecond < slowest.mbPerSecond { slowest = (name, mbPerSecond) }
      var line = padRight(name, 46) + pad(String(bytes.count), 8)
      line += pad(String(feed.entities.count), 10) + pad(format(microseconds, 3), 12)
      line += pad(format(mbPerSecond, 1), 10) + "  " + (pass ? "PASS" : "FAIL")
      print(line)
      lines.append(line)
      if checksum == 42 { print("") }  // keep the work observable
    }
    print(
      "per capture: \(passed)/\(lines.count) at >= \(Int(perCaptureTargetMBPerSecond)) MB/s; slowest \(slowest.name) "
        + "\(format(slowest.mbPerSecond, 1)) MB/s: \(passed == lines.count ? "PASS" : "FAIL")")
  }

  static func padRight(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// CPU time this thread has used, in seconds.
  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  @inline(never)
  static func decode(_ bytes: [UInt8]) -> Int {
    guard let feed = try? FeedMessage(decoding: bytes) else { return 0 }
    return feed.entities.count
  }

  static func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      if count <= 0 { break }
      bytes.append(contentsOf: buffer[..<count])
    }
    return bytes
  }

  static func format(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    guard decimals > 0 else { return String(Int(rounded)) }
    return String(rounded)
  }
}
