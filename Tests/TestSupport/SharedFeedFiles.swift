import Foundation
import GTFSRealtime
import ZIP

// The files of shared/data and of the package's demo network, read the plain ways tests need
// (no ingest): a feed's rows by a small CSV split, a capture decoded, the demo as a ZIP.

/// A file of the demo network (Data/gtfs/NAME), its rows as column name -> value, split by the
/// test's own CSV reader (`TestCSV`: quoted fields may hold commas).
public func demoRows(_ file: String) throws -> [[String: String]] {
  let text = try String(contentsOfFile: packageRoot + "/Data/gtfs/" + file, encoding: .utf8)
  var lines = text.split(whereSeparator: \.isNewline).map { TestCSV.fields(of: $0) }
  let header = lines.removeFirst().map { $0.trimmingCharacters(in: .whitespaces) }
  return lines.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
}

/// A GTFS file of a shared feed, read with the ZIP reader and a small CSV split of the test's
/// own: rows as column name -> value (these feeds quote no commas in the columns read).
public func sharedRows(_ feed: String, _ file: String) throws -> [[String: String]] {
  guard let path = SharedData.path("static/" + feed) else { throw FixtureError("no shared/data/static/\(feed)") }
  let archive = try ZipArchive(path: path)
  guard let entry = archive.entry(named: file) else { throw FixtureError("no \(file) in \(feed)") }
  let reader = try archive.reader(for: entry)
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
    if count == 0 { break }
    bytes += buffer[..<count]
  }
  if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
  var lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map { line in
    line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
  }
  let header = lines.removeFirst()
  return lines.map { Dictionary(zip(header, $0), uniquingKeysWith: { a, _ in a }) }
}

/// `sharedRows`, read once per process and file (stop_times.txt of the subway is 11 MB).
private let rowCache = OncePerKey<[[String: String]]>()
public func cachedRows(_ feed: String, _ file: String) throws -> [[String: String]] {
  try rowCache.value(feed + "/" + file) { try sharedRows(feed, file) }
}

/// "HH:MM:SS" as seconds, by hand.
public func gtfsSeconds(_ text: String) -> Int? {
  let parts = text.split(separator: ":").compactMap { Int($0) }
  return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : nil
}

/// A realtime capture in shared/data/rt, decoded.
public func capture(_ name: String) throws -> FeedMessage {
  guard let path = SharedData.path("rt/" + name), let bytes = FileManager.default.contents(atPath: path) else {
    throw FixtureError("no shared/data/rt/\(name)")
  }
  return try FeedMessage(decoding: [UInt8](bytes))
}

/// "2023-11-07T17:24:36-08:00" read as Unix seconds (the offset applied), by hand.
public func unixSeconds(_ iso: String) -> Int64? {
  let chars = Array(iso)
  guard chars.count >= 19 else { return nil }
  func number(_ from: Int, _ count: Int) -> Int64? { Int64(String(chars[from..<from + count])) }
  guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
    let minute = number(14, 2), let second = number(17, 2)
  else { return nil }
  // Days from 1970-01-01 (civil-from-days inverse, Howard Hinnant's algorithm).
  let y = month <= 2 ? year - 1 : year
  let era = (y >= 0 ? y : y - 399) / 400
  let yoe = y - era * 400
  let mp = (month + 9) % 12
  let doy = (153 * mp + 2) / 5 + day - 1
  let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
  let days = era * 146_097 + doe - 719_468
  var seconds = days * 86_400 + hour * 3600 + minute * 60 + second
  let rest = String(chars[19...])
  if rest != "Z", rest.count == 6, let h = Int64(rest.dropFirst().prefix(2)), let m = Int64(rest.suffix(2)) {
    seconds -= (rest.first == "-" ? -1 : 1) * (h * 3600 + m * 60)
  }
  return seconds
}

/// The demo network's GTFS files as a stored (uncompressed) ZIP; `variant` goes into the
/// archive comment, so the bytes (and their hash) differ while the timetable is the same.
public func demoZip(variant: Int = 0) throws -> [UInt8] {
  let folder = packageRoot + "/Data/gtfs"
  var files: [(String, [UInt8])] = []
  for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".txt") {
    files.append((name, [UInt8](FileManager.default.contents(atPath: folder + "/" + name)!)))
  }
  return storedZip(files, comment: variant == 0 ? "" : "variant \(variant)")
}

/// A ZIP with every entry stored (method 0).
public func storedZip(_ files: [(String, [UInt8])], comment: String = "") -> [UInt8] {
  func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
  var out: [UInt8] = []
  var central: [UInt8] = []
  for (name, data) in files {
    let crc = Int(FeedGzip.crc32(data))
    let nameBytes = Array(name.utf8)
    let offset = out.count
    out +=
      [0x50, 0x4B, 3, 4] + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0x21, 2) + le(crc, 4)
      + le(data.count, 4) + le(data.count, 4) + le(nameBytes.count, 2) + le(0, 2) + nameBytes + data
    central +=
      [0x50, 0x4B, 1, 2] + le(20, 2) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0x21, 2) + le(crc, 4)
      + le(data.count, 4) + le(data.count, 4) + le(nameBytes.count, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2)
      + le(0, 4) + le(offset, 4) + nameBytes
  }
  let centralOffset = out.count
  out += central
  out +=
    [0x50, 0x4B, 5, 6] + le(0, 2) + le(0, 2) + le(files.count, 2) + le(files.count, 2) + le(central.count, 4)
    + le(centralOffset, 4) + le(comment.utf8.count, 2) + Array(comment.utf8)
  return out
}

/// The demo trip updates capture.
public func demoTripUpdates() -> [UInt8] {
  [UInt8](FileManager.default.contents(atPath: packageRoot + "/Data/realtime/demo-tripupdates.pb")!)
}

/// A feed of a header alone, stamped `stamp`: FeedMessage { header { gtfs_realtime_version:
/// "2.0", timestamp: stamp } }.
public func headerOnlyFeed(_ stamp: UInt64) -> [UInt8] {
  var header: [UInt8] = [0x0A, 3] + Array("2.0".utf8) + [0x18]
  var value = stamp
  while value >= 0x80 {
    header.append(UInt8(value & 0x7F) | 0x80)
    value >>= 7
  }
  header.append(UInt8(value))
  return [0x0A, UInt8(header.count)] + header
}
