import Foundation
import TestSupport
import Testing

/// Trips a realtime feed adds (ADDED/NEW: not in the timetable) are vehicles too: `vehicles`
/// lists them and `follow --trip` follows them. BART's 2019-08-07 trip updates add 8 trips;
/// 1051042WKDY runs Shay … Balboa Park with absolute times (hand-read from `rt dump`): it
/// left SHAY at 1565199970 and reaches HAYW (stop_sequence 2) at 1565200170, leaving 1565200180.
@Suite(.enabled(if: SharedData.path("static/bart-2019.zip") != nil, "needs ../shared/data")) struct AddedTripTests {
  let capture = SharedData.path("rt/bart-tripupdates-20190807T174521Z.pb") ?? ""
  // 2019-08-07T17:48:20Z: between SHAY and HAYW.
  let now = "@1565200100"

  @Test func followsATripTheFeedAdds() throws {
    let home = try SharedHome.holding("bart-2019.zip", as: "bart")
    let run = transit(["follow", "--trip", "1051042WKDY", "--realtime", capture, "--now", now, "--once", "--json", "--data-dir", home.path])
    #expect(run.code == 0, "\(run.stderr)")
    let view = try #require(run.json as? [String: Any])
    #expect(view["trip_id"] as? String == "1051042WKDY")
    #expect(view["added"] as? Bool == true)
    #expect(view["estimated"] as? Bool == false)
    #expect(view["route_id"] is NSNull)
    #expect(view["current_stop_id"] as? String == "HAYW")
    let next = try #require((view["next_stops"] as? [[String: Any]])?.first)
    // 1565200180 is 17:49:40Z, 10:49:40 in Pacific daylight time.
    #expect(next["stop_id"] as? String == "HAYW")
    #expect(next["expected"] as? String == "2019-08-07T10:49:40-07:00")
  }

  @Test func theListShowsAddedTripsAsLive() throws {
    let home = try SharedHome.holding("bart-2019.zip", as: "bart")
    let run = transit(["vehicles", "--realtime", capture, "--now", now, "--json", "--data-dir", home.path])
    #expect(run.code == 0, "\(run.stderr)")
    let views = try #require(run.json as? [[String: Any]])
    let added = views.filter { $0["added"] as? Bool == true }.compactMap { $0["trip_id"] as? String }
    #expect(added.contains("1051042WKDY"))
    // 9611018WKDY's update lists one stop only (DELN, 1565199930/40): nothing to place it between.
    #expect(!added.contains("9611018WKDY"))
    let text = transit(["vehicles", "--realtime", capture, "--now", now, "--data-dir", home.path])
    #expect(text.stdout.contains("live, not in timetable, placed by its trip update"))
  }

  @Test func aTripNeitherTheTimetableNorTheFeedHasIsUnknown() throws {
    let home = try SharedHome.holding("bart-2019.zip", as: "bart")
    let run = transit(["follow", "--trip", "NOPE", "--realtime", capture, "--now", now, "--once", "--data-dir", home.path])
    #expect(run.code != 0)
    #expect(run.stderr == "transit: unknown trip 'NOPE': not in the timetable, and no realtime feed adds it\n")
  }
}
