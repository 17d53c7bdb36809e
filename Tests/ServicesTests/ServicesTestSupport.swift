import Foundation
import GTFSRealtime
import TestSupport
import Testing
import TransitCLI

/// `transit` run in-process with captured output.
struct Run {
  var code: Int32
  var stdout: String
  var stderr: String

  /// The stdout as a JSON value.
  var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
}

func transit(_ arguments: [String], environment: [String: String] = [:]) -> Run {
  let context = CommandContext.capturing(environment: environment)
  let code = Transit.main(arguments, context: context)
  return Run(code: code, stdout: context.stdout.text, stderr: context.stderr.text)
}

/// A data folder holding one shared timetable (ingested once per process and feed).
final class SharedHome: @unchecked Sendable {
  let folder = TemporaryFolder()
  var path: String { folder.path }
  private static let homes = OncePerKey<SharedHome>()

  private init(feed: String, name: String) throws {
    guard let zip = SharedData.path("static/" + feed) else { throw FixtureError("no shared feed \(feed)") }
    let result = transit(["ingest", zip, "--feed", name, "--quiet", "--data-dir", folder.path])
    guard result.code == 0 else { throw FixtureError("\(feed): \(result.stderr)") }
  }

  /// The home holding `feed` (a file in shared/data/static) as feed `name`. Keyed by both: a
  /// test reading the feed by its name must not get a home another test named otherwise
  /// (whichever ran first won, and tests asking for "real" found no feed of that name).
  /// A feed that fails to ingest fails the tests that need it (each time they ask), not the run.
  static func holding(_ feed: String, as name: String = "real") throws -> SharedHome {
    try homes.value(feed + " as " + name) { try SharedHome(feed: feed, name: name) }
  }
}

/// A realtime capture in shared/data/rt, decoded.
func capture(_ name: String) throws -> FeedMessage {
  let path = try #require(SharedData.path("rt/" + name))
  return try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: path))))
}

/// "2023-11-07T17:24:36-08:00" read as Unix seconds (the offset applied), by hand.
func unixSeconds(_ iso: String) -> Int64? {
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
