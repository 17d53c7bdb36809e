import Foundation
import GTFS
import Services
import TestSupport
import Testing
import TransitModel

/// The session's stop search (issue 33) on the demo network, against Data/gtfs/stops.txt read
/// here.
@Suite struct SessionSearchTests {
  func session() throws -> TransitSession { TransitSession(store: try DemoTimetable.store(), options: ServiceOptions()) }

  /// stops.txt's rows as field name to value.
  static func stopsFile() throws -> [[String: String]] { try demoRows("stops.txt") }

  @Test func aCodeIsTheOneStopOfThatCode() throws {
    let expected = try Self.stopsFile().filter { $0["stop_code"] == "4500" }.map { $0["stop_id"] }
    try #require(expected.count == 1)
    let answer = try session().search(SearchRequest(text: "4500"))
    #expect(answer.matches.map(\.stop.id.rawValue) == expected)
    #expect(answer.matches.map(\.kind) == [.code])
    #expect(answer.matches.allSatisfy { $0.distanceMeters == nil && $0.complex == nil })
    #expect(!answer.namesFeed)
  }

  @Test func twoStopsOfTheNameAreBothFoundAsOneComplex() throws {
    let expected = try Self.stopsFile().filter { $0["stop_name"] == "Belgard Road" }.compactMap { $0["stop_id"] }
    try #require(expected.count == 2)
    let answer = try session().search(SearchRequest(text: "belgard road", limit: 50))
    #expect(answer.matches.map(\.stop.id.rawValue).sorted() == expected.sorted())
    #expect(answer.matches.allSatisfy { $0.kind == .name })
    for match in answer.matches {
      let complex = try #require(match.complex)
      #expect(complex.name == "Belgard Road")
      #expect(complex.parts.map(\.id.rawValue).sorted() == expected.sorted())
    }
  }

  @Test func nearAPointTheMatchesAreNearestFirstAtTheirDistance() throws {
    let rows = try Self.stopsFile()
    // Every stop with a word starting "tallaght" (none is named just that).
    let named = rows.filter { row in
      (row["stop_name"] ?? "").lowercased().split(whereSeparator: { !$0.isLetter }).contains { $0.hasPrefix("tallaght") }
    }
    try #require(named.count > 5)
    let point = Coordinate(latitude: 53.29, longitude: -6.37)
    let answer = try session().search(SearchRequest(text: "tallaght", near: point, limit: 100))
    let words = answer.matches.filter { $0.kind == .words }
    #expect(Set(words.map(\.stop.id.rawValue)) == Set(named.compactMap { $0["stop_id"] }))
    #expect(words.count == named.count)
    // Haversine from the file's coordinates, to half a percent (the earth's radius chosen).
    func meters(_ row: [String: String]) throws -> Double {
      let lat = try #require(Double(row["stop_lat"] ?? "")), lon = try #require(Double(row["stop_lon"] ?? ""))
      func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
      let a =
        pow(sin(radians(lat - point.latitude) / 2), 2) + cos(radians(point.latitude)) * cos(radians(lat))
        * pow(sin(radians(lon - point.longitude) / 2), 2)
      return 2 * 6_371_000 * asin(sqrt(a))
    }
    let byID = Dictionary(uniqueKeysWithValues: named.map { ($0["stop_id"] ?? "", $0) })
    for match in words {
      let distance = try #require(match.distanceMeters)
      let expected = try meters(try #require(byID[match.stop.id.rawValue]))
      #expect(abs(distance - expected) <= expected * 0.005 + 0.5, "\(match.stop.id)")
    }
    let distances = words.compactMap(\.distanceMeters)
    #expect(distances == distances.sorted())
  }

  @Test func onlyStopsSharingANameAreLabelled() throws {
    let rows = try Self.stopsFile()
    let answer = try session().search(SearchRequest(text: "tallaght", limit: 100))
    var counts: [String: Int] = [:]
    for row in rows { counts[row["stop_name"] ?? "", default: 0] += 1 }
    for match in answer.matches where counts[match.stop.name] == 1 {
      #expect(match.label == nil, "\(match.stop.id)")
    }
    // Tallaght Interchange's station and its three platforms: each told apart.
    let interchange = answer.matches.filter { $0.stop.name == "Tallaght Interchange" }
    #expect(interchange.count == counts["Tallaght Interchange"])
    #expect(Set(interchange.compactMap(\.label)).count == interchange.count)
  }

  @Test func nothingMatchesANameNothingHas() throws {
    let answer = try session().search(SearchRequest(text: "zzzz"))
    #expect(answer.matches.isEmpty)
  }
}
