import GTFS
import Services
import Testing
import TransitModel

/// The session's lookup of a STOP argument (issue 33) on the demo network, against what
/// Data/gtfs/stops.txt holds.
@Suite struct SessionPlaceTests {
  func session() throws -> TransitSession { TransitSession(store: try DemoTimetable.store(), options: ServiceOptions()) }

  @Test func aNameSharedByAStationAndItsPlatformsIsTheStation() throws {
    // stops.txt: TINT (location_type 1) and its platforms TINT-A, -B, -C are all "Tallaght Interchange".
    let lookup = try session().place(named: "Tallaght Interchange")
    guard case .found(.stop(let stop)) = lookup.outcome else {
      Issue.record("\(lookup.outcome)")
      return
    }
    #expect(stop.id == StopID("TINT"))
    #expect(lookup.placeCount == nil && lookup.reach == nil)
  }

  @Test func twoStopsOfOneNameCloseTogetherAreAComplexWhosePartsAreToldApart() throws {
    // stops.txt: TD4564 and TD4565 are both "Belgard Road", with no station, about 25 m apart
    // (53.295000,-6.371800 and 53.294900,-6.372150): one place (DESIGN.md, complexes).
    let lookup = try session().place(named: "Belgard Road")
    guard case .found(.complex(let complex)) = lookup.outcome else {
      Issue.record("\(lookup.outcome)")
      return
    }
    #expect(complex.name == "Belgard Road")
    #expect(complex.parts.map(\.id.rawValue) == ["TD4564", "TD4565"])
    // A command taking one stop lists the parts, each with what tells it apart.
    #expect(lookup.candidates.map(\.stop) == complex.parts)
    let labels = lookup.candidates.map(\.label)
    #expect(labels.allSatisfy { $0 != nil })
    #expect(Set(labels).count == 2)
    #expect(!lookup.namesFeed)
  }

  @Test func aCodeIsOneStopAndANameNothingHasIsNotFound() throws {
    let byCode = try session().place(named: "4565")
    #expect(byCode.outcome == .found(.stop(try #require(try DemoTimetable.store().stop(StopID("TD4565"), feed: FeedName("demo"))))))
    let missing = try session().place(named: "Nowhere At All 123")
    #expect(missing.outcome == .notFound)
  }
}
