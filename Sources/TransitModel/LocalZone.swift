#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A time zone's rules, read from the system's tz database (`/usr/share/zoneinfo/NAME`, or
/// `$TZDIR/NAME`): the UTC offset in force at any instant. `LocalClock` does all wall-clock
/// arithmetic with it; nothing else reads zone files.
///
/// Reads TZif files (RFC 8536) of version 2 or later through their 64-bit data, and, for instants
/// after the last transition listed, the POSIX TZ rule in the file's footer (`EST5EDT,M3.2.0,M11.1.0`).
/// Leap seconds, where a file lists them, are ignored (POSIX time has none).
public struct LocalZone: Sendable, Equatable, CustomStringConvertible {
  /// The name it was opened by (`Europe/Dublin`).
  public let identifier: String
  /// Transition instants (Unix seconds), ascending, and the offset in force from each.
  let transitions: [Int64]
  let offsets: [Int32]
  /// The offset before the first transition (and always, with none).
  let initialOffset: Int32
  /// The footer rule for instants at or after the last transition (nil: the last offset holds).
  let rule: PosixZoneRule?

  /// UTC.
  public static let utc = LocalZone(identifier: "UTC", fixedOffset: 0)

  /// A zone that is always `seconds` east of UTC.
  public init(identifier: String, fixedOffset seconds: Int) {
    self.identifier = identifier
    transitions = []
    offsets = []
    initialOffset = Int32(seconds)
    rule = nil
  }

  /// The directory zone files are read from: `$TZDIR` when set, else `/usr/share/zoneinfo`.
  public static var directory: String {
    if let value = getenv("TZDIR"), let text = String(validatingCString: value), !text.isEmpty { return text }
    return "/usr/share/zoneinfo"
  }

  /// Opens the zone `identifier` from `directory` (see `directory`). `UTC` and `GMT` need no file.
  /// - Throws: `LocalZoneError` naming the zone and the file when the name is not a zone name, or
  ///   the file is missing, unreadable or not a TZif file.
  public init(named identifier: String, directory: String = LocalZone.directory) throws(LocalZoneError) {
    if identifier == "UTC" || identifier == "GMT" {
      self.init(identifier: identifier, fixedOffset: 0)
      return
    }
    let path = directory.hasSuffix("/") ? directory + identifier : directory + "/" + identifier
    let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
    guard !identifier.isEmpty, !identifier.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
    else { throw LocalZoneError(zone: identifier, path: path, problem: "is not a time zone name") }
    if let known = ZoneCache.shared.zone(at: path) {
      self = known
      return
    }
    let bytes: [UInt8]
    do { bytes = try Self.read(path) } catch { throw LocalZoneError(zone: identifier, path: path, problem: error.problem) }
    guard let parsed = TZif(bytes) else {
      throw LocalZoneError(zone: identifier, path: path, problem: "is not a TZif zone file")
    }
    self.init(identifier: identifier, parsed)
    ZoneCache.shared.keep(self, at: path)
  }

  /// The zone the system is set to: `$TZ` (a zone name, `:NAME`, or a path to a zone file), else
  /// /etc/localtime; UTC when neither can be read.
  public static var current: LocalZone {
    if let value = getenv("TZ"), var name = String(validatingCString: value) {
      if name.hasPrefix(":") { name.removeFirst() }
      if name.hasPrefix("/") {
        if let bytes = try? read(name), let parsed = TZif(bytes) { return LocalZone(identifier: name, parsed) }
        return .utc
      }
      if name.isEmpty { return .utc }
      return (try? LocalZone(named: name)) ?? .utc
    }
    // /etc/localtime is usually a link into the zone directory: its name is the zone's.
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/etc/localtime", &buffer, buffer.count - 1)
    if length > 0 {
      let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let parts = target.split(separator: "/").map(String.init)
      if let index = parts.lastIndex(of: "zoneinfo"), index + 1 < parts.count,
        let zone = try? LocalZone(named: parts[(index + 1)...].joined(separator: "/"))
      {
        return zone
      }
    }
    if let bytes = try? read("/etc/localtime"), let parsed = TZif(bytes) { return LocalZone(identifier: "localtime", parsed) }
    return .utc
  }

  private init(identifier: String, _ parsed: TZif) {
    self.identifier = identifier
    transitions = parsed.transitions
    offsets = parsed.offsets
    initialOffset = parsed.initialOffset
    rule = parsed.rule
  }

  /// The offset from UTC, in seconds east, in force at `seconds` (Unix time).
  public func secondsFromGMT(at seconds: Int64) -> Int {
    guard let last = transitions.last, seconds >= transitions[0] else {
      // Before the first transition (or none at all): the first local time type, unless the file
      // is nothing but a footer rule.
      if transitions.isEmpty, let rule { return rule.offset(at: seconds) }
      return Int(initialOffset)
    }
    if seconds >= last, let rule { return rule.offset(at: seconds) }
    // The last transition at or before `seconds`.
    var low = 0, high = transitions.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
    }
    return Int(offsets[low])
  }

  public var description: String { identifier }

  struct ReadError: Error { var problem: String }

  /// The whole file at `path`.
  static func read(_ path: String) throws(ReadError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw ReadError(problem: Self.reason(errno)) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw ReadError(problem: Self.reason(errno))
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
      // Zone files are a few kilobytes; anything far larger is not one.
      if bytes.count > 1 << 22 { throw ReadError(problem: "is not a TZif zone file (too large)") }
    }
    return bytes
  }

  private static func reason(_ code: Int32) -> String {
    switch code {
    case ENOENT: return "does not exist (is the tzdata package installed? TZDIR names another zone directory)"
    case EISDIR: return "is a directory, not a zone file"
    case EACCES: return "cannot be read (permission denied)"
    default: return "cannot be read (\(String(cString: strerror(code))))"
    }
  }
}

