import Foundation
import TestSupport
import Testing

@testable import TransitCLI

/// `transit departures --realtime` end to end on the demo network and its committed realtime
/// snapshot (`Data/realtime/`, see `DemoRealtimeSnapshot`).
@Suite struct DemoRealtimeTests {
  let home = DemoHome()
  let now = "2026-12-01T07:40:00Z"
  let tripUpdates = packageRoot + "/" + DemoRealtimeSnapshot.tripUpdatesPath
  let vehiclePositions = packageRoot + "/" + DemoRealtimeSnapshot.vehiclePositionsPath
  let alerts = packageRoot + "/" + DemoRealtimeSnapshot.alertsPath

  func run(_ arguments: [String]) -> CLIResult {
    home.run(arguments)
  }

  /// The committed .pb files are exactly what `DemoRealtimeSnapshot` encodes; with
  /// TRANSIT_WRITE_DEMO_REALTIME=1 this rewrites them instead.
  @Test func snapshotFilesMatchTheirGenerator() throws {
    let files = [
      (tripUpdates, DemoRealtimeSnapshot.tripUpdates.encoded()),
      (vehiclePositions, DemoRealtimeSnapshot.vehiclePositions.encoded()),
      (alerts, DemoRealtimeSnapshot.alerts.encoded()),
    ]
    for (path, bytes) in files {
      if ProcessInfo.processInfo.environment["TRANSIT_WRITE_DEMO_REALTIME"] == "1" {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
      }
      let committed = try #require(FileManager.default.contents(atPath: path), "\(path) is missing")
      #expect([UInt8](committed) == bytes, "\(path) differs from DemoRealtimeSnapshot; regenerate it")
    }
  }

