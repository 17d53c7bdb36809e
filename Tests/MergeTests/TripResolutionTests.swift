import GTFSRealtime
import Testing
import TransitModel

@testable import Merge

/// Naming a trip without a held trip_id (DESIGN.md rules 15, 16, 18): by descriptor, by NYCT's
/// convention, and the replacement period in which NYCT's feed replaces the timetable.
@Suite struct TripResolutionTests {
  // MARK: - NYCT's names

  /// `077450_5..S16R`: 77,450 hundredths of a minute = 774.5 min = 12:54:30 = 46,470 s.
  static let names: [(String, Int32, String, Character, String)] = [
    ("077450_5..S16R", 46_470, "5", "S", "16R"),
    ("078400_5..N16R", 47_040, "5", "N", "16R"),  // 784 min = 13:04:00
    ("000000_GS.N04R", 0, "GS", "N", "04R"),
    ("143950_L..S", 86_370, "L", "S", ""),  // 1,439.5 min = 23:59:30
  ]

  @Test(arguments: names)
  func readsARealtimeName(id: String, origin: Int32, route: String, direction: Character, path: String) throws {
    let name = try #require(NYCTTripName(realtime: id))
    #expect(name.originSeconds == origin)
    #expect(name.route == route)
    #expect(name.direction == direction)
    #expect(name.path == path)
  }

  @Test(arguments: ["5..S16R", "07745_5..S16R", "0774500_5..S16R", "077450_5..X16R", "077450_", "abcdef_5..S16R", "077450_..S"])
  func refusesWhatIsNotANYCTName(id: String) {
    #expect(NYCTTripName(realtime: id) == nil)
  }

  static let day = ServiceDate(year: 2023, month: 5, day: 29)!

  static func candidate(
    _ id: String, first: Int32?, mta: String?, date: ServiceDate = day, direction: Int? = nil
  )
    -> TripStartCandidate
  {
    TripStartCandidate(tripID: TripID(id), directionID: direction, firstDeparture: first, mtaTripID: mta, serviceDate: date)
  }

