import GTFSRealtime
import Testing
import TransitModel

@testable import Merge

@Suite struct AlertMatcherTests {
  typealias B = Build

  static func alert(
    _ id: String, _ selectors: [EntitySelector], periods: [TimeRange] = [], header: TranslatedString? = nil
  )
    -> FeedEntity
  {
    FeedEntity(
      id: id,
      alert: Alert(activePeriods: periods, informedEntities: selectors, effect: .detour, headerText: header ?? text(id)))
  }

  static func text(_ value: String) -> TranslatedString { TranslatedString(translations: [.init(text: value)]) }

  let scope = AlertScope(routeIDs: ["R1"], routeTypes: [3], stopIDs: ["A", "A-1"], tripIDs: ["T1"])

  @Test func everyFieldASelectorSetsMustMatch() {
    let feed = FeedMessage(entities: [
      Self.alert("route", [EntitySelector(routeID: "R1")]),
      Self.alert("other-route", [EntitySelector(routeID: "R2")]),
      Self.alert("route-at-stop", [EntitySelector(routeID: "R1", stopID: "A-1")]),
      Self.alert("route-elsewhere", [EntitySelector(routeID: "R1", stopID: "Z")]),
      Self.alert("trip", [EntitySelector(trip: TripDescriptor(tripID: "T1"))]),
      Self.alert("mode", [EntitySelector(routeType: 3)]),
      Self.alert("agency", [EntitySelector(agencyID: "TDT")]),
      Self.alert("empty-selector", [EntitySelector()]),
      Self.alert("second-selector", [EntitySelector(stopID: "Q"), EntitySelector(stopID: "A")]),
    ])
    let ids = AlertMatcher.notices(in: [feed], scope: scope, at: B.now).map(\.id)
    #expect(ids == ["route", "route-at-stop", "trip", "mode", "agency", "second-selector"])
    var narrow = scope
    narrow.agencyIDs = ["OTHER"]
    #expect(!AlertMatcher.notices(in: [feed], scope: narrow, at: B.now).map(\.id).contains("agency"))
  }

  @Test func onlyActivePeriodsCount() {
    let now = UInt64(B.now.seconds)
    let feed = FeedMessage(entities: [
      Self.alert("now", [EntitySelector(routeID: "R1")], periods: [TimeRange(start: now - 60, end: now + 60)]),
      Self.alert("open-ended", [EntitySelector(routeID: "R1")], periods: [TimeRange(start: now - 60)]),
      Self.alert("past", [EntitySelector(routeID: "R1")], periods: [TimeRange(start: now - 120, end: now - 60)]),
      Self.alert("future", [EntitySelector(routeID: "R1")], periods: [TimeRange(start: now + 60)]),
    ])
    #expect(AlertMatcher.notices(in: [feed], scope: scope, at: B.now).map(\.id) == ["now", "open-ended"])
  }

  @Test func textsInTheLanguageWanted() {
    let header = TranslatedString(translations: [.init(text: "Déviation", language: "fr"), .init(text: "Detour", language: "en")])
    let feed = FeedMessage(entities: [Self.alert("a", [EntitySelector(routeID: "R1")], header: header)])
    #expect(AlertMatcher.notices(in: [feed], scope: scope, at: B.now, language: "fr").map(\.header) == ["Déviation"])
    #expect(AlertMatcher.notices(in: [feed], scope: scope, at: B.now, language: "en").map(\.header) == ["Detour"])
    #expect(AlertMatcher.notices(in: [feed], scope: scope, at: B.now, language: "de").map(\.header) == ["Déviation"])
  }
}
