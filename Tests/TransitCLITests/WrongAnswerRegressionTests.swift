import Foundation
import GTFS
import GTFSRealtime
import TestSupport
import Testing
import TransitModel

/// Issue 16's wrong answers, each on the real feed it was seen on (shared/data, PROVENANCE.md).
/// Expected values come from the captures themselves (or the timetable's own rows), not from
/// the code under test.
@Suite(.enabled(if: SharedData.path("static/caltrain-2023.zip") != nil, "needs ../shared/data"))
struct CaltrainWrongAnswerTests {
  static let now = "2023-11-08T01:06:05Z"
  static let nowSeconds: Int64 = 1_699_405_565
  var home: String { get throws { try SharedHome.holding("caltrain-2023.zip").path } }
  var tripUpdates: String { SharedData.path("rt/caltrain-tripupdates-20231108T010534Z.pb")! }
  var vehiclePositions: String { SharedData.path("rt/caltrain-vehiclepositions-20231108T010559Z.pb")! }

  func run(_ arguments: [String], realtime: [String]) throws -> CLIResult {
    transit(arguments + ["--data-dir", try home, "--now", Self.now] + realtime.flatMap { ["--realtime", $0] })
  }

  /// The absolute departure (else arrival) time the capture gives trip `tripID` at `stopID`.
  func capturedTime(trip tripID: String, stop stopID: String) throws -> Int64? {
    let feed = try capture("caltrain-tripupdates-20231108T010534Z.pb")
    let update = feed.entities.compactMap(\.tripUpdate).first { $0.trip?.tripID == tripID }
    let stu = update?.stopTimeUpdates.first { $0.stopID == stopID }
    return stu?.departure?.time ?? stu?.arrival?.time
  }

  /// `plan` dropped trip updates whose descriptor carries start_time on a timetabled trip: it
  /// said the L3 leaves Palo Alto at 17:14, not live.
  @Test func planUsesUpdatesWithStartTime() throws {
    let result = try run(["plan", "70172", "70272", "--json"], realtime: [tripUpdates])
    #expect(result.code == 0, "\(result.stderr)")
    let journeys = try #require((result.json as? [String: Any])?["journeys"] as? [[String: Any]])
    let leg = try #require((journeys.first?["legs"] as? [[String: Any]])?.first { $0["type"] as? String == "ride" })
    let tripID = try #require(leg["trip_id"] as? String)
    #expect(tripID == "310")
    #expect(leg["live"] as? Bool == true)
    let departure = try #require((leg["departure"] as? String).flatMap(unixSeconds))
    #expect(departure == (try capturedTime(trip: tripID, stop: "70172")))  // 17:24:36, not 17:14
  }

  /// `follow --trip 310` with trip updates alone showed a timetable estimate although the
  /// update predicts every stop.
  @Test func followTripWithTripUpdatesOnly() throws {
    let result = try run(["follow", "--trip", "310", "--once", "--json"], realtime: [tripUpdates])
    #expect(result.code == 0, "\(result.stderr)")
    let view = try #require(result.json as? [String: Any])
    #expect(view["estimated"] as? Bool == false)
    #expect(view["position_source"] as? String == "trip_update")
    #expect(view["vehicle_id"] as? String == "310")
    let next = try #require(view["next_stops"] as? [[String: Any]])
    try #require(!next.isEmpty)
    var compared = 0
    for stop in next {
      let id = try #require(stop["stop_id"] as? String)
      guard let captured = try capturedTime(trip: "310", stop: id) else { continue }
      #expect((stop["expected"] as? String).flatMap(unixSeconds) == captured, "\(id)")
      compared += 1
    }
    #expect(compared > 0)
  }

  /// `vehicles` with trip updates alone said "0 live vehicles, 13 estimated" with vehicle "-",
  /// although the updates name vehicle 310.
  @Test func vehiclesFromTripUpdatesAlone() throws {
    let result = try run(["vehicles", "--json"], realtime: [tripUpdates])
    #expect(result.code == 0, "\(result.stderr)")
    let views = try #require(result.json as? [[String: Any]])
    let train = try #require(views.first { $0["vehicle_id"] as? String == "310" })
    #expect(train["trip_id"] as? String == "310")
    #expect(train["estimated"] as? Bool == false)
    #expect(train["position_source"] as? String == "trip_update")
    #expect(train["lat"] as? Double != nil)
    let text = try run(["vehicles"], realtime: [tripUpdates])
    #expect(!text.stdout.hasPrefix("0 live vehicles"), "\(text.stdout)")
    #expect(text.stdout.contains("310"))
  }

