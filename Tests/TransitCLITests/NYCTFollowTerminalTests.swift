import Foundation
import GTFSRealtime
import TestSupport
import Testing
import ZIP

/// `transit follow` of a New York train by its NYCT train id, in a real terminal, across the
/// 12 consecutive captures of PROVENANCE.md replayed in order (DESIGN.md rule 16). The train
/// followed, `01 1349  242/SFT`, is one the timetable lacks: the feed's own update builds it.
@Suite(
  .enabled(
    if: transitExecutable != nil && tmuxExecutable != nil && SharedData.path("static/nyct-subway-multi-2023.zip") != nil,
    "needs the built executable, tmux and ../shared/data"))
struct NYCTFollowTerminalTests {
  static let train = "01 1349  242/SFT"
  static let stamps = [
    "180306", "180406", "180506", "180606", "180706", "180806", "180906", "181006", "181106", "181206", "181306", "181421",
  ]

  /// 2023-05-29 `hhmmss` UTC as Unix seconds, by hand: 2023-05-29 is day 19,506 of the epoch.
  static func seconds(_ hhmmss: String) -> Int64 {
    let digits = Array(hhmmss).map { Int64(String($0))! }
    return 19_506 * 86_400 + (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60 + digits[4] * 10 + digits[5]
  }

  /// stops.txt's names by stop_id, read with the ZIP reader and a plain split (these names
  /// quote no commas).
  static func stopNames() throws -> [String: String] {
    let archive = try ZipArchive(path: try #require(SharedData.path("static/nyct-subway-multi-2023.zip")))
    let reader = try archive.reader(for: try #require(archive.entry(named: "stops.txt")))
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
      if count == 0 { break }
      bytes += buffer[..<count]
    }
    var lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let header = lines.removeFirst()
    let id = try #require(header.firstIndex(of: "stop_id")), name = try #require(header.firstIndex(of: "stop_name"))
    return Dictionary(lines.map { ($0[id], $0[name]) }, uniquingKeysWith: { a, _ in a })
  }

  /// Where the view puts the train in a capture, as its vehicle position says: "at NAME" when
  /// STOPPED_AT, else "next: NAME ·" (the stop it is heading to).
  static func expectedPlace(in capture: FeedMessage, names: [String: String]) throws -> String {
    let vehicle = try #require(
      capture.entities.compactMap(\.vehicle).first { $0.trip?.nyctTripDescriptor?.trainID == train })
    let stop = try #require(vehicle.stopID)
    let name = try #require(names[stop])
    return vehicle.currentStatus == .stoppedAt ? "at \(name)\n" : "next: \(name) ·"
  }

  @Test func followsATrainTheTimetableLacksAcrossTheTwelveCaptures() throws {
    let home = try RealHome("nyct-subway-multi-2023.zip", as: "nyct")
    // The replay folder: each capture linked (not copied) under the name `transit record` gives.
    let replay = TemporaryFolder()
    var captures: [FeedMessage] = []
    for stamp in Self.stamps {
      let path = try #require(SharedData.path("rt/nyct-subway-20230529T\(stamp)Z.pb"))
      try FileManager.default.createSymbolicLink(
        atPath: replay.path + "/\(Self.seconds(stamp))-tripupdates.pb", withDestinationPath: path)
      captures.append(try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: path)))))
    }
    let names = try Self.stopNames()
    let first = try Self.expectedPlace(in: captures[0], names: names)
    let last = try Self.expectedPlace(in: captures[11], names: names)
    #expect(first != last)

    let tmux = try TmuxSession(
      columns: 100, rows: 40,
      [
        "env", "LANG=C.UTF-8", transitExecutable!, "follow", Self.train, "--replay", replay.path, "--speed", "60", "--data-dir",
        home.path,
      ])
    defer { tmux.kill() }
    let opening = try tmux.waitForPane { $0.contains(first) }
    #expect(opening.contains("1 to South Ferry · vehicle \(Self.train) · "), "\(opening)")
    #expect(opening.contains("live, not in the timetable"), "\(opening)")
    // New York is on EDT (UTC-4): the last capture is 18:14:21Z, 14:14 there.
    let closing = try tmux.waitForPane(seconds: 40) { $0.contains("\(Self.train) · 14:14") && $0.contains(last) }
    #expect(closing.contains(last), "\(closing)")
    #expect(try tmux.waitForPane(seconds: 40) { $0.contains("exit=") }.contains("exit=0"))
    _ = home
  }
}
