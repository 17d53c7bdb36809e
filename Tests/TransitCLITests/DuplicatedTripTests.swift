import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// A DUPLICATED trip copies a scheduled trip at a new start, however far from the original's
/// own times.
@Suite struct DuplicatedTripTests {
  let home = DemoHome()

  @Test func aCopyOfAnEarlyTripAppearsAtItsNewTime() throws {
    // 27-WK-0-0600 reaches Tallaght (The Square) at 06:29, long before the window; its copy
    // starting at 07:30 reaches it at 07:59, a minute late.
    let update = TripUpdate(
      trip: TripDescriptor(tripID: "27-WK-0-0600", routeID: "R27", startDate: "20261201", scheduleRelationship: .duplicated),
      stopTimeUpdates: [.init(stopSequence: 10, departure: .init(delay: 60))],
      tripProperties: .init(tripID: "27-EXTRA-0730", startDate: "20261201", startTime: "07:30:00"))
    let feed = FeedMessage(
      header: FeedHeader(gtfsRealtimeVersion: "2.0", timestamp: 1_796_111_880),  // 07:58:00Z
      entities: [FeedEntity(id: "dup", tripUpdate: update)])
    let folder = TemporaryFolder()
    let path = folder.path + "/dup.pb"
    try Data(feed.encoded()).write(to: URL(fileURLWithPath: path))
    let result = home.run([
      "departures", "4530", "--route", "27", "--to", "Tallaght Interchange", "--now", "2026-12-01T07:45:00Z", "--realtime", path,
      "--json",
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let departures = try #require(json["departures"] as? [[String: Any]])
    let copy = try #require(departures.first { $0["trip_id"] as? String == "27-EXTRA-0730" }, "\(result.stdout)")
    #expect(copy["scheduled"] as? String == "2026-12-01T07:59:00+00:00")
    #expect(copy["expected"] as? String == "2026-12-01T08:00:00+00:00")
    #expect(copy["status"] as? String == "added")
  }
}