/// A zone that cannot be opened: prints as one line naming the zone and the file.
public struct LocalZoneError: Error, Equatable, CustomStringConvertible {
  public var zone: String
  public var path: String
  public var problem: String

  public var description: String { "time zone '\(zone)': \(path) \(problem)" }
}

/// The parts of a TZif file the offsets need.
struct TZif {
  var transitions: [Int64] = []
  var offsets: [Int32] = []
  var initialOffset: Int32 = 0
  var rule: PosixZoneRule?

  /// Parses a TZif file: its 64-bit data when version 2 or later, else the 32-bit data; nil when
  /// the bytes are not a TZif file.
  init?(_ bytes: [UInt8]) {
    var reader = Reader(bytes: bytes)
    guard let first = reader.header() else { return nil }
    var header = first
    var timeSize = 4
    if first.version >= 2 {
      // Skip the version 1 data block; the second header and 64-bit data follow.
      guard reader.skip(first.dataSize(timeSize: 4)), let second = reader.header() else { return nil }
      header = second
      timeSize = 8
    }
    var times: [Int64] = []
    times.reserveCapacity(header.timeCount)
    for _ in 0..<header.timeCount {
      guard let time = timeSize == 8 ? reader.int64() : reader.int32().map(Int64.init) else { return nil }
      times.append(time)
    }
    var indices: [Int] = []
    for _ in 0..<header.timeCount {
      guard let index = reader.byte() else { return nil }
      indices.append(Int(index))
    }
    var typeOffsets: [Int32] = []
    for _ in 0..<header.typeCount {
      guard let offset = reader.int32(), reader.byte() != nil, reader.byte() != nil else { return nil }
      typeOffsets.append(offset)
    }
    guard !typeOffsets.isEmpty, indices.allSatisfy({ $0 < typeOffsets.count }) else { return nil }
    guard reader.skip(header.charCount + header.leapCount * (timeSize + 4) + header.isStdCount + header.isUTCount) else {
      return nil
    }
    transitions = times
    offsets = indices.map { typeOffsets[$0] }
    initialOffset = typeOffsets[0]
    if first.version >= 2, reader.byte() == 10 {
      var footer: [UInt8] = []
      while let byte = reader.byte(), byte != 10 { footer.append(byte) }
      if !footer.isEmpty { rule = PosixZoneRule(String(decoding: footer, as: UTF8.self)) }
    }
  }

  struct Header {
    var version: Int
    var isUTCount, isStdCount, leapCount, timeCount, typeCount, charCount: Int

    func dataSize(timeSize: Int) -> Int {
      timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStdCount + isUTCount
    }
  }

  struct Reader {
    let bytes: [UInt8]
    var index = 0

    mutating func byte() -> UInt8? {
      guard index < bytes.count else { return nil }
      defer { index += 1 }
      return bytes[index]
    }

    mutating func skip(_ count: Int) -> Bool {
      guard count >= 0, index + count <= bytes.count else { return false }
      index += count
      return true
    }

    mutating func int32() -> Int32? {
      guard index + 4 <= bytes.count else { return nil }
      var value: UInt32 = 0
      for byte in bytes[index..<index + 4] { value = value << 8 | UInt32(byte) }
      index += 4
      return Int32(bitPattern: value)
    }

    mutating func int64() -> Int64? {
      guard index + 8 <= bytes.count else { return nil }
      var value: UInt64 = 0
      for byte in bytes[index..<index + 8] { value = value << 8 | UInt64(byte) }
      index += 8
      return Int64(bitPattern: value)
    }

    mutating func header() -> Header? {
      guard index + 44 <= bytes.count, Array(bytes[index..<index + 4]) == Array("TZif".utf8) else { return nil }
      let versionByte = bytes[index + 4]
      let version = versionByte == 0 ? 1 : Int(versionByte) - 48
      guard version >= 1 else { return nil }
      index += 20
      var counts: [Int] = []
      for _ in 0..<6 {
        guard let count = int32(), count >= 0, count < 1 << 20 else { return nil }
        counts.append(Int(count))
      }
      return Header(
        version: version, isUTCount: counts[0], isStdCount: counts[1], leapCount: counts[2], timeCount: counts[3],
        typeCount: counts[4], charCount: counts[5])
    }
  }
}

extension LocalZone {
  /// Whether `identifier` names a zone in the tz database (ingest checks agency_timezone with it).
  /// - Throws: `LocalZoneError` when the zone directory itself is missing (no tzdata installed),
  ///   so a feed is not refused for what is the machine's fault.
  public static func exists(_ identifier: String, directory: String = LocalZone.directory) throws(LocalZoneError) -> Bool {
    do {
      _ = try LocalZone(named: identifier, directory: directory)
      return true
    } catch {
      if access(directory, F_OK) != 0 {
        throw LocalZoneError(
          zone: identifier, path: directory, problem: "does not exist (is the tzdata package installed? TZDIR names another zone directory)"
        )
      }
      return false
    }
  }
}

/// Zones read in this process, by path: a feed's zone is asked for by each of the timetable's
/// readers, and the file does not change while a command runs.
private final class ZoneCache: @unchecked Sendable {
  static let shared = ZoneCache()
  private let lock: UnsafeMutablePointer<pthread_mutex_t> = {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
    return lock
  }()
  private var zones: [String: LocalZone] = [:]

  func zone(at path: String) -> LocalZone? {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return zones[path]
  }

  func keep(_ zone: LocalZone, at path: String) {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    zones[path] = zone
  }
}
