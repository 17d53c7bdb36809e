import Foundation
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// What a rider types at a STOP argument (issue 17, "Names"). The expected stop ids were read
/// from each ZIP's stops.txt by hand.
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct StopResolutionTests {
  static let cases: [(file: String, typed: String, expected: String?)] = [
    // A station and its two platforms all named "San Francisco Caltrain Station".
    ("caltrain-2023.zip", "San Francisco Caltrain Station", "san_francisco"),
    ("caltrain-2023.zip", "san francisco caltrain station", "san_francisco"),
    // "South San Francisco Caltrain Station" is another name, not a prefix match of this one.
    ("caltrain-2023.zip", "South San Francisco Caltrain Station", "south_sf"),
    // STN_C04 "Foggy Bottom-GWU" and its platform "Foggy Bottom-GWU, Blue/Orange/Silver Line
    // Center Platform": the first words name the station.
    ("wmata-rail-2026.zip", "Foggy Bottom", "STN_C04"),
    // One stop "Montgomery St." (no stations in 2019); a station and its platform in 2023.
    ("bart-2019.zip", "Montgomery", "MONT"),
    ("bart-2023.zip", "Montgomery", "place_MONT"),
    ("bart-2023.zip", "Montgomery Street", "place_MONT"),
    // Four stops named "3rd Ave & Pike St" (431, 433, 575, 578), no station: still ambiguous.
    ("kcm-vp-subset-2021.zip", "3rd Ave & Pike St", nil),
  ]

  @Test(arguments: cases)
  func resolves(file: String, typed: String, expected: String?) throws {
    let source = try #require(SharedData.path("static/" + file))
    let directory = TestDirectory()
    let timetables = Timetables(directory: directory.path)
    try timetables.ingest(source, as: "feed", now: 1)
    let store = try Store(files: [("feed", try timetables.path(of: "feed"))])
    switch try store.resolveStop(typed) {
    case .found(let stop):
      #expect(stop.id.rawValue == expected, "\(file): '\(typed)'")
    case .ambiguous(let stops):
      #expect(expected == nil, "\(file): '\(typed)' is ambiguous: \(stops.map(\.id.rawValue))")
      if expected == nil { #expect(Set(stops.map(\.id.rawValue)) == ["431", "433", "575", "578"]) }
    case .notFound:
      Issue.record("\(file): '\(typed)' not found")
    }
  }
}
