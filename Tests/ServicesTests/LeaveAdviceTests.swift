import Merge
import Services
import Testing
import TransitModel

/// The leave-now rule, the grouping of a board and the commute bell (issue 20). Every expected
/// value below is worked out by hand in the comment beside it.
@Suite struct LeaveAdviceTests {
  static let now = UnixTime(1_796_110_800)  // 2026-12-01T07:40:00Z
  static let margin = LeaveAdvice.Margin(percent: 10, maxSeconds: 300)

  /// (seconds to the departure, seconds of walk, advice)
  static let cases: [(Int64, Int64, LeaveAdvice)] = [
    // 1200 s ahead: margin 120 s; leave by 1200 - 300 - 120 = 780 s = 13 min.
    (1200, 300, .leaveIn(minutes: 13)),
    // 400 s ahead: margin 40; leave by 400 - 300 - 40 = 60 s = 1 min.
    (400, 300, .leaveIn(minutes: 1)),
    // 390 s ahead: margin 39; leave by 51 s: under a minute.
    (390, 300, .leaveNow),
    // 320 s: margin 32; leave by -12 s, but the 300 s walk still makes it.
    (320, 300, .leaveNow),
    // 300 s: exactly the walk.
    (300, 300, .leaveNow),
    // 250 s: a run at 1.5 x needs 200 s.
    (250, 300, .run),
    (200, 300, .run),
    (199, 300, .tooLate),
    // Two hours ahead: 10 % is 720 s, capped at 300; leave by 7200 - 300 = 6900 s = 115 min.
    (7200, 0, .leaveIn(minutes: 115)),
    // Already gone.
    (-30, 0, .tooLate),
    (0, 0, .leaveNow),
  ]

  @Test(arguments: cases)
  func classifies(ahead: Int64, walk: Int64, expected: LeaveAdvice) {
    let advice = LeaveAdvice.classify(departs: Self.now + ahead, walkSeconds: walk, now: Self.now, margin: Self.margin)
    #expect(advice == expected)
  }

  @Test func theMarginGrowsWithTheTimeAhead() {
    #expect(Self.margin.seconds(ahead: 0) == 0)
    #expect(Self.margin.seconds(ahead: -60) == 0)
    #expect(Self.margin.seconds(ahead: 600) == 60)
    #expect(Self.margin.seconds(ahead: 1800) == 180)
    #expect(Self.margin.seconds(ahead: 3000) == 300)
    #expect(Self.margin.seconds(ahead: 9000) == 300)
    #expect(LeaveAdvice.Margin(percent: 0).seconds(ahead: 9000) == 0)
  }

  @Test func texts() {
    #expect(LeaveAdvice.leaveIn(minutes: 6).text == "leave in 6 min")
    #expect(LeaveAdvice.leaveNow.text == "leave now")
    #expect(LeaveAdvice.run.text == "run")
    #expect(LeaveAdvice.tooLate.text == "too late")
  }

  @Test func cancelledAndSkippedGetNoAdvice() {
    var departure = Self.departure("27", direction: 0, at: 600)
    // 600-60-60 = 480
    #expect(LeaveAdvice.classify(departure, walkSeconds: 60, now: Self.now, margin: Self.margin) == .leaveIn(minutes: 8))
    departure.status = .cancelled
    #expect(LeaveAdvice.classify(departure, walkSeconds: 60, now: Self.now, margin: Self.margin) == nil)
    departure.status = .skipped
    #expect(LeaveAdvice.classify(departure, walkSeconds: 60, now: Self.now, margin: Self.margin) == nil)
  }

  @Test func walkMinutesRoundUp() {
    #expect(WalkingModel.minutes(seconds: 1) == 1)
    #expect(WalkingModel.minutes(seconds: 60) == 1)
    #expect(WalkingModel.minutes(seconds: 61) == 2)
    #expect(WalkingModel.minutes(seconds: 0) == 1)
    // 300 m at 1.3 m/s x 1.25: 375 / 1.3 = 288.46, 289 s: 5 min.
    #expect(WalkingModel.minutes(seconds: WalkingModel().seconds(straightLineMeters: 300)) == 5)
  }

  // MARK: - Groups

