import Foundation
import GTFS
import GTFSRealtime
import Merge
import Services
import TestSupport
import Testing
import TransitModel

/// The session's `alerts` and `status` answers (issue 33) on the demo timetable, from alerts
/// built here: which are listed, in what order, when each applies, what is remembered as
/// seen, and each route's colour, all worked out from the alerts' own fields.
@Suite struct SessionAlertsTests {
  static let now = DemoTimetable.now
  static let hour: UInt64 = 3600
  static var moment: UInt64 { UInt64(now.seconds) }

  static func text(_ value: String) -> TranslatedString { TranslatedString(translations: [.init(text: value)]) }

  /// Route 27 has no service for an hour either side of now; stop TINT has a detour from two
  /// to three hours ahead; route 77X's detour ended an hour ago.
  static let feed = FeedMessage(entities: [
    FeedEntity(
      id: "upcoming-detour",
      alert: Alert(
        activePeriods: [TimeRange(start: moment + 2 * hour, end: moment + 3 * hour)], informedEntities: [EntitySelector(stopID: "TINT")],
        effect: .detour, headerText: text("Detour at Tallaght"))),
    FeedEntity(
      id: "no-27",
      alert: Alert(
        activePeriods: [TimeRange(start: moment - hour, end: moment + hour)], informedEntities: [EntitySelector(routeID: "R27")],
        effect: .noService, headerText: text("No 27 this morning"))),
    FeedEntity(
      id: "ended-77x",
      alert: Alert(
        activePeriods: [TimeRange(start: moment - 3 * hour, end: moment - hour)], informedEntities: [EntitySelector(routeID: "R77X")],
        effect: .detour, headerText: text("77X detour"))),
  ])

  func session(_ folder: TemporaryFolder, feeds: [FeedMessage] = [feed]) throws -> TransitSession {
    TransitSession(
      store: try DemoTimetable.store(), options: ServiceOptions(), realtime: FixedRealtime(feeds),
      userData: UserDataAccess(directory: folder.path))
  }

  @Test func theAlertsInForceAreListedAndRememberedAsSeen() throws {
    let folder = TemporaryFolder()
    let session = try session(folder)
    let first = try session.alerts(AlertsRequest(), now: Self.now)
    #expect(first.items.map(\.alert.id) == ["no-27"])
    let item = try #require(first.items.first)
    #expect(item.period == .until(UnixTime(Int64(Self.moment + Self.hour))))
    #expect(item.status == .red)
    #expect(item.label == "route 27")
    #expect(item.notice.header == "No 27 this morning")
    #expect(!item.wasSeen)
    #expect(first.unseenCount == 1)
    // Listed once, it is seen the next time; a peek since then changed nothing.
    #expect(try session.alerts(AlertsRequest(remember: false), now: Self.now).items.map(\.wasSeen) == [true])
    #expect(try session.alerts(AlertsRequest(unseenOnly: true), now: Self.now).items.isEmpty)
  }

  @Test func allListsPastAndUpcomingMostSevereFirstAndACountRemembersNothing() throws {
    let folder = TemporaryFolder()
    let session = try session(folder)
    #expect(try session.alerts(AlertsRequest(includeAll: true, countOnly: true), now: Self.now).unseenCount == 1)
    let all = try session.alerts(AlertsRequest(includeAll: true), now: Self.now)
    // No service (severe) before the two detours (warnings), tied, so by id.
    #expect(all.items.map(\.alert.id) == ["no-27", "ended-77x", "upcoming-detour"])
    #expect(all.items.map(\.wasSeen) == [false, false, false])
    #expect(
      all.items.map(\.period) == [
        .until(UnixTime(Int64(Self.moment + Self.hour))),
        .ended(UnixTime(Int64(Self.moment - Self.hour))),
        .upcoming(start: UnixTime(Int64(Self.moment + 2 * Self.hour)), end: UnixTime(Int64(Self.moment + 3 * Self.hour))),
      ])
    #expect(all.groups.map(\.label) == ["route 27", "route 77X", "stop Tallaght Interchange"])
    // The stop filter keeps the alert naming the stop and the routes calling there.
    let atStop = try session.alerts(AlertsRequest(stop: "TINT", includeAll: true, remember: false), now: Self.now)
    #expect(atStop.items.map(\.alert.id).contains("upcoming-detour"))
  }

  @Test func withoutFeedsThereIsNothingToRead() throws {
    let folder = TemporaryFolder()
    #expect(throws: AlertsFailure.nothingToRead) { try session(folder, feeds: []).alerts(AlertsRequest(), now: Self.now) }
    #expect(throws: AlertsFailure.nothingToRead) { try session(folder, feeds: []).status(StatusRequest(), now: Self.now) }
  }

  @Test func statusColoursEachRouteAskedFromTheAlertsInForce() throws {
    let folder = TemporaryFolder()
    let answer = try session(folder).status(StatusRequest(routes: ["27", "77X"]), now: Self.now)
    #expect(answer.scope == .asked)
    #expect(answer.hasAlertsFeed)
    #expect(answer.lines.map(\.name) == ["27", "77X"])
    #expect(answer.lines.map(\.routeID) == ["R27", "R77X"])
    // 27: no service now (red); 77X: its detour has ended (green).
    #expect(answer.lines.map(\.status) == [.red, .green])
    #expect(answer.lines[0].reasons.map(\.alert.id) == ["no-27"])
    #expect(answer.lines[1].reasons.isEmpty)
    // No route asked and no favourite: the routes with an alert in force.
    let alerted = try session(folder).status(StatusRequest(), now: Self.now)
    #expect(alerted.scope == .alerted)
    #expect(alerted.lines.map(\.name) == ["27"])
  }
}