  @Test func departuresTextWithTheSnapshot() {
    let result = run([
      "departures", "TINT", "--now", now, "--realtime", tripUpdates, "--realtime", vehiclePositions,
    ])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdout == """
        Tallaght Interchange ♿ · station, departures from 07:40
        realtime: fresh, feed 30 s old (07:39) · 8 of 8 trip updates, 2 of 2 vehicles matched (1 built from the update)
        Red  Suir Road ♿                        platform C  07:40 · now                              scheduled
        Red  Suir Road ♿                        platform C  07:51 · 11 min  sched 07:50  on time     live
        27   Crumlin Hospital ♿                 platform A  07:53 · 13 min  sched 07:50  3 min late  live
        27   Crumlin Hospital (extra)            platform A  07:57 · 17 min                           live, not in timetable
        54A  Kingswood ♿                        platform B  07:59 · 19 min  sched 07:55  4 min late  live, interpolated
        49   Templeogue Village via Old Bawn ♿  platform B  08:00                                    skipped
        Red  Suir Road ♿                        platform C  08:00 · 20 min               on time     live
        77X  Citywest Campus                     platform A  08:05                                    cancelled
        54A  Killinarden ♿                      platform B  08:07 · 27 min  sched 08:06  on time     live, carried forward
        27   Crumlin Hospital ♿                 platform A  08:10 · 30 min                           scheduled

        """)
  }

  @Test func departuresJSONWithTheSnapshot() {
    let result = run([
      "departures", "TINT", "--now", now, "--realtime", tripUpdates, "--realtime", vehiclePositions, "-n", "6", "--json",
    ])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        {
          "stop": {
            "stop_id": "TINT",
            "stop_code": null,
            "name": "Tallaght Interchange"
          },
          "now": "2026-12-01T07:40:00+00:00",
          "realtime": {
            "status": "fresh",
            "feed_timestamp": "2026-12-01T07:39:30+00:00",
            "age_seconds": 30,
            "trip_updates": {
              "matched": 8,
              "total": 8
            },
            "vehicles": {
              "matched": 2,
              "total": 2
            },
            "match": {
              "trip_updates": {
                "built_from_update": 1,
                "trip_id": 7
              },
              "unmatched_trip_updates": {},
              "vehicles": {}
            },
            "warnings": [],
            "repairs": []
          },
          "departures": [
            {
              "trip_id": "Red-WK-0-template",
              "route_id": "RED",
              "route_short_name": "Red",
              "headsign": "Suir Road",
              "stop_id": "TINT-C",
              "stop_sequence": 10,
              "service_date": "20261201",
              "scheduled": "2026-12-01T07:40:00+00:00",
              "expected": null,
              "delay_seconds": null,
              "status": "scheduled",
              "source": "schedule",
              "vehicle_id": null,
              "reachable": null,
              "prediction_ignored": false,
              "platform": "platform C",
              "wheelchair_accessible": 1,
              "wheelchair_boarding": 1,
              "occupancy": null
            },
            {
              "trip_id": "Red-WK-0-template",
              "route_id": "RED",
              "route_short_name": "Red",
              "headsign": "Suir Road",
              "stop_id": "TINT-C",
              "stop_sequence": 10,
              "service_date": "20261201",
              "scheduled": "2026-12-01T07:50:00+00:00",
              "expected": "2026-12-01T07:51:00+00:00",
              "delay_seconds": 60,
              "status": "on_time",
              "source": "realtime",
              "vehicle_id": null,
              "reachable": null,
              "prediction_ignored": false,
              "platform": "platform C",
              "wheelchair_accessible": 1,
              "wheelchair_boarding": 1,
              "occupancy": null
            },
            {
              "trip_id": "27-WK-1-0750",
              "route_id": "R27",
              "route_short_name": "27",
              "headsign": "Crumlin Hospital",
              "stop_id": "TINT-A",
              "stop_sequence": 10,
              "service_date": "20261201",
              "scheduled": "2026-12-01T07:50:00+00:00",
              "expected": "2026-12-01T07:53:00+00:00",
              "delay_seconds": 180,
              "status": "late",
              "source": "realtime",
              "vehicle_id": "V27-3",
              "reachable": null,
              "prediction_ignored": false,
              "platform": "platform A",
              "wheelchair_accessible": 1,
              "wheelchair_boarding": 1,
              "occupancy": null
            },
            {
              "trip_id": "27-X-0757",
              "route_id": "R27",
              "route_short_name": "27",
              "headsign": "Crumlin Hospital (extra)",
              "stop_id": "TINT-A",
              "stop_sequence": 1,
              "service_date": "20261201",
              "scheduled": "2026-12-01T07:57:00+00:00",
              "expected": "2026-12-01T07:57:00+00:00",
              "delay_seconds": null,
              "status": "added",
              "source": "realtime",
              "vehicle_id": "V27-9",
              "reachable": null,
              "prediction_ignored": false,
              "platform": "platform A",
              "wheelchair_accessible": null,
              "wheelchair_boarding": 1,
              "occupancy": null
            },
            {
              "trip_id": "54A-WK-0-0745",
              "route_id": "R54A",
              "route_short_name": "54A",
              "headsign": "Kingswood",
              "stop_id": "TINT-B",
              "stop_sequence": 50,
              "service_date": "20261201",
              "scheduled": "2026-12-01T07:55:00+00:00",
              "expected": "2026-12-01T07:59:15+00:00",
              "delay_seconds": 255,
              "status": "late",
              "source": "interpolated",
              "vehicle_id": "V54A-1",
              "reachable": null,
              "prediction_ignored": false,
              "platform": "platform B",
              "wheelchair_accessible": 1,
              "wheelchair_boarding": 1,
              "occupancy": null
            },
            {
              "trip_id": "49-WK-0-0800",
              "route_id": "R49",
              "route_short_name": "49",
              "headsign": "Templeogue Village via Old Bawn",
              "stop_id": "TINT-B",
              "stop_sequence": 10,
              "service_date": "20261201",
              "scheduled": "2026-12-01T08:00:00+00:00",
              "expected": null,
              "delay_seconds": null,
              "status": "skipped",
              "source": "realtime",
              "vehicle_id": null,
              "reachable": null,
              "prediction_ignored": false,
              "platform": "platform B",
              "wheelchair_accessible": 1,
              "wheelchair_boarding": 1,
              "occupancy": null
            }
          ]
        }

        """)
  }

  @Test func staleAndExpiredSnapshot() {
    let stale = run(["departures", "TINT", "--now", "2026-12-01T07:42:00Z", "--realtime", tripUpdates, "-n", "2"])
    #expect(
      stale.stdout == """
        Tallaght Interchange ♿ · station, departures from 07:42
        realtime: stale, feed 2 min old (07:39) · 8 of 8 trip updates matched (1 built from the update)
        Red  Suir Road ♿         platform C  07:51 · 9 min   sched 07:50  on time     live
        27   Crumlin Hospital ♿  platform A  07:53 · 11 min  sched 07:50  3 min late  live

        """)
    let expired = run(["departures", "TINT", "--now", "2026-12-01T08:00:00Z", "--realtime", tripUpdates, "-n", "2", "--json"])
    let object = (try? JSONSerialization.jsonObject(with: Data(expired.stdout.utf8))) as? [String: Any]
    let realtime = object?["realtime"] as? [String: Any]
    #expect(realtime?["status"] as? String == "stale")
    #expect(realtime?["age_seconds"] as? Int == 1230)
    let departures = object?["departures"] as? [[String: Any]] ?? []
    // Older than 15 min: the cancelled 77X and the skipped 49 are back on the timetable.
    #expect(departures.map { $0["source"] as? String } == ["schedule", "schedule"])
    #expect(departures.map { $0["trip_id"] as? String } == ["49-WK-0-0800", "Red-WK-0-template"])
    let text = run(["departures", "TINT", "--now", "2026-12-01T08:00:00Z", "--realtime", tripUpdates, "-n", "1"])
    #expect(text.stdout.split(separator: "\n")[1] == "realtime: not used, feed 20 min old (07:39), older than 15 min; timetable times")
  }

  @Test func activeAlertsForAListedRouteAreNoticed() {
    let result = run(["departures", "TINT", "--now", now, "--realtime", tripUpdates, "--realtime", alerts, "--route", "77X", "-n", "2"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        Tallaght Interchange ♿ · station, departures from 07:40
        realtime: fresh, feed 30 s old (07:39) · 8 of 8 trip updates matched (1 built from the update)
        notice (detour): 77X diverted via Belgard Road until 10:00 (roadworks at Citywest)
        77X  Citywest Campus  platform A  08:05           cancelled
        77X  Citywest Campus  platform A  08:35 · 55 min  scheduled

        """)
    // Route 77X is not listed at 4530: no notice there.
    let elsewhere = run(["departures", "4530", "--now", now, "--realtime", alerts, "-n", "1"])
    #expect(!elsewhere.stdout.contains("notice"))
  }

  @Test func delaysAreColouredOnlyOnATerminal() {
    let context = CommandContext.capturing(environment: [:], currentDirectory: "/")
    context.stdoutIsTerminal = true
    let code = transit(
      ["departures", "TINT", "--now", now, "--realtime", tripUpdates, "-n", "3", "--data-dir", home.path], context: context
    ).code
    #expect(code == 0)
    let lines = context.stdout.text.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(lines[3].contains("\u{1B}[32mon time\u{1B}[0m"))
    #expect(lines[4].contains("\u{1B}[31m3 min late\u{1B}[0m"))
    // Columns line up by visible width.
    // The width a terminal shows: ESC [ ... m takes none, the wheelchair symbol two.
    func visibleWidth(_ text: Substring) -> Int {
      var width = 0
      var escaped = false
      for character in text {
        if escaped {
          escaped = character != "m"
        } else if character == "\u{1B}" {
          escaped = true
        } else {
          width += character == "♿" ? 2 : 1
        }
      }
      return width
    }
    let visible = lines.dropFirst(2).map { visibleWidth($0.prefix { $0 != "·" }) }
    #expect(Set(visible).count == 1)
    let plain = run(["departures", "TINT", "--now", now, "--realtime", tripUpdates, "-n", "3"])
    #expect(!plain.stdout.contains("\u{1B}"))
  }

  @Test func realtimeFileErrorsExit1() {
    let missing = run(["departures", "TINT", "--now", now, "--realtime", "/nonexistent/feed.pb"])
    #expect(missing.code == 1)
    #expect(missing.stderr.contains("/nonexistent/feed.pb: no such file"))
  }
}
