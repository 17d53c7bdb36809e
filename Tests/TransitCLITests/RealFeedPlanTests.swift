import Foundation
import GTFS
import TestSupport
import Testing
import TransitModel

/// `transit plan --json` on real feeds: random stop pairs on a weekday of each feed's service
/// range; every journey returned must agree with the timetable. Each ride's trip serves its
/// boarding and alighting stops at the times given (read back with `Store.tripCalls`, not
/// through the router's arrays); legs follow one another in time; walks take at least the
/// walking time of their distance (unless the feed has transfers.txt, whose times win).
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct RealFeedPlanTests {
  static let feeds = ["caltrain-2023.zip", "bart-2023.zip", "cairns-2014.zip", "trimet-2routes-2021.zip", "wmata-rail-2026.zip"]

  static func parse(_ text: Any?) -> Int64? {
    guard let text = text as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
  }

  @Test(arguments: feeds)
  func journeysAgreeWithTheTimetable(_ feed: String) throws {
    let folder = try RealHome(feed, as: "real")
    let meta = try #require(try Timetables(directory: folder.path).list().first).meta
    let hasTransfers = Int(meta["rows.transfers.txt"] ?? "0") ?? 0 > 0
    let store = try Store(directory: folder.path)
    let zone = store.timeZone(of: FeedName("real"))
    let centre = try #require(try store.networkCentre())
    let stops = try store.nearby(centre, radiusMeters: 300_000, limit: 400).filter { !$0.routes.isEmpty }.map(\.stop)
    try #require(stops.count >= 2)
    // A Tuesday with service: after the middle of the range, else from its start (feed_info's
    // range may be wider than the calendars').
    let start = try #require(ServiceDate(gtfs: meta["service_start"] ?? ""))
    let end = try #require(ServiceDate(gtfs: meta["service_end"] ?? ""))
    let middle = start.adding(days: max(0, end.daysSinceEpoch - start.daysSinceEpoch) / 2)
    let candidates = (0..<7).map { middle.adding(days: $0) } + (0..<120).map { start.adding(days: $0) }
    let date = try #require(
      try candidates.first { day in
        guard day.weekday == 2 else { return false }
        let noon = store.serviceDayStart(day, feed: FeedName("real")) + 12 * 3600
        return try stops.prefix(10).contains { stop in
          !(try store.departures(at: stop, DepartureQuery(from: noon - 4 * 3600, until: noon + 4 * 3600, limit: 1))).isEmpty
        }
      })

    var random = SplitMix64(state: 1012)
    var found = 0
    for query in 0..<12 {
      let from = stops[Int.random(in: 0..<stops.count, using: &random)]
      let to = stops[Int.random(in: 0..<stops.count, using: &random)]
      guard from.id != to.id else { continue }
      let hour = [7, 8, 12, 17, 21][query % 5]
      let result = transit([
        "plan", from.id.rawValue, to.id.rawValue, "--date",
        "\(date.year)-\(date.month < 10 ? "0" : "")\(date.month)-\(date.day < 10 ? "0" : "")\(date.day)",
        query % 3 == 2 ? "--arrive-by" : "--depart", "\(hour < 10 ? "0" : "")\(hour):00", "--json", "--data-dir", folder.path,
        "--now", "\(date.year)-\(date.month < 10 ? "0" : "")\(date.month)-\(date.day < 10 ? "0" : "")\(date.day)T06:00:00Z",
      ])
      try #require(result.code == 0, "\(from.id) → \(to.id): \(result.stderr)")
      let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      let journeys = try #require(document["journeys"] as? [[String: Any]])
      found += journeys.isEmpty ? 0 : 1
      for journey in journeys {
        try check(journey, store: store, zone: zone, hasTransfers: hasTransfers, label: "\(feed) \(from.id) → \(to.id) at \(hour):00")
      }
    }
    #expect(found >= 3, "\(feed): only \(found) of 12 queries found a journey")
  }

  func check(_ journey: [String: Any], store: Store, zone: LocalZone, hasTransfers: Bool, label: String) throws {
    let legs = try #require(journey["legs"] as? [[String: Any]])
    var clock = try #require(Self.parse(journey["departure"]))
    var previousWasRide = false
    for leg in legs {
      let departure = try #require(Self.parse(leg["departure"]))
      let arrival = try #require(Self.parse(leg["arrival"]))
      #expect(departure >= clock, "\(label): a leg leaves before the one before it ends")
      #expect(arrival >= departure, "\(label): a leg ends before it starts")
      if leg["type"] as? String == "ride" {
        let tripID = TripID(try #require(leg["trip_id"] as? String))
        let serviceDateText = try #require(leg["service_date"] as? String)
        let serviceDate = try #require(ServiceDate(gtfs: serviceDateText))
        let startTime = (leg["start_time"] as? String).flatMap { ServiceTime(gtfs: $0) }
        let calls = try store.tripCalls(tripID, feed: FeedName("real"), serviceDate: serviceDate, startTime: startTime)
        let fromID = try #require((leg["from"] as? [String: Any])?["stop_id"] as? String)
        let toID = try #require((leg["to"] as? [String: Any])?["stop_id"] as? String)
        let board = calls.firstIndex { $0.stopID.rawValue == fromID && $0.stopSequence == leg["from_stop_sequence"] as? Int }
        let alight = calls.firstIndex { $0.stopID.rawValue == toID && $0.stopSequence == leg["to_stop_sequence"] as? Int }
        let boardIndex = try #require(board, "\(label): \(tripID) does not call at \(fromID)")
        let alightIndex = try #require(alight, "\(label): \(tripID) does not call at \(toID)")
        #expect(boardIndex < alightIndex, "\(label): \(tripID) reaches \(toID) before \(fromID)")
        #expect(
          (calls[boardIndex].departure ?? calls[boardIndex].arrival)?.seconds == departure,
          "\(label): \(tripID) leaves \(fromID) at another time")
        #expect(
          (calls[alightIndex].arrival ?? calls[alightIndex].departure)?.seconds == arrival,
          "\(label): \(tripID) reaches \(toID) at another time")
        #expect(leg["stops"] as? Int == alightIndex - boardIndex)
        previousWasRide = true
      } else {
        let seconds = try #require(leg["duration_seconds"] as? Int)
        #expect(arrival - departure == Int64(seconds))
        if previousWasRide, !hasTransfers, let meters = leg["distance_m"] as? Int {
          // distance_m is the straight line times the detour; at 1.3 m/s.
          #expect(Double(seconds) >= Double(meters) / 1.3 - 2, "\(label): a \(meters) m walk in \(seconds) s")
        }
        previousWasRide = false
      }
      clock = arrival
    }
    #expect(clock == Self.parse(journey["arrival"]), "\(label): the last leg does not end at the arrival")
  }
}