  /// `follow 310` said unknown vehicle when 310 is named only by a trip update.
  @Test func followVehicleNamedByATripUpdate() throws {
    let result = try run(["follow", "310", "--once", "--json"], realtime: [tripUpdates])
    #expect(result.code == 0, "\(result.stderr)")
    let view = try #require(result.json as? [String: Any])
    #expect(view["vehicle_id"] as? String == "310")
    #expect(view["trip_id"] as? String == "310")
  }

  /// `follow 310 --replay DIR` failed when the first snapshot is a trip-update file.
  @Test func replayStartingWithATripUpdateFile() throws {
    let folder = TemporaryFolder()
    let tripStamp = try #require(try capture("caltrain-tripupdates-20231108T010534Z.pb").header?.timestamp)
    let vehicleStamp = try #require(try capture("caltrain-vehiclepositions-20231108T010559Z.pb").header?.timestamp)
    try #require(tripStamp < vehicleStamp)
    try FileManager.default.copyItem(atPath: tripUpdates, toPath: folder.path + "/\(tripStamp)-trip-updates.pb")
    try FileManager.default.copyItem(atPath: vehiclePositions, toPath: folder.path + "/\(vehicleStamp)-vehicle-positions.pb")
    let result = transit(["follow", "310", "--replay", folder.path, "--speed", "100000", "--json", "--data-dir", try home])
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    for line in lines {
      let view = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(view["vehicle_id"] as? String == "310")
    }
  }

  /// `status L3` said "good service" with no alerts feed at all, while L3 ran late.
  @Test func statusTellsNoAlertsFeedFromNoAlertsAndCountsLateness() throws {
    let late = try run(["status", "L3", "--json"], realtime: [tripUpdates])
    #expect(late.code == 0, "\(late.stderr)")
    let line = try #require((late.json as? [[String: Any]])?.first)
    #expect(line["alerts_feed"] as? Bool == false)
    #expect(line["status"] as? String == "yellow")
    // 310 at its next stop (Hillsdale, 70112): expected minus the timetable's departure there.
    let store = try Store(directory: home)
    let calls = try store.tripCalls(TripID("310"), feed: FeedName("real"), serviceDate: try #require(ServiceDate(gtfs: "20231107")))
    let hillsdale = try #require(calls.first { $0.stopID == StopID("70112") })
    let expected = try #require(try capturedTime(trip: "310", stop: "70112"))
    let delay = expected - (hillsdale.departure ?? hillsdale.arrival)!.seconds
    #expect(delay >= 120)
    #expect((line["late_trips"] as? Int ?? 0) >= 1)
    let text = try run(["status", "L3"], realtime: [tripUpdates])
    #expect(text.stdout.contains("yellow"))
    #expect(text.stdout.contains("no alerts feed"))
    #expect(text.stdout.contains("\((delay + 30) / 60) min"), "\(text.stdout)")

    let empty = SharedData.path("rt/caltrain-alerts-20231108T010546Z-empty.pb")!
    let quiet = try run(["status", "L3"], realtime: [empty])
    #expect(quiet.stdout == "L3  green   good service\n")
  }

  /// `commute --to` matched a substring ("South San Francisco Caltrain Station" contains "San
  /// Francisco Caltrain Station") and took the arrival there; `--to 70011` found nothing.
  @Test func commuteDestinationIsAStop() throws {
    let folder = TemporaryFolder()
    let zip = try #require(SharedData.path("static/caltrain-2023.zip"))
    #expect(transit(["ingest", zip, "--feed", "real", "--quiet", "--data-dir", folder.path]).code == 0)
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", folder.path]) }
    let store = try Store(directory: folder.path)
    let date = try #require(ServiceDate(gtfs: "20231108"))
    // San Francisco's platforms, from the timetable's own station.
    let sf = try #require(try store.stop(StopID("san_francisco"), feed: FeedName("real")))
    let platforms = Set(try store.platforms(of: sf).map(\.id))
    try #require(platforms == [StopID("70011"), StopID("70012")])
    for (name, destination) in [("byname", "San Francisco Caltrain Station"), ("byid", "70011")] {
      let add = run(["commute", "add", name, "--stop", "palo_alto", "--to", destination, "--arrive-by", "08:30", "--days", "daily"])
      #expect(add.code == 0, "\(add.stderr)")
      let plan = run(["commute", name, "--date", "2023-11-08", "--now", "2023-11-08T01:06:05Z", "--json"])
      #expect(plan.code == 0, "\(plan.stderr)")
      let options = try #require(((plan.json as? [[String: Any]])?.first?["options"]) as? [[String: Any]])
      let recommended = try #require(options.first { $0["recommended"] as? Bool == true }, "\(name)")
      let departure = try #require(recommended["departure"] as? [String: Any])
      let tripID = try #require(departure["trip_id"] as? String)
      let calls = try store.tripCalls(TripID(tripID), feed: FeedName("real"), serviceDate: date)
      let wanted: Set<StopID> = name == "byid" ? [StopID("70011")] : platforms
      let arrival = try #require(calls.first { wanted.contains($0.stopID) }.flatMap { $0.arrival ?? $0.departure })
      #expect((recommended["arrives"] as? String).flatMap(unixSeconds) == arrival.seconds, "\(name)")
      // 08:30 PST on 2023-11-08 is 16:30 UTC.
      #expect(arrival.seconds <= 1_699_461_000, "\(name): arrives after the deadline")
    }
  }
}

@Suite(.enabled(if: SharedData.path("static/bart-2019.zip") != nil, "needs ../shared/data"))
struct BARTWrongAnswerTests {
  var home: String { get throws { try SharedHome.holding("bart-2019.zip").path } }