  static func departure(
    _ route: String, direction: Int?, headsign: String = "Somewhere", at seconds: Int64, trip: String? = nil
  ) -> Departure {
    Departure(
      call: ScheduledCall(
        feed: FeedName("demo"), tripID: TripID(trip ?? "\(route)-\(direction ?? -1)-\(headsign)-\(seconds)"), routeID: RouteID("R" + route),
        routeShortName: route, headsign: headsign, stopID: StopID("S"), stopSequence: 1, serviceDate: ServiceDate(gtfs: "20261201")!,
        scheduledArrival: now + seconds, scheduledDeparture: now + seconds, directionID: direction))
  }

  @Test func groupsTheNextFewPerRouteAndDirection() {
    let board = [
      Self.departure("27", direction: 0, headsign: "Crumlin", at: 60),
      Self.departure("54A", direction: nil, headsign: "Kingswood", at: 120),
      Self.departure("27", direction: 1, headsign: "Tallaght", at: 180),
      Self.departure("27", direction: 0, headsign: "Crumlin", at: 240),
      Self.departure("54A", direction: nil, headsign: "Killinarden", at: 300),
      Self.departure("27", direction: 0, headsign: "Crumlin", at: 360),
      Self.departure("27", direction: 0, headsign: "Crumlin", at: 420),
      Self.departure("54A", direction: nil, headsign: "Kingswood", at: 480),
    ]
    let groups = DepartureGroups.group(board, perGroup: 2)
    // Ordered by first departure: 27 dir 0 (60), 54A Kingswood (120), 27 dir 1 (180), 54A Killinarden (300).
    #expect(groups.map(\.route) == ["27", "54A", "27", "54A"])
    #expect(groups.map(\.headsign) == ["Crumlin", "Kingswood", "Tallaght", "Killinarden"])
    #expect(groups.map { $0.departures.map { $0.time! - Self.now } } == [[60, 240], [120, 480], [180], [300]])
    #expect(DepartureGroups.group(board, perGroup: 3)[0].departures.count == 3)
    #expect(DepartureGroups.group([], perGroup: 3).isEmpty)
  }

  // MARK: - Changes

  @Test func changedRowsAreNewOnesAndRetimedOnes() {
    let first = [Self.departure("27", direction: 0, at: 60, trip: "a"), Self.departure("27", direction: 0, at: 120, trip: "b")]
    #expect(BoardChanges.changed(from: nil, to: first).isEmpty)
    #expect(BoardChanges.changed(from: first, to: first).isEmpty)
    var second = first
    second[1].expected = Self.now + 300
    second[1].delaySeconds = 180
    second.append(Self.departure("27", direction: 0, at: 400, trip: "c"))
    let changed = BoardChanges.changed(from: first, to: second)
    #expect(changed == [BoardChanges.Key(second[1]), BoardChanges.Key(second[2])])
  }

  // MARK: - Bell

  @Test func theBellRingsOnceAtLeaveTime() {
    var alarm = LeaveAlarm()
    let leave = Self.now + 120, departs = Self.now + 420
    var rings: [Bool] = []
    for now in [Self.now, leave - 1, leave, leave + 1] { rings.append(alarm.shouldRing(leaveBy: leave, departs: departs, now: now)) }
    #expect(rings == [false, false, true, false])
    #expect(alarm.hasRung)
    var late = LeaveAlarm()
    let rang = late.shouldRing(leaveBy: leave, departs: departs, now: departs)
    #expect(!rang)
  }

  @Test func theStatusLineNamesTheFirstDepartureStillCatchable() {
    var cancelled = Self.departure("27", direction: 0, at: 60, trip: "a")
    cancelled.status = .cancelled
    let board = [cancelled, Self.departure("27", direction: 0, at: 150, trip: "b"), Self.departure("27", direction: 0, at: 900, trip: "c")]
    // Without a walk: the first that runs.
    #expect(StatusLineChoice.first(board, walkSeconds: nil, now: Self.now, margin: Self.margin)?.0.call.tripID == TripID("b"))
    // 240 s of walk: b (150 s) needs 160 s at a run, too late; c: margin 90, leave by 900-240-90 = 570 s = 9 min.
    let choice = StatusLineChoice.first(board, walkSeconds: 240, now: Self.now, margin: Self.margin)
    #expect(choice?.0.call.tripID == TripID("c"))
    #expect(choice?.1 == .leaveIn(minutes: 9))
    #expect(StatusLineChoice.first([cancelled], walkSeconds: nil, now: Self.now, margin: Self.margin) == nil)
  }
}
