import GTFSRealtime
import Merge
import Services
import Testing
import TransitModel

/// The rider rules of issue 21, on small hand-made values: accessibility inheritance, crowding
/// levels, platform labels, call statuses and the timetable grid. Expected answers are written
/// out by hand from the GTFS reference and the rules as documented.
@Suite struct AccessibilityRuleTests {
  /// (own wheelchair_boarding, parent's, expected): stops.txt "For child stops: 0 or empty -
  /// Stop will inherit its wheelchair_boarding behavior from the parent station".
  static let cases: [(Int?, Int?, WheelchairAccess)] = [
    (1, nil, .accessible), (2, nil, .notAccessible), (0, nil, .unknown), (nil, nil, .unknown),
    (0, 1, .accessible), (nil, 1, .accessible), (0, 2, .notAccessible), (nil, 0, .unknown),
    (2, 1, .notAccessible), (1, 2, .accessible),
  ]

  @Test(arguments: cases)
  func stopInheritsFromStation(own: Int?, parent: Int?, expected: WheelchairAccess) {
    #expect(Accessibility.stop(own: own, parent: parent) == expected)
  }

  @Test func tripValues() {
    #expect(Accessibility.trip(1) == .accessible)
    #expect(Accessibility.trip(2) == .notAccessible)
    #expect(Accessibility.trip(0) == .unknown)
    #expect(Accessibility.trip(nil) == .unknown)
  }

  @Test func unknownIsNotAccessibleUnderTheFilter() {
    #expect(WheelchairAccess.accessible.passesFilter)
    #expect(!WheelchairAccess.unknown.passesFilter)
    #expect(!WheelchairAccess.notAccessible.passesFilter)
  }
}

@Suite struct CrowdingTests {
  static let levels: [(VehiclePosition.OccupancyStatus?, Int?, Int?)] = [
    (.empty, nil, 1), (.manySeatsAvailable, nil, 1), (.fewSeatsAvailable, nil, 2), (.standingRoomOnly, nil, 2),
    (.crushedStandingRoomOnly, nil, 3), (.full, nil, 3), (.notAcceptingPassengers, nil, 3), (.noDataAvailable, nil, nil),
    (.notBoardable, nil, nil), (nil, 10, 1), (nil, 49, 1), (nil, 50, 2), (nil, 84, 2), (nil, 85, 3), (nil, 130, 3),
    (nil, nil, nil), (.manySeatsAvailable, 95, 1),  // the status wins over the percentage
  ]

  @Test(arguments: levels)
  func level(status: VehiclePosition.OccupancyStatus?, percentage: Int?, expected: Int?) {
    #expect(Crowding.level(status: status, percentage: percentage) == expected)
  }

  @Test func gauges() {
    #expect(Crowding.gauge(1) == "●○○")
    #expect(Crowding.gauge(2) == "●●○")
    #expect(Crowding.gauge(3) == "●●●")
    #expect(Crowding.gauge(nil) == nil)
  }

  @Test func fromVehiclePosition() throws {
    var vehicle = VehiclePosition()
    #expect(Crowding(vehicle) == nil, "a vehicle saying nothing has no crowding")
    vehicle.occupancyPercentage = 62
    var second = VehiclePosition.CarriageDetails()
    second.carriageSequence = 2
    second.occupancyStatus = .full
    var first = VehiclePosition.CarriageDetails()
    first.carriageSequence = 1
    first.label = "A"
    first.occupancyPercentage = 30
    var unknown = VehiclePosition.CarriageDetails()
    unknown.carriageSequence = 3
    unknown.occupancyPercentage = -1
    vehicle.multiCarriageDetails = [second, first, unknown]
    let crowding = try #require(Crowding(vehicle))
    #expect(crowding.percentage == 62)
    #expect(crowding.level == 2)
    #expect(crowding.carriages.map(\.sequence) == [1, 2, 3])
    #expect(crowding.carriages.map(\.level) == [1, 3, nil])
    #expect(crowding.carriages[2].percentage == nil, "-1 is the .proto's no data")
    #expect(crowding.summary == "62 %")
    #expect(crowding.carriageGauges == "●○○ ●●● ?")
  }

  @Test func carriagesAloneGiveTheLevel() throws {
    var vehicle = VehiclePosition()
    var carriage = VehiclePosition.CarriageDetails()
    carriage.occupancyStatus = .standingRoomOnly
    vehicle.multiCarriageDetails = [carriage]
    let crowding = try #require(Crowding(vehicle))
    #expect(crowding.level == 2)
    #expect(crowding.summary == "standing")
  }
}

@Suite struct PlatformLabelTests {
  typealias P = PlatformLabels.Platform

  @Test func platformCodeWins() {
    let labels = PlatformLabels.labels([
      P(id: StopID("a"), name: "Central", platformCode: "1"), P(id: StopID("b"), name: "Central", platformCode: "2"),
    ])
    #expect(labels == [StopID("a"): "platform 1", StopID("b"): "platform 2"])
  }

  @Test func nameSuffixes() {
    let labels = PlatformLabels.labels([
      P(id: StopID("70011"), name: "Tallaght Platform 1"), P(id: StopID("70012"), name: "Tallaght Platform 2"),
    ])
    #expect(labels == [StopID("70011"): "Platform 1", StopID("70012"): "Platform 2"])
    let sides = PlatformLabels.labels([
      P(id: StopID("n"), name: "Hillsdale Northbound"), P(id: StopID("s"), name: "Hillsdale Southbound"),
    ])
    #expect(sides == [StopID("n"): "Northbound", StopID("s"): "Southbound"])
    let bays = PlatformLabels.labels([P(id: StopID("x"), name: "Bus Station - Bay A"), P(id: StopID("y"), name: "Bus Station - Bay B")])
    #expect(bays == [StopID("x"): "Bay A", StopID("y"): "Bay B"])
  }

