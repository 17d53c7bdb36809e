import Foundation
import GTFS
import GTFSRealtime
import Services
import TestSupport
import Testing
import TransitModel

@testable import TransitCLI

private func json(_ result: CLIResult) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
}

/// `plan --accessible` searches with accessible stops and trips only (issue 21). The feed
/// (UTC, every day): stops Alpha (wheelchair_boarding 1), Bravo (2), Charlie (1), Delta
/// (empty, no station), station Sierra (1) whose platform S1 says 0 (inherits 1); each stop
/// about 1.1 km from the next, too far to walk between (400 m at most).
///
///   F  Alpha 08:05 → Charlie 08:20       trip wheelchair_accessible 2
///   E1 Alpha 08:07 → Bravo 08:12         1; E2 Bravo 08:14 → Charlie 08:25   1 (Bravo is 2)
///   U  Alpha 07:58 → Charlie 08:30       empty (unknown)
///   V  Alpha 07:59 → Delta 08:09         1; W Delta 08:10 → Charlie 08:30    1 (Delta unknown)
///   G  Alpha 08:00 → Sierra S1 08:20     1; H S1 08:28 → Charlie 08:40       1
///   X  Alpha 09:00 → Charlie 09:20       1
///
/// Leaving after 07:55, the fastest is F (arriving 08:20). With --accessible only G, H and X
/// are usable: G then H, leaving 08:00 and arriving 08:40, then X alone (09:00 → 09:20).
/// Searching without the filter and keeping accessible results cannot find G + H: F leaves
/// later and arrives earlier, so every search from 07:55 on returns F or later journeys.
@Suite struct AccessiblePlanTests {
  static func home() throws -> TemporaryFolder {
    let home = TemporaryFolder()
    try ingest(
      [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Step Free,https://example.org,UTC\n",
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding,platform_code
        A,Alpha,10.00,10.0,0,,1,
        B,Bravo,10.01,10.0,0,,2,
        C,Charlie,10.05,10.0,0,,1,
        D,Delta,10.02,10.0,0,,,
        S,Sierra,10.03,10.0,1,,1,
        S1,Sierra,10.0301,10.0,0,S,0,1

        """,
        "routes.txt": "route_id,route_short_name,route_type\nF,F,3\nE,E,3\nU,U,3\nV,V,3\nG,G,3\nH,H,3\nX,X,3\n",
        "calendar.txt":
          "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20260101,20271231\n",
        "trips.txt": """
        route_id,service_id,trip_id,trip_headsign,wheelchair_accessible
        F,S,F1,Charlie,2
        E,S,E1,Bravo,1
        E,S,E2,Charlie,1
        U,S,U1,Charlie,
        V,S,V1,Delta,1
        V,S,W1,Charlie,1
        G,S,G1,Sierra,1
        H,S,H1,Charlie,1
        X,S,X1,Charlie,1

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        F1,08:05:00,08:05:00,A,1
        F1,08:20:00,08:20:00,C,2
        E1,08:07:00,08:07:00,A,1
        E1,08:12:00,08:12:00,B,2
        E2,08:14:00,08:14:00,B,1
        E2,08:25:00,08:25:00,C,2
        U1,07:58:00,07:58:00,A,1
        U1,08:30:00,08:30:00,C,2
        V1,07:59:00,07:59:00,A,1
        V1,08:09:00,08:09:00,D,2
        W1,08:10:00,08:10:00,D,1
        W1,08:30:00,08:30:00,C,2
        G1,08:00:00,08:00:00,A,1
        G1,08:20:00,08:20:00,S1,2
        H1,08:28:00,08:28:00,S1,1
        H1,08:40:00,08:40:00,C,2
        X1,09:00:00,09:00:00,A,1
        X1,09:20:00,09:20:00,C,2

        """,
      ], into: home)
    return home
  }

  static let when = ["--depart", "07:55", "--date", "2026-06-01", "--now", "2026-06-01T07:50:00Z"]

  static func rides(_ journey: [String: Any]) -> [String] {
    (journey["legs"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "ride" }.compactMap { $0["trip_id"] as? String }
  }

  @Test func withoutTheFilterTheFastestIsInaccessible() throws {
    let home = try Self.home()
    let journeys = try #require(
      try json(transit(["plan", "Alpha", "Charlie", "--json", "--data-dir", home.path] + Self.when))["journeys"] as? [[String: Any]])
    #expect(journeys.first.map(Self.rides) == ["F1"])
    #expect(journeys.first?["arrival"] as? String == "2026-06-01T08:20:00Z")
  }

  @Test func theRouterUsesOnlyAccessibleStopsAndTrips() throws {
    let home = try Self.home()
    let result = transit(["plan", "Alpha", "Charlie", "--accessible", "--json", "--data-dir", home.path] + Self.when)
    let journeys = try #require(try json(result)["journeys"] as? [[String: Any]])
    #expect(journeys.map(Self.rides) == [["G1", "H1"], ["X1"]])
    #expect(journeys.map { $0["departure"] as? String } == ["2026-06-01T08:00:00Z", "2026-06-01T09:00:00Z"])
    #expect(journeys.map { $0["arrival"] as? String } == ["2026-06-01T08:40:00Z", "2026-06-01T09:20:00Z"])
    // The raw values per ride: G1 says 1; Alpha says 1; S1 says 0 and inherits Sierra's 1.
    let first = try #require((journeys.first?["legs"] as? [[String: Any]])?.first { $0["trip_id"] as? String == "G1" })
    #expect(first["wheelchair_accessible"] as? Int == 1)
    #expect(first["from_wheelchair_boarding"] as? Int == 1)
    #expect(first["to_wheelchair_boarding"] as? Int == 0)
    #expect(first["to_wheelchair_access"] as? String == "accessible")
    #expect(first["accessible"] as? Bool == true)
  }

  /// The text: ♿ after each accessible ride's destination (W in plain ASCII), none on F1
  /// (trip 2), E1 (alights at Bravo, 2) or U1 (unknown).
  @Test func ridesAreMarked() throws {
    let home = try Self.home()
    let accessible = transit(["plan", "Alpha", "Charlie", "--accessible", "--limit", "1", "--data-dir", home.path] + Self.when)
    try #require(accessible.code == 0, "\(accessible.stderr)")
    #expect(
      accessible.stdout == """
        Alpha -> Charlie · leave after 07:55

        1. 08:00 -> 08:40 · 40 min · 1 transfer · leave in 10 min
          08:00  G towards Sierra ♿ from Alpha
          08:20  get off at Sierra platform 1 (1 stop)
          08:28  H towards Charlie ♿ from Sierra platform 1
          08:40  get off at Charlie (1 stop)
          08:40  arrive at Charlie

        """)
    let plain = transit(
      ["plan", "Alpha", "Charlie", "--accessible", "--limit", "1", "--data-dir", home.path] + Self.when, environment: ["LC_ALL": "C"])
    #expect(plain.stdout.contains("G towards Sierra W from Alpha"))
    let any = transit(["plan", "Alpha", "Charlie", "--limit", "5", "--data-dir", home.path] + Self.when).stdout
    #expect(any.contains("F towards Charlie from Alpha\n"))
    #expect(any.contains("E towards Bravo from Alpha\n"))
    #expect(!any.contains("U towards Charlie ♿"))
  }

  @Test func helpSaysUnknownIsNotAccessible() {
    let help = transit(["plan", "--help"]).stdout
    #expect(help.contains("what the feed does not say counts as not accessible"))
  }
}

/// Express footnotes in `timetable` (issue 21). Route R, direction 0, on a Monday: Alpha,
/// Bravo, Charlie, Delta, Echo in turn. L1, L2, L3 call everywhere (the usual pattern: three
/// trips); X1 calls at Alpha, Delta, Echo (skips Bravo, Charlie); X2 at Alpha, Charlie, Echo
/// (skips Bravo, Delta); S1 at Alpha, Bravo only (short: ends early, skips nothing); direction
/// 1's Y1 calls at Echo, Alpha (its direction's only pattern: nothing to skip).
@Suite struct ExpressFootnoteTests {
  static func home() throws -> TemporaryFolder {
    let home = TemporaryFolder()
    let stops = ["A": "Alpha", "B": "Bravo", "C": "Charlie", "D": "Delta", "E": "Echo"]
    var stopRows = "stop_id,stop_name,stop_lat,stop_lon\n"
    for (index, id) in ["A", "B", "C", "D", "E"].enumerated() { stopRows += "\(id),\(stops[id]!),10.0\(index),10.0\n" }
    var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
    func trip(_ id: String, _ calls: [(String, String)]) {
      for (index, call) in calls.enumerated() { times += "\(id),\(call.1):00,\(call.1):00,\(call.0),\(index + 1)\n" }
    }
    for (id, hour) in [("L1", "07"), ("L2", "08"), ("L3", "09")] {
      trip(id, [("A", "\(hour):00"), ("B", "\(hour):05"), ("C", "\(hour):10"), ("D", "\(hour):15"), ("E", "\(hour):20")])
    }
    trip("X1", [("A", "07:30"), ("D", "07:40"), ("E", "07:45")])
    trip("X2", [("A", "08:30"), ("C", "08:38"), ("E", "08:45")])
    trip("S1", [("A", "09:30"), ("B", "09:35")])
    trip("Y1", [("E", "10:00"), ("A", "10:20")])
    try ingest(
      [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Express,https://example.org,UTC\n",
        "stops.txt": stopRows,
        "routes.txt": "route_id,route_short_name,route_type\nR,9,3\n",
        "calendar.txt":
          "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20260101,20271231\n",
        "trips.txt": "route_id,service_id,trip_id,trip_headsign,direction_id\n"
          + ["L1", "L2", "L3", "X1", "X2", "S1"].map { "R,S,\($0),Echo,0\n" }.joined() + "R,S,Y1,Alpha,1\n",
        "stop_times.txt": times,
      ], into: home)
    return home
  }

  @Test func expressTripsAreFootnoted() throws {
    let home = try Self.home()
    let result = transit(["timetable", "A", "--date", "2026-06-01", "--data-dir", home.path], environment: ["COLUMNS": "40"])
    try #require(result.code == 0, "\(result.stderr)")
    // S1 stops short at Bravo: nothing skipped (and its headsign is the block's). Marks in
    // order of first use: X1 (07:30) "a", X2 (08:30) "b". Y1 (direction 1) ends here: the
    // timetable lists departures only.
    #expect(
      result.stdout == """
        Alpha · timetable for 2026-06-01 (Monday)

        9 to Echo (direction 0) · 6 departures
        07 │ 00  30a
        08 │ 00  30b
        09 │ 00  30
          a: skips Bravo and Charlie
          b: skips Bravo and Delta

        """)
    // At Charlie X2 calls and skips Delta; X1 does not call there.
    let charlie = transit(["timetable", "C", "--date", "2026-06-01", "--json", "--data-dir", home.path])
    let block = try #require((try json(charlie)["blocks"] as? [[String: Any]])?.first)
    #expect((block["footnotes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["skips Delta"])
  }

  @Test func skippedStopsByHand() {
    func stop(_ id: String, parent: String? = nil) -> TransitModel.Stop {
      Stop(feed: FeedName("f"), id: StopID(id), code: nil, name: id, coordinate: nil, parentStation: parent.map { StopID($0) })
    }
    let usual = ["A", "B", "C", "D", "E"].map { stop($0) }
    // Ahead of A, up to E: B and C are passed.
    #expect(
      TimetableGrid.skippedStops(trip: ["A", "D", "E"].map { stop($0) }, usual: usual, at: StopID("A")).map(\.id.rawValue) == ["B", "C"])
    // Only stops ahead count: from D nothing is skipped.
    #expect(TimetableGrid.skippedStops(trip: ["A", "D", "E"].map { stop($0) }, usual: usual, at: StopID("D")).isEmpty)
    // Another platform of the same station is the same place.
    let platforms = [stop("A"), stop("B2", parent: "BS"), stop("C")]
    let usualByStation = [stop("A"), stop("B1", parent: "BS"), stop("C")]
    #expect(TimetableGrid.skippedStops(trip: platforms, usual: usualByStation, at: StopID("A")).isEmpty)
    // A trip leaving the usual line after B skips nothing.
    #expect(TimetableGrid.skippedStops(trip: ["A", "B", "Z"].map { stop($0) }, usual: usual, at: StopID("A")).isEmpty)
    #expect(TimetableGrid.skipText([stop("P"), stop("Q"), stop("R"), stop("S"), stop("T")]) == "skips P, Q, R and 2 more")
    #expect(TimetableGrid.skipText([stop("P"), stop("Q"), stop("R")]) == "skips P, Q and R")
  }
}

/// The follow map names its trip's termini (issue 21): the demo's V27-3 on 27-WK-1-0750,
/// Tallaght Interchange to Crumlin Hospital (Data/gtfs/stop_times.txt).
@Suite struct FollowMapLabelTests {
  /// A 12 × 3 canvas, "Depot" (5) for a mark at column 9 of row 1: the right runs off the
  /// canvas (11–15), the left (3–7) is blocked by a mark at column 5.
  @Test func namesGoAboveOrBelowWhenTheRowIsFull() {
    typealias Placed = MapRenderer.PlacedLabel
    let row1Mark = 1 * 12 + 5
    // Without the canvas's height: left out, as before.
    #expect(MapRenderer.besideMark("Depot", column: 9, row: 1, columns: 12, taken: [row1Mark], rowWidth: 12) == nil)
    // Above, over the mark's column: starting at 9 or 8 runs off; 7–11 fits.
    #expect(
      MapRenderer.besideMark("Depot", column: 9, row: 1, columns: 12, taken: [row1Mark], rowWidth: 12, rows: 3)
        == Placed(column: 7, row: 0, text: "Depot"))
    // A mark above at column 9 blocks every start from 7 down to 5 (9 + 1 - 5): below instead.
    #expect(
      MapRenderer.besideMark("Depot", column: 9, row: 1, columns: 12, taken: [row1Mark, 9], rowWidth: 12, rows: 3)
        == Placed(column: 7, row: 2, text: "Depot"))
  }

  @Test func followMapNamesTheTermini() throws {
    let home = try RiderDemoTests.home()
    let store = try Store(directory: home.path)
    let feeds = try ["demo-tripupdates.pb", "demo-vehiclepositions.pb"].map { name in
      try FeedMessage(decoding: [UInt8](try #require(FileManager.default.contents(atPath: packageRoot + "/Data/realtime/" + name))))
    }
    let session = TransitSession(store: store, options: ServiceOptions(), realtime: FixedRealtime(feeds))
    let now = UnixTime(1_796_110_800)  // 2026-12-01T07:40:00Z
    var run = try session.follow(FollowRequest(target: .vehicle("V27-3")), clock: { now }, wallClock: { now.seconds })
    let frame = try #require(try run.next()).frame
    let panel = FollowCommand.mapPanel(try #require(try run.map(of: frame)), ascii: true)
    // 56 × 28: the panel of a 140-column, 30-row terminal. Crumlin Hospital (53.3262,
    // -6.3178) is the trip's northernmost stop: the top mark, named to its left (no room on
    // the right). The bus stands at Tallaght Interchange (53.2877, -6.3747), the westernmost,
    // its "27" over the stop's mark; the name goes two rows above, the nearest place that
    // covers no mark. Kimmage Cross Roads (-6.2960) is the easternmost, at the right edge.
    let lines = panel.render(columns: 56, rows: 28, ascii: true)
    #expect(
      lines == [
        "                                                        ",
        "                                                        ",
        "                       Crumlin Hospital o-.             ",
        "                                          .-.           ",
        "                                            .o----      ",
        "                                                  -----o",
        "                                                     --.",
        "                                                  ---   ",
        "                                               --o      ",
        "                                           ----         ",
        "                                      .----             ",
        "                                  ----.                 ",
        "                               o--                      ",
        "                            ---                         ",
        "                        .---                            ",
        "                     .o-.                               ",
        "                 .---.                                  ",
        "               o-.                                      ",
        "              |.                                        ",
        "              /                                         ",
        "             /                                          ",
        "            /                                           ",
        "Tallaght Interchange                                    ",
        "         --o                                            ",
        "27    --o                                               ",
        " --o--                                                  ",
        "                                                        ",
        "                                                        ",
        "|---------| 1 km, north ^",
      ])
  }
}

/// Issue 21's last pieces on the shared feeds.
@Suite(.enabled(if: SharedData.root != nil, "needs ../shared/data"))
struct RiderFinishSharedFeedTests {
  /// caltrain-2023.zip on Tuesday 2023-11-07 (service 72982), counted by a separate script over
  /// trips.txt and stop_times.txt: at Millbrae the usual pattern of B7 northbound (3 trips of 8
  /// stops against 3 of 7: the longer wins the tie) and of L3 northbound (3 trips of 15 stops)
  /// calls at 22nd Street; the morning trains 301, 303, 305 (L3) and 701, 703, 705 (B7) pass it.
  /// Over all 31 stations the script and the command agree on 64 footnoted departures.
  @Test func caltrainExpressFootnotesAtMillbrae() throws {
    let home = try RiderSharedFeedTests.home("caltrain-2023.zip")
    let result = transit(["timetable", "place_MLBR", "--date", "2023-11-07", "--json", "--data-dir", home.path])
    try #require(result.code == 0, "\(result.stderr)")
    var skipping: [String: String] = [:]
    for block in try #require(try json(result)["blocks"] as? [[String: Any]]) {
      let notes = Dictionary(
        uniqueKeysWithValues: (block["footnotes"] as? [[String: Any]] ?? []).map { ($0["mark"] as! String, $0["text"] as! String) })
      for hour in block["hours"] as? [[String: Any]] ?? [] {
        for departure in hour["departures"] as? [[String: Any]] ?? [] {
          guard let mark = departure["footnote"] as? String, let text = notes[mark], text.hasPrefix("skips") else { continue }
          skipping[departure["trip_id"] as? String ?? "?"] = text
        }
      }
    }
    let note = "skips 22nd Street Caltrain Station"
    #expect(skipping == ["301": note, "303": note, "305": note, "701": note, "703": note, "705": note])
  }

  /// cdmx-2018.zip: Metrobús line 6 (ROUTE_136284) has 34 trips, all wheelchair_accessible 1,
  /// and every stop it calls at says wheelchair_boarding 1; from Instituto Politécnico
  /// Nacional (136314) to Villa de Aragón (136286) the plain search's second journey changes
  /// to route 25 and the Metro (trips saying 0). With --accessible every ride is an accessible
  /// one.
  @Test func cdmxAccessiblePlanRidesOnlyAccessibleTrips() throws {
    let home = try RiderSharedFeedTests.home("cdmx-2018.zip")
    let common = ["136314", "136286", "--depart", "08:00", "--date", "2018-06-05", "--now", "2018-06-05T12:00:00Z", "--json"]
    func rides(_ extra: [String]) throws -> [[[String: Any]]] {
      let result = transit(["plan"] + common + extra + ["--data-dir", home.path])
      try #require(result.code == 0, "\(result.stderr)")
      return (try json(result)["journeys"] as? [[String: Any]] ?? []).map { journey in
        (journey["legs"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "ride" }
      }
    }
    let plain = try rides([])
    #expect(plain.contains { $0.contains { $0["accessible"] as? Bool == false } })
    let accessible = try rides(["--accessible"])
    #expect(!accessible.isEmpty)
    for journey in accessible {
      for ride in journey {
        #expect(ride["accessible"] as? Bool == true)
        #expect(ride["wheelchair_accessible"] as? Int == 1)
        #expect(ride["from_wheelchair_boarding"] as? Int == 1 && ride["to_wheelchair_boarding"] as? Int == 1)
      }
    }
  }
}
