import Foundation
import TestSupport
import Testing

/// `departures STOP STOP...` (issue 32): one board of several stops, on the demo network.
@Suite struct SeveralStopsBoardTests {
  let home = DemoHome()
  let tuesday = "2026-12-01T07:40:00Z"

  func rows(_ arguments: [String]) throws -> (code: Int32, rows: [[String: Any]], json: [String: Any]) {
    let result = home.run(["departures"] + arguments + ["--json", "--now", tuesday, "--window", "180", "--limit", "10000"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
    return (result.code, (json["departures"] as? [[String: Any]]) ?? [], json)
  }

  /// A row as the boards of one stop give it: what identifies the departure and its time.
  static func key(_ row: [String: Any]) -> String {
    ["trip_id", "stop_id", "service_date", "scheduled"].map { row[$0] as? String ?? "-" }.joined(separator: " ")
  }

  @Test func twoStopsAreTheUnionOfTheirBoards() throws {
    let a = try rows(["4529"]), b = try rows(["4530"]), both = try rows(["4529", "4530"])
    #expect(a.code == 0 && b.code == 0 && both.code == 0)
    try #require(!a.rows.isEmpty && !b.rows.isEmpty)
    // The union, in time order (ISO times of one offset sort as text), computed here.
    let union = (a.rows + b.rows).map(Self.key).sorted { $0.split(separator: " ")[3] < $1.split(separator: " ")[3] }
    let got = both.rows.map(Self.key)
    #expect(Set(got) == Set(union))
    #expect(got.count == union.count)
    #expect(got.map { $0.split(separator: " ")[3] } == union.map { $0.split(separator: " ")[3] })
    // Each row names its stop.
    #expect(both.rows.allSatisfy { ["TD4529", "TD4530"].contains($0["part_stop_id"] as? String ?? "") })
    // By name, as the names differ (stops.txt: "Main Road, Tallaght Village", "Tallaght (The Square)").
    let names = ["TD4529": "Main Road, Tallaght Village", "TD4530": "Tallaght (The Square)"]
    #expect(both.rows.allSatisfy { row in (row["part"] as? String) == names[row["part_stop_id"] as? String ?? ""] })
    let stops = ((both.json["stops"] as? [[String: Any]]) ?? []).compactMap { $0["stop_id"] as? String }
    #expect(stops == ["TD4529", "TD4530"])
  }

  @Test func aLimitCountsTheWholeBoard() throws {
    let limited = home.run(["departures", "4529", "4530", "--json", "--now", tuesday, "--limit", "3"])
    #expect(limited.code == 0)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(limited.stdout.utf8)) as? [String: Any])
    let all = try rows(["4529", "4530"])
    #expect(((json["departures"] as? [[String: Any]]) ?? []).map(Self.key) == all.rows.prefix(3).map(Self.key))
  }

  @Test func textNamesEachRowsStop() {
    let result = home.run(["departures", "4529", "4530", "--now", tuesday, "--limit", "3"])
    #expect(result.code == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.first == "Main Road, Tallaght Village + Tallaght (The Square) · 2 stops, departures from 07:40")
    #expect(lines.dropFirst().allSatisfy { $0.contains("  Main Road, Tallaght Village  ") || $0.contains("  Tallaght (The Square)  ") })
  }

  @Test func theLiveBoardNamesEachRowsStopToo() {
    let result = home.run(["departures", "4529", "4530", "--watch", "--count", "1", "--now", tuesday])
    #expect(result.code == 0, "\(result.stderr)")
    let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  27 ") }
    #expect(!rows.isEmpty)
    #expect(rows.allSatisfy { $0.contains("  Main Road, Tallaght Village  ") || $0.contains("  Tallaght (The Square)  ") })
  }

  @Test func anUnknownStopAmongSeveralExits3() {
    let result = home.run(["departures", "4529", "Nowhere Street", "--now", tuesday])
    #expect(result.code == 3)
    #expect(result.stderr.hasSuffix("transit: no stop with id, code or name 'Nowhere Street'\n"))
  }
}