  @Test func sameNamesFallToDescriptionsOrNothing() {
    let same = PlatformLabels.labels([
      P(id: StopID("70021"), name: "22nd Street Caltrain Station"), P(id: StopID("70022"), name: "22nd Street Caltrain Station"),
    ])
    #expect(same.isEmpty, "nothing tells them apart: the caller says the direction")
    let described = PlatformLabels.labels([
      P(id: StopID("a"), name: "Main St", description: "North side"), P(id: StopID("b"), name: "Main St", description: "South side"),
    ])
    #expect(described == [StopID("a"): "North side", StopID("b"): "South side"])
    #expect(PlatformLabels.towards("Gilroy") == "towards Gilroy")
  }
}

@Suite struct CallStatusTests {
  let now = UnixTime(1_000)

  @Test func byTimeWithoutAVehicle() {
    let times: [UnixTime?] = [UnixTime(800), UnixTime(900), UnixTime(1_100), UnixTime(1_200)]
    let statuses = TripInspector.statuses(
      times: times, skipped: [false, false, false, false], vehicleIndex: nil, vehicleAtStop: false, now: now)
    #expect(statuses == [.passed, .passed, .next, .ahead])
  }

  @Test func theVehicleDecides() {
    // Running late: by the clock the third stop is past, but the vehicle is still heading to the second.
    let times: [UnixTime?] = [UnixTime(800), UnixTime(900), UnixTime(950), UnixTime(1_200)]
    let statuses = TripInspector.statuses(
      times: times, skipped: [false, false, false, false], vehicleIndex: 1, vehicleAtStop: false, now: now)
    #expect(statuses == [.passed, .next, .ahead, .ahead])
  }

  @Test func skippedWhereverItFalls() {
    let times: [UnixTime?] = [UnixTime(800), UnixTime(900), UnixTime(1_100), UnixTime(1_200)]
    let statuses = TripInspector.statuses(
      times: times, skipped: [false, true, true, false], vehicleIndex: nil, vehicleAtStop: false, now: now)
    #expect(statuses == [.passed, .skipped, .skipped, .next])
  }

  @Test func notStartedAndFinished() {
    let later: [UnixTime?] = [UnixTime(2_000), nil, UnixTime(2_200)]
    #expect(
      TripInspector.statuses(times: later, skipped: [false, false, false], vehicleIndex: nil, vehicleAtStop: false, now: now)
        == [.next, .ahead, .ahead])
    let earlier: [UnixTime?] = [UnixTime(100), nil, UnixTime(200)]
    #expect(
      TripInspector.statuses(times: earlier, skipped: [false, false, false], vehicleIndex: nil, vehicleAtStop: false, now: now)
        == [.passed, .passed, .passed], "an untimed call between passed ones is passed")
  }
}

@Suite struct TimetableGridTests {
  static let date = ServiceDate(year: 2026, month: 12, day: 1)!
  static let dayStart = UnixTime(1_000_000)

  static func call(
    _ trip: String, route: String = "R1", short: String = "1", direction: Int? = 0, _ seconds: Int64, headsign: String = "Town",
    last: Bool = false
  ) -> ScheduledCall {
    ScheduledCall(
      feed: FeedName("f"), tripID: TripID(trip), routeID: RouteID(route), routeShortName: short, headsign: headsign, stopID: StopID("S"),
      stopSequence: 1, serviceDate: date, scheduledArrival: dayStart + seconds, scheduledDeparture: dayStart + seconds,
      isLastStop: last, directionID: direction)
  }

  @Test func hoursMinutesBlocksAndFootnotes() {
    let calls = [
      Self.call("a", 7 * 3600 + 5 * 60), Self.call("b", 7 * 3600 + 35 * 60), Self.call("c", 8 * 3600 + 5 * 60, headsign: "Depot"),
      Self.call("d", 25 * 3600 + 10 * 60), Self.call("e", route: "R10", short: "10", 9 * 3600),
      Self.call("f", direction: 1, 7 * 3600, headsign: "Beach"), Self.call("g", direction: 1, 7 * 3600 + 59 * 60, headsign: "Beach"),
      Self.call("h", route: "R2", short: "2", 6 * 3600),
    ]
    let grid = TimetableGrid.build(calls: calls, dayStart: Self.dayStart, serviceDate: Self.date, skipped: [TripID("b")])
    #expect(grid.count == 8)
    // Routes 1 (two directions), 2, 10: numbers in numeric order.
    #expect(grid.blocks.map(\.routeShortName) == ["1", "1", "2", "10"])
    let outbound = grid.blocks[0]
    #expect(outbound.headsign == "Town")
    #expect(outbound.hours.map(\.hour) == [7, 8, 25])
    #expect(outbound.hours[0].entries.map(\.minute) == [5, 35])
    #expect(outbound.hours[0].entries.map(\.mark) == [nil, "a"])
    #expect(outbound.hours[1].entries.map(\.mark) == ["b"])
    #expect(outbound.hours[2].entries.map(\.minute) == [10])
    #expect(outbound.footnotes == [.init(mark: "a", text: "does not stop here today"), .init(mark: "b", text: "to Depot")])
    #expect(grid.blocks[1].headsign == "Beach")
    #expect(grid.blocks[1].hours.map { $0.entries.map(\.minute) } == [[0, 59]])
  }

  @Test func otherServiceDaysAreLeftOut() {
    var other = Self.call("x", 3600)
    other.serviceDate = Self.date.adding(days: -1)
    #expect(TimetableGrid.build(calls: [other], dayStart: Self.dayStart, serviceDate: Self.date).blocks.isEmpty)
  }
}
