import Foundation
import TestSupport
import Testing
import TransitModel

@testable import GTFS

/// What a rider types at a STOP argument (issue 17, "Names"). The expected stop ids were read
/// from each ZIP's stops.txt by hand.
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct StopResolutionTests {
  static let cases: [(file: String, typed: String, expected: String)] = [
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
    // Four stops named "3rd Ave & Pike St" (431, 433, 575, 578), no station, at most 160 m
    // apart by their stops.txt rows: one complex (issue 32), written as its parts with "+".
    ("kcm-vp-subset-2021.zip", "3rd Ave & Pike St", "431+433+575+578"),
  ]

  @Test(arguments: cases)
  func resolves(file: String, typed: String, expected: String) throws {
    let store = try IngestedFeeds.store(file, as: "feed")
    switch try store.resolveStop(typed) {
    case .found(let stop):
      #expect(stop.id.rawValue == expected, "\(file): '\(typed)'")
    case .complex(let complex):
      #expect(complex.parts.map(\.id.rawValue).joined(separator: "+") == expected, "\(file): '\(typed)'")
    case .ambiguous(let stops):
      Issue.record("\(file): '\(typed)' is ambiguous: \(stops.map(\.id.rawValue))")
    case .notFound:
      Issue.record("\(file): '\(typed)' not found")
    }
  }
}

/// Stops of one name are told apart in lists (issue 17): KCM's four "3rd Ave & Pike St" by
/// their stop_desc (read from stops.txt by hand), the demo's two "Belgard Road" by the routes
/// and destinations they serve.
@Suite struct DistinguishingLabelTests {
  @Test(.enabled(if: SharedData.path("static/kcm-vp-subset-2021.zip") != nil, "needs ../shared/data"))
  func kingCountyByDescription() throws {
    let store = try IngestedFeeds.store("kcm-vp-subset-2021.zip", as: "feed")
    // The four are one complex now (issue 32); its parts are what a list tells apart.
    guard case .complex(let complex) = try store.resolveStop("3rd Ave & Pike St") else {
      Issue.record("four stops share the name")
      return
    }
    let stops = complex.parts
    #expect(
      try store.distinguishingLabels(stops) == [
        "South side stop in Seattle (Stop ID 431)", "South side stop in Seattle (Stop ID 433)",
        "North side stop in Seattle (Stop ID 575)", "North side stop in Seattle (Stop ID 578)",
      ])
  }

  @Test func theDemoByRoutesAndAUniqueNameByNothing() throws {
    let store = try demoStore()
    let belgard = try [StopID("TD4564"), StopID("TD4565")].map { try #require(try store.stop($0, feed: "demo")) }
    let square = try #require(try store.stop("TD4530", feed: "demo"))
    // The 54A towards Kingswood calls at TD4564, towards Killinarden at TD4565 (trips.txt).
    #expect(try store.distinguishingLabels(belgard + [square]) == ["54A to Kingswood", "54A to Killinarden", nil])
  }
}