  @Test func nyctMatchesByDirectionAndOriginTimePreferringThePath() throws {
    let name = try #require(NYCTTripName(realtime: "078400_2..N16R"))  // 13:04:00
    let candidates = [
      Self.candidate("north-other-path", first: 47_040, mta: "2..N01R"),
      Self.candidate("north-same-path", first: 47_040, mta: "2..N16R"),
      Self.candidate("south", first: 47_040, mta: "2..S16R"),
      Self.candidate("later", first: 47_100, mta: "2..N16R"),
    ]
    #expect(
      Reconciler.resolveNYCT(name, startDate: Self.day, among: candidates)
        == .trip(TripID("north-same-path"), Self.day, startTime: nil, rule: .convention))
    // Without a trip of the same path, the same direction and origin still name it.
    #expect(
      Reconciler.resolveNYCT(name, startDate: Self.day, among: Array(candidates.prefix(1)) + [candidates[2]])
        == .trip(TripID("north-other-path"), Self.day, startTime: nil, rule: .convention))
    #expect(Reconciler.resolveNYCT(name, startDate: Self.day, among: [candidates[2], candidates[3]]) == .unmatched(.unknownTrip))
  }

  /// A train whose origin is 00:10 on start_date may be the previous service day's 24:10:00 run.
  @Test func nyctFindsTheRunAfterMidnightOfTheDayBefore() throws {
    let name = try #require(NYCTTripName(realtime: "001000_1..S03R"))  // 10 min = 00:10:00 = 600 s
    let before = Self.day.adding(days: -1)
    let candidates = [Self.candidate("late", first: 600 + 86_400, mta: "1..S03R", date: before)]
    #expect(
      Reconciler.resolveNYCT(name, startDate: Self.day, among: candidates)
        == .trip(TripID("late"), before, startTime: nil, rule: .convention))
  }

  // MARK: - Descriptors without trip_id (rule 15)

  static func descriptor(
    route: String? = "R1", direction: UInt32? = nil, start: String? = "08:10:00", date: String? = "20230529"
  )
    -> TripDescriptor
  {
    TripDescriptor(routeID: route, directionID: direction, startTime: start, startDate: date)
  }

  static let outAndBack = [
    candidate("out", first: 29_400, mta: nil, direction: 0),  // 08:10:00
    candidate("back", first: 29_400, mta: nil, direction: 1),
    candidate("out-later", first: 30_000, mta: nil, direction: 0),
  ]

  @Test func aDescriptorWithDirectionNamesOneTrip() {
    #expect(
      Reconciler.resolve(Self.descriptor(direction: 1), among: Self.outAndBack, routeKnown: true)
        == .trip(TripID("back"), Self.day, startTime: nil, rule: .descriptor))
  }

  @Test func withoutDirectionOnlyAnUnambiguousStartNamesATrip() {
    #expect(Reconciler.resolve(Self.descriptor(), among: Self.outAndBack, routeKnown: true) == .unmatched(.ambiguous))
    #expect(
      Reconciler.resolve(Self.descriptor(start: "08:20:00"), among: Self.outAndBack, routeKnown: true)
        == .trip(TripID("out-later"), Self.day, startTime: nil, rule: .descriptor))
  }

  @Test func reasonsForNamingNothing() {
    #expect(Reconciler.resolve(Self.descriptor(), among: [], routeKnown: false) == .unmatched(.unknownRoute))
    #expect(Reconciler.resolve(Self.descriptor(route: nil), among: Self.outAndBack, routeKnown: true) == .unmatched(.ambiguous))
    #expect(Reconciler.resolve(Self.descriptor(start: nil), among: Self.outAndBack, routeKnown: true) == .unmatched(.ambiguous))
    #expect(Reconciler.resolve(Self.descriptor(), among: [], routeKnown: true) == .unmatched(.notRunning))
    #expect(
      Reconciler.resolve(Self.descriptor(start: "09:00:00"), among: Self.outAndBack, routeKnown: true) == .unmatched(.unknownTrip))
    // A start_date other than the candidates' service date names none of them.
    #expect(
      Reconciler.resolve(Self.descriptor(direction: 0, date: "20230530"), among: Self.outAndBack, routeKnown: true)
        == .unmatched(.unknownTrip))
  }

  /// A frequency trip's instance is its start_time, anywhere in one of its windows.
  @Test func aFrequencyTripIsNamedByAStartTimeInItsWindow() {
    let shuttle = TripStartCandidate(
      tripID: TripID("loop"), directionID: nil, firstDeparture: 21_600, frequencyWindows: [21_600...32_399],
      serviceDate: Self.day)
    #expect(
      Reconciler.resolve(Self.descriptor(start: "08:10:00"), among: [shuttle], routeKnown: true)
        == .trip(TripID("loop"), Self.day, startTime: ServiceTime(seconds: 29_400), rule: .descriptor))
    #expect(Reconciler.resolve(Self.descriptor(start: "09:00:00"), among: [shuttle], routeKnown: true) == .unmatched(.unknownTrip))
  }

  // MARK: - Replacement periods

  /// Inside NYCT's replacement period a scheduled trip the feed omits is not running: it is not
  /// a departure. After the period, and on other routes, the timetable stands.
  @Test func aScheduledTripTheFeedOmitsInsideItsPeriodIsNotShown() {
    let inside = Build.trip("inside", [("S1", "08:10"), ("S2", "08:20")], route: "1")
    let after = Build.trip("after", [("S1", "08:50"), ("S2", "09:00")], route: "1")
    let otherRoute = Build.trip("other", [("S1", "08:12"), ("S2", "08:22")], route: "A")
    var header = FeedHeader(gtfsRealtimeVersion: "1.0", timestamp: UInt64((Build.now - 20).seconds))
    header.nyctFeedHeader = NyctFeedHeader(
      nyctSubwayVersion: "1.0",
      tripReplacementPeriods: [TripReplacementPeriod(routeID: "1", replacementPeriod: TimeRange(end: UInt64((Build.now + 1_800).seconds)))])
    let feed = FeedMessage(header: header, entities: [])
    let calls = [inside, after, otherRoute].map { Build.call($0, sequence: 10) }
    let result = Reconciler.departures(
      scheduled: calls, trips: [], feeds: [feed], now: Build.now,
      request: DepartureRequest(stopIDs: ["S1"], from: Build.now, feed: "test", fallbackServiceDate: Build.date))
    #expect(result.departures.map(\.call.tripID.rawValue) == ["other", "after"])
    #expect(Reconciler.replacementPeriods(in: [feed]) == [RouteID("1"): Build.now + 1_800])
  }

  /// Every trip update is counted, one without trip_id too (it was dropped without a word).
  @Test func aTripUpdateWithoutTripIDIsCounted() {
    let update = TripUpdate(trip: TripDescriptor(routeID: "R1", startTime: "08:10:00"), stopTimeUpdates: [])
    let realtime = Reconciler.realtime(trips: [], feeds: [Build.feed([update])], now: Build.now)
    #expect(realtime.report.tripUpdateCount == 1)
    #expect(realtime.report.matchedTripUpdateCount == 0)
    #expect(realtime.report.unmatched == [.ambiguous: 1])
  }
}
