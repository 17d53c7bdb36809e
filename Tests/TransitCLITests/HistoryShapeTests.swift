import Testing

/// One history, one JSON shape (issue 33): `history --json` gives the same document whatever it
/// is of: a stop (by code or id, with or without `--route`), a saved commute, or a route. The
/// history is `HistoryCommandTests`' week on the demo network: bus 27-WK-0-0720 recorded on
/// Monday 30 November to Friday 4 December 2026 running 0, 1, 2, 4 and 0.5 minutes late, its
/// calls inferred from snapshots taken each minute at :30; asked on Saturday 5 December at
/// 12:00 (UTC) over the default 30 days.
@Suite struct HistoryShapeTests {
  static let now: Int64 = 1_796_472_000  // 2026-12-05T12:00:00Z
  /// The week's calls at Kilnamanagh (TD4527, sequence 70), scheduled at 07:41:00 each day:
  /// the date, its midnight (1 December is 1_796_083_200) and the delay.
  static let week: [(date: String, midnight: Int, delay: Int)] = [
    ("20261130", 1_795_996_800, 0), ("20261201", 1_796_083_200, 60), ("20261202", 1_796_169_600, 120),
    ("20261203", 1_796_256_000, 240), ("20261204", 1_796_342_400, 30),
  ]

  /// A day's row. The actual is the update's own time (scheduled + delay), and so is the last
  /// prediction. It lies between the last snapshot listing the call (the last :30 before it)
  /// and the first without it (the first :30 at or after it): 30 s either side of a time on the
  /// minute, 60 s before and none after one on the half minute.
  static func row(_ day: (date: String, midnight: Int, delay: Int)) -> [String: Any?] {
    let scheduled = day.midnight + 7 * 3600 + 41 * 60
    let actual = scheduled + day.delay
    let onMinute = actual % 60 == 0
    return [
      "trip_id": "27-WK-0-0720", "service_date": day.date, "route_id": "R27", "headsign": "Tallaght Interchange",
      "stop_id": "TD4527", "stop_sequence": 70, "scheduled": scheduled, "actual": actual, "actual_kind": "inferred",
      "actual_low": actual - (onMinute ? 30 : 60), "actual_high": actual + (onMinute ? 30 : 0), "delay_seconds": day.delay,
      "last_predicted": actual,
    ]
  }

  /// The five calls' figures (delays 0, 60, 120, 240, 30 s; early at -60, late at +120): on
  /// time 0, 30, 60; late 120, 240; nearest-rank median 60 and 90th percentile 240; one-minute
  /// bins from 0: 0 0 1 2 4 minutes.
  static var figures: [String: Any?] {
    [
      "count": 5, "on_time": 3, "early": 0, "late": 2, "median_seconds": 60, "p90_seconds": 240, "first_minute": 0,
      "bins": [2, 1, 1, 0, 1], "enough": true,
    ]
  }

  /// Every prediction exact (the update's times are the actuals), one per bucket each day.
  static var accuracy: [String: Any?] {
    let buckets: [Any?] = ["0-3 min", "3-6 min", "6-10 min", "10-15 min"].map {
      ["bucket": $0, "count": 5, "accurate": 5, "accuracy": 1.0] as [String: Any?]
    }
    return ["buckets": buckets, "score": 1.0, "count": 20]
  }

  /// The document of a history whose calls are the week's five at Kilnamanagh.
  static func document(subject: String) -> [String: Any?] {
    [
      "subject": subject, "from": Int(now - 30 * 86_400), "to": Int(now), "early_seconds": -60, "late_seconds": 120,
      "overall": figures, "by_hour": [["hour": 7, "statistics": figures] as [String: Any?]], "skips": 0,
      "prediction_accuracy": accuracy,
      "prediction_accuracy_by_route_and_stop": [
        ["route_id": "R27", "route": "27", "stop_id": "TD4527", "score": accuracy] as [String: Any?]
      ],
      // Each day the four other trips of route 27 the timetable had running while the feed
      // was fresh, and no update named (HistoryCommandTests.importInfersEveryCallAndIsIdempotent).
      "by_day": ["20261130", "20261201", "20261202", "20261203", "20261204"].map {
        ["date": $0, "ghost_trips": 4, "cancellations": 0] as [String: Any?]
      },
      "rows": week.map(row),
    ]
  }

  static let order = [
    "subject", "from", "to", "early_seconds", "late_seconds", "overall", "by_hour", "skips", "prediction_accuracy",
    "prediction_accuracy_by_route_and_stop", "by_day", "rows",
  ]

  @Test func everyFormOfHistoryGivesOneDocument() throws {
    let (home, _) = try HistoryCommandTests().importedWeek()
    try #require(home.run(["commute", "add", "w", "--stop", "4527", "--route", "27", "--arrive-by", "08:30"]).code == 0)
    let now = ["--json", "--now", HistoryCommandTests.now]
    func document(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ShapeGolden.Node {
      let result = home.run(["history"] + arguments + now)
      try #require(result.code == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
      let node = try ShapeGolden.node(result.stdout, sourceLocation: sourceLocation)
      #expect(node.keys == Self.order, "\(arguments): \(node.keys)", sourceLocation: sourceLocation)
      return node
    }
    for (arguments, subject) in [
      (["4527"], "stop 4527 Kilnamanagh"), (["TD4527"], "stop 4527 Kilnamanagh"),
      (["4527", "--route", "27"], "stop 4527 Kilnamanagh, route 27"), (["commute", "w"], "commute 'w'"),
    ] {
      ShapeGolden.expect(try document(arguments), Self.document(subject: subject), "history " + arguments.joined(separator: " "))
    }

    // A route's history holds every stop's calls (11 a day): the same document, members and
    // rows, the week's calls at Kilnamanagh among them.
    let route = try document(["route", "27"])
    ShapeGolden.expect(route["subject"], "route 27", "history route 27: subject")
    let rows = route["rows"]?.elements ?? []
    #expect(rows.count == 55)
    for day in Self.week {
      let found = rows.first { $0["stop_id"]?.text == "TD4527" && $0["service_date"]?.text == day.date }
      ShapeGolden.expect(found, Self.row(day), "history route 27: \(day.date) at TD4527")
    }
    let rowMembers = Set(Self.row(Self.week[0]).keys)
    #expect(rows.allSatisfy { Set($0.keys) == rowMembers }, "history route 27: a row of other members")
    #expect(Set(route["overall"]?.keys ?? []) == Set(Self.figures.keys))
    #expect(Set(route["prediction_accuracy"]?.keys ?? []) == Set(Self.accuracy.keys))
  }
}
