import Foundation
import TestSupport
import Testing
import TransitModel

@testable import TransitCLI

/// `commute NAME --watch` judges its arrival with the guard of `plan --watch` (issue 35): the
/// recommended ride's expected arrival plus the walk after it, against the deadline, under the
/// transfer-margin setting.
@Suite struct CommuteGuardTests {
  let home = DemoHome()
  let tripUpdates = packageRoot + "/Data/realtime/demo-tripupdates.pb"

  func run(_ arguments: [String], context: CommandContext? = nil) -> CLIResult {
    guard let context else { return home.run(arguments) }
    return transit(arguments + ["--data-dir", home.path], context: context)
  }

  /// The recommended option's `reaches` as `commute --json` gives it (the commute planner's
  /// answer, the guard's input), in Unix seconds.
  func reaches() throws -> Int64 {
    let result = run(["commute", "work", "--json", "--now", "2026-12-01T07:40:00Z", "--realtime", tripUpdates])
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    func find(_ value: Any) -> [String: Any]? {
      if let dictionary = value as? [String: Any] {
        if dictionary["recommended"] as? Bool == true { return dictionary }
        for item in dictionary.values { if let found = find(item) { return found } }
      }
      if let array = value as? [Any] { for item in array { if let found = find(item) { return found } } }
      return nil
    }
    let option = try #require(find(object), "\(result.stdout)")
    let text = try #require(option["reaches"] as? String)
    return Int64(try #require(ISO8601DateFormatter().date(from: text)).timeIntervalSince1970)
  }

  @Test func theArrivalBufferAndItsStateUnderTheMargin() throws {
    let add = run([
      "commute", "add", "work", "--stop", "4530", "--route", "27", "--to", "Crumlin Hospital", "--arrive-by", "08:30", "--walk", "5",
      "--then-walk", "4",
    ])
    try #require(add.code == 0, "\(add.stderr)")
    let deadline: Int64 = 1_796_113_800  // 2026-12-01 08:30 GMT
    let buffer = deadline - (try reaches())
    for margin in [1, 10] {
      #expect(run(["config", "set", "transfer-margin", String(margin)]).code == 0)
      let state = buffer < 0 ? "missed" : buffer < 60 ? "at risk" : buffer < Int64(margin) * 60 ? "tight" : "safe"
      let context = CommandContext.stepped(from: UnixTime(1_796_110_800))  // 07:40
      let watch = run(["commute", "work", "--watch", "--count", "1", "--no-bell", "--realtime", tripUpdates], context: context)
      #expect(watch.code == 0, "\(watch.stderr)")
      let text = buffer < 60 ? "buffer \(buffer) s" : "buffer \(buffer / 60) min"
      #expect(watch.stdout.contains(", 08:30 at the latest: \(text) · \(state)\n"), "\(watch.stdout)")
    }
  }
}