  /// `follow --route Yellow --stop MONT` picked a train already past Montgomery.
  @Test func followRouteAtStopPicksTheNextToArrive() throws {
    let path = try #require(SharedData.path("rt/bart-tripupdates-20190807T174521Z.pb"))
    let feed = try capture("bart-tripupdates-20190807T174521Z.pb")
    let now = Int64(try #require(feed.header?.timestamp))
    let store = try Store(directory: home)
    // The Yellow trip whose update has it at Montgomery soonest, not before now.
    var best: (time: Int64, trip: String)?
    for update in feed.entities.compactMap(\.tripUpdate) {
      guard let tripID = update.trip?.tripID, let details = try store.tripDetails(TripID(tripID)),
        details.route.shortName == "Yellow" || details.route.id.rawValue == "Yellow",
        let stu = update.stopTimeUpdates.first(where: { $0.stopID == "MONT" }),
        let time = stu.departure?.time ?? stu.arrival?.time, time >= now
      else { continue }
      if best == nil || time < best!.time { best = (time, tripID) }
    }
    let expected = try #require(best)
    let result = transit([
      "follow", "--route", "Yellow", "--stop", "MONT", "--once", "--json", "--realtime", path, "--now", "@\(now)", "--data-dir", try home,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let view = try #require(result.json as? [String: Any])
    #expect(view["trip_id"] as? String == expected.trip)
    let montgomery = (view["next_stops"] as? [[String: Any]])?.first { $0["stop_id"] as? String == "MONT" }
    let text = try #require(montgomery?["expected"] as? String)
    let at = try #require(unixSeconds(text))
    #expect(at >= now)
  }

  /// BART 2022 trip updates on the 2019 timetable: "realtime: fresh", then no live rows, and
  /// nothing said that 0 of 73 updates matched.
  @Test func saysWhenAFeedMatchesNothing() throws {
    let path = try #require(SharedData.path("rt/bart-tripupdates-20220107T020902Z.pb"))
    let feed = try capture("bart-tripupdates-20220107T020902Z.pb")
    let count = feed.entities.filter { ($0.tripUpdate?.trip?.tripID ?? "").isEmpty == false }.count
    #expect(count == 73)
    let now = "@\(try #require(feed.header?.timestamp))"
    let text = transit(["departures", "MONT", "--realtime", path, "--now", now, "--data-dir", try home])
    #expect(text.code == 0, "\(text.stderr)")
    #expect(text.stderr.contains("\(count) trip updates, none match this timetable: is it the right feed?"), "\(text.stderr)")
    #expect(text.stdout.contains("0 of \(count) trip updates matched"))
    let json = transit(["departures", "MONT", "--realtime", path, "--now", now, "--data-dir", try home, "--json"])
    let realtime = try #require((json.json as? [String: Any])?["realtime"] as? [String: Any])
    #expect((realtime["trip_updates"] as? [String: Any])?["total"] as? Int == count)
    #expect((realtime["trip_updates"] as? [String: Any])?["matched"] as? Int == 0)
    #expect((realtime["warnings"] as? [String])?.count == 1)
  }
}
