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

  /// The period holds every trip that starts in it: a trip already under way (it left its first
  /// stop at 07:40, before the period's end at 08:30) that the feed omits is not running, though
  /// it reaches this stop at 08:45, after the end; one starting at 08:35 keeps its time.
  @Test func aTripUnderWayTheFeedOmitsIsNotShownThoughItsCallIsAfterThePeriod() {
    let underWay = Build.trip("underWay", [("S0", "07:40"), ("S1", "08:45"), ("S2", "08:55")], route: "1")
    let later = Build.trip("later", [("S0", "08:35"), ("S1", "08:50"), ("S2", "09:00")], route: "1")
    var header = FeedHeader(gtfsRealtimeVersion: "1.0", timestamp: UInt64((Build.now - 20).seconds))
    header.nyctFeedHeader = NyctFeedHeader(
      nyctSubwayVersion: "1.0",
      tripReplacementPeriods: [TripReplacementPeriod(routeID: "1", replacementPeriod: TimeRange(end: UInt64(Build.at("08:30").seconds)))])
    let calls = [underWay, later].map { trip in
      var call = Build.call(trip, sequence: 20)
      call.tripStart = trip.stops.first?.departure
      return call
    }
    let result = Reconciler.departures(
      scheduled: calls, trips: [], feeds: [FeedMessage(header: header, entities: [])], now: Build.now,
      request: DepartureRequest(stopIDs: ["S1"], from: Build.now, feed: "test", fallbackServiceDate: Build.date))
    #expect(result.departures.map(\.call.tripID.rawValue) == ["later"])
  }

  /// NYCT's trains are assigned at the origin terminal: an update whose extension lacks
  /// `is_assigned` is the plan, marked as awaiting its train, for a timetable trip and for a
  /// trip built from the update alike; an assigned one, or a feed without the extension, is not.
  @Test func anUnassignedTrainIsMarkedAsAwaitingItsTrain() {
    let trip = Build.trip("T1", [("S1", "08:10"), ("S2", "08:20")])
    let other = Build.trip("T2", [("S1", "08:12"), ("S2", "08:22")])
    let plain = Build.trip("T3", [("S1", "08:14"), ("S2", "08:24")])
    var waiting = Build.update("T1", stops: [Build.time(Build.at("08:11"), sequence: 10)])
    waiting.trip?.nyctTripDescriptor = NyctTripDescriptor(trainID: "01 0810 242/SFT")
    var running = Build.update("T2", stops: [Build.time(Build.at("08:13"), sequence: 10)])
    running.trip?.nyctTripDescriptor = NyctTripDescriptor(trainID: "01 0812 242/SFT", isAssigned: true)
    let noExtension = Build.update("T3", stops: [Build.time(Build.at("08:15"), sequence: 10)])
    var built = Build.update("X9", .added, stops: [Build.time(Build.at("08:16"), stop: "S1"), Build.time(Build.at("08:26"), stop: "S2")])
    built.trip?.nyctTripDescriptor = NyctTripDescriptor(trainID: "01 0816 242/SFT", isAssigned: false)
    let result = Build.departures(
      [trip, other, plain].map { Build.call($0, sequence: 10) }, trips: [trip, other, plain],
      feeds: [Build.feed([waiting, running, noExtension, built])], stops: ["S1"], from: Build.now)
    let marks = Dictionary(result.departures.map { ($0.call.tripID.rawValue, $0.isAwaitingTrain) }, uniquingKeysWith: { a, _ in a })
    #expect(marks == ["T1": true, "T2": false, "T3": false, "X9": true])
  }

  /// An added trip's last stop is no departure, but with arrivals asked for (`--arrivals`) its
  /// arrival there is listed, as the timetable's last stops are.
  @Test func anAddedTripsLastStopIsAnArrivalWhenArrivalsAreAsked() {
    let added = Build.update(
      "X1", .added,
      stops: [
        Build.time(Build.at("08:10"), stop: "S1"),
        TripUpdate.StopTimeUpdate(stopID: "S2", arrival: .init(time: Build.at("08:20").seconds)),
      ])
    for (arrivals, expected) in [(false, [StopID]()), (true, ["S2"])] {
      let result = Reconciler.departures(
        scheduled: [], trips: [], feeds: [Build.feed([added])], now: Build.now,
        request: DepartureRequest(
          stopIDs: ["S2"], from: Build.now, feed: "test", fallbackServiceDate: Build.date, includeArrivals: arrivals))
      #expect(result.departures.map(\.call.stopID) == expected)
      if arrivals {
        #expect(result.departures.first?.expected == Build.at("08:20"))
        #expect(result.departures.first?.call.isLastStop == true)
      }
    }
  }

  /// An update whose every stop is foreign to its trip places nothing: it is counted unmatched
  /// as "no stop known", not matched; one naming a stop of the trip, or none at all (a
  /// trip-wide delay), is matched.
  @Test func anUpdateNamingNoStopOfItsTripIsUnmatched() {
    let trip = Build.trip("T1", [("S1", "08:10"), ("S2", "08:20")])
    let delayOnly = Build.trip("T2", [("S1", "08:12"), ("S2", "08:22")])
    let named = Build.trip("T3", [("S1", "08:14"), ("S2", "08:24")])
    let foreign = Build.update("T1", stops: [Build.time(Build.at("08:11"), stop: "Z9"), Build.time(Build.at("08:21"), sequence: 99)])
    let whole = Build.update("T2", delay: 60)
    let good = Build.update("T3", stops: [Build.time(Build.at("08:11"), stop: "Z9"), Build.time(Build.at("08:25"), stop: "S2")])
    let realtime = Reconciler.realtime(trips: [trip, delayOnly, named], feeds: [Build.feed([foreign, whole, good])], now: Build.now)
    #expect(realtime.report.tripUpdateCount == 3)
    #expect(realtime.report.matchedTripUpdateCount == 2)
    #expect(realtime.report.unmatched == [.noStopKnown: 1])
    #expect(Set(realtime.predictions.keys.map(\.tripID.rawValue)) == ["T2", "T3"])
  }

  /// Every trip update is counted, one without trip_id too (it was dropped without a word).
  @Test func aTripUpdateWithoutTripIDIsCounted() {
    let update = TripUpdate(trip: TripDescriptor(routeID: "R1", startTime: "08:10:00"), stopTimeUpdates: [])
    let realtime = Reconciler.realtime(trips: [], feeds: [Build.feed([update])], now: Build.now)
    #expect(realtime.report.tripUpdateCount == 1)
    #expect(realtime.report.matchedTripUpdateCount == 0)
    #expect(realtime.report.unmatched == [.ambiguous: 1])
  }

  // MARK: - Platform changes (rule 17)

  /// An assigned stop moves the call there; a NYCT actual track other than the scheduled one is
  /// kept with it; the same track twice is no change.
  @Test func platformChangesAreKeptWithTheCall() {
    let trip = Build.trip("T1", [("P1", "08:10"), ("S2", "08:20"), ("S3", "08:30")])
    var moved = TripUpdate.StopTimeUpdate(stopSequence: 10, stopID: "P1", departure: .init(time: Build.at("08:11").seconds))
    moved.stopTimeProperties = TripUpdate.StopTimeUpdate.StopTimeProperties(assignedStopID: "P2")
    var track = TripUpdate.StopTimeUpdate(stopSequence: 20, stopID: "S2", departure: .init(time: Build.at("08:21").seconds))
    track.nyctStopTimeUpdate = NyctStopTimeUpdate(scheduledTrack: "1", actualTrack: "4")
    var same = TripUpdate.StopTimeUpdate(stopSequence: 30, stopID: "S3", arrival: .init(time: Build.at("08:31").seconds))
    same.nyctStopTimeUpdate = NyctStopTimeUpdate(scheduledTrack: "2", actualTrack: "2")
    let feed = Build.feed([Build.update("T1", stops: [moved, track, same])])
    let calls = [10, 20].map { Build.call(trip, sequence: $0) }
    let result = Reconciler.departures(
      scheduled: calls, trips: [trip], feeds: [feed], now: Build.now,
      request: DepartureRequest(stopIDs: ["P1", "P2", "S2"], from: Build.now, feed: "test", fallbackServiceDate: Build.date))
    #expect(result.departures.count == 2)
    #expect(result.departures[0].call.stopID == "P2")
    #expect(result.departures[0].platformChange == PlatformChange(assignedStopID: "P2"))
    #expect(result.departures[1].call.stopID == "S2")
    #expect(result.departures[1].platformChange == PlatformChange(actualTrack: "4", scheduledTrack: "1"))
    let prediction = Reconciler.realtime(trips: [trip], feeds: [feed], now: Build.now).predictions.values.first
    #expect(prediction?.stops.last?.platformChange == nil)
  }
}
