import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// The real captures in shared/data/rt decode to the figures PROVENANCE.md measured with
/// gtfs-realtime-bindings (Google's protobuf).
@Suite struct RealCaptureTests {
  struct Capture: CustomTestStringConvertible, Sendable {
    var file: String
    var version: String
    var timestamp: UInt64
    var tripUpdates = 0
    var vehicles = 0
    var alerts = 0
    var stopTimeUpdates = 0
    /// Trip schedule_relationship tallies, by proto name (an unset value counted as its default).
    var tripRelationships: [String: Int] = [:]
    var entities: Int { tripUpdates + vehicles + alerts }
    var testDescription: String { file }
  }

  static let captures: [Capture] = [
    Capture(
      file: "caltrain-tripupdates-20231108T010534Z.pb", version: "1.0", timestamp: 1_699_405_534,
      tripUpdates: 19, stopTimeUpdates: 220, tripRelationships: ["SCHEDULED": 19]),
    Capture(
      file: "caltrain-vehiclepositions-20231108T010559Z.pb", version: "1.0",
      timestamp: 1_699_405_559, vehicles: 14),
    Capture(
      file: "caltrain-alerts-20231108T010546Z-empty.pb", version: "1.0", timestamp: 1_699_405_546),
    Capture(
      file: "caltrain-tripupdates-20220107T020929Z.pb", version: "1.0", timestamp: 1_641_521_369,
      tripUpdates: 20, stopTimeUpdates: 159, tripRelationships: ["SCHEDULED": 20]),
    Capture(
      file: "bart-tripupdates-20190807T174521Z.pb", version: "1.0", timestamp: 1_565_199_921,
      tripUpdates: 91, stopTimeUpdates: 1_060, tripRelationships: ["SCHEDULED": 83, "ADDED": 8]),
    Capture(
      file: "bart-tripupdates-20190528T020258Z.pb", version: "1.0", timestamp: 1_559_008_978,
      tripUpdates: 26, stopTimeUpdates: 298, tripRelationships: ["SCHEDULED": 26]),
    Capture(
      file: "bart-alerts-20190807T174542Z.pb", version: "1.0", timestamp: 1_565_199_942, alerts: 1),
    Capture(
      file: "bart-tripupdates-20220107T020902Z.pb", version: "1.0", timestamp: 1_641_521_342,
      tripUpdates: 73, stopTimeUpdates: 1_037, tripRelationships: ["SCHEDULED": 73]),
    Capture(
      file: "kcm-vehiclepositions-20210902T153156Z.pb", version: "2.0", timestamp: 1_630_596_716,
      vehicles: 627),
    Capture(
      file: "kcm-vehiclepositions-20210902T160830Z.pb", version: "2.0", timestamp: 1_630_598_910,
      vehicles: 570),
    Capture(
      file: "bullrunner-vehiclepositions-20170913T145255Z.pb", version: "1.0",
      timestamp: 1_505_314_375, vehicles: 10),
    Capture(
      file: "hart-tripupdates-20210307T084955Z-empty.pb", version: "1.0", timestamp: 1_615_106_995),
    Capture(
      file: "hart-vehiclepositions-20210307T084955Z-empty.pb", version: "1.0",
      timestamp: 1_615_106_995),
    Capture(
      file: "puget-sound-alerts-20181012T133631Z.pb", version: "1.0", timestamp: 1_539_351_391,
      alerts: 20),
    Capture(
      file: "mbta-alerts-20171223T130019Z.pb", version: "1.0", timestamp: 1_514_034_019, alerts: 51),
    Capture(
      file: "mbta-tripupdates-20171218T184613Z.pb", version: "1.0", timestamp: 1_513_622_773,
      tripUpdates: 49, stopTimeUpdates: 523, tripRelationships: ["ADDED": 35, "SCHEDULED": 14]),
    Capture(
      file: "mbta-vehiclepositions-20171218T184604Z.pb", version: "1.0", timestamp: 1_513_622_764,
      vehicles: 48),
    Capture(
      file: "actransit-tripupdates-20220107T020919Z.pb", version: "1.0", timestamp: 1_641_521_359,
      tripUpdates: 524, stopTimeUpdates: 8_822,
      tripRelationships: ["CANCELED": 44, "SCHEDULED": 478, "ADDED": 2]),
    Capture(
      file: "sfmta-tripupdates-20220107T020859Z.pb", version: "1.0", timestamp: 1_641_521_339,
      tripUpdates: 516, stopTimeUpdates: 12_103, tripRelationships: ["SCHEDULED": 516]),
    Capture(
      file: "septa-tripupdates-20230329T200932Z.pb", version: "1.0", timestamp: 1_680_120_572,
      tripUpdates: 35, stopTimeUpdates: 35, tripRelationships: ["SCHEDULED": 35]),
    Capture(
      file: "ride2go-otp-extensions-20221123T161507Z.pb", version: "1.0", timestamp: 1_669_220_107,
      tripUpdates: 44, stopTimeUpdates: 444, tripRelationships: ["ADDED": 17, "CANCELED": 27]),
    // New York City subway, 12 consecutive captures (PROVENANCE.md, "New York City subway").
    Capture(
      file: "nyct-subway-20230529T180306Z.pb", version: "1.0", timestamp: 1_685_383_386,
      tripUpdates: 169, vehicles: 109, alerts: 1, stopTimeUpdates: 3_442, tripRelationships: ["SCHEDULED": 169]),
    Capture(
      file: "nyct-subway-20230529T180406Z.pb", version: "1.0", timestamp: 1_685_383_446,
      tripUpdates: 177, vehicles: 109, alerts: 1, stopTimeUpdates: 3_712, tripRelationships: ["SCHEDULED": 177]),
    Capture(
      file: "nyct-subway-20230529T180506Z.pb", version: "1.0", timestamp: 1_685_383_506,
      tripUpdates: 175, vehicles: 109, alerts: 1, stopTimeUpdates: 3_657, tripRelationships: ["SCHEDULED": 175]),
    Capture(
      file: "nyct-subway-20230529T180606Z.pb", version: "1.0", timestamp: 1_685_383_566,
      tripUpdates: 171, vehicles: 110, alerts: 1, stopTimeUpdates: 3_612, tripRelationships: ["SCHEDULED": 171]),
    Capture(
      file: "nyct-subway-20230529T180706Z.pb", version: "1.0", timestamp: 1_685_383_626,
      tripUpdates: 169, vehicles: 109, alerts: 1, stopTimeUpdates: 3_554, tripRelationships: ["SCHEDULED": 169]),
    Capture(
      file: "nyct-subway-20230529T180806Z.pb", version: "1.0", timestamp: 1_685_383_686,
      tripUpdates: 170, vehicles: 110, alerts: 1, stopTimeUpdates: 3_520, tripRelationships: ["SCHEDULED": 170]),
    Capture(
      file: "nyct-subway-20230529T180906Z.pb", version: "1.0", timestamp: 1_685_383_746,
      tripUpdates: 173, vehicles: 108, alerts: 1, stopTimeUpdates: 3_601, tripRelationships: ["SCHEDULED": 173]),
    Capture(
      file: "nyct-subway-20230529T181006Z.pb", version: "1.0", timestamp: 1_685_383_806,
      tripUpdates: 170, vehicles: 107, alerts: 1, stopTimeUpdates: 3_548, tripRelationships: ["SCHEDULED": 170]),
    Capture(
      file: "nyct-subway-20230529T181106Z.pb", version: "1.0", timestamp: 1_685_383_866,
      tripUpdates: 168, vehicles: 106, alerts: 1, stopTimeUpdates: 3_526, tripRelationships: ["SCHEDULED": 168]),
    Capture(
      file: "nyct-subway-20230529T181206Z.pb", version: "1.0", timestamp: 1_685_383_926,
      tripUpdates: 167, vehicles: 106, alerts: 1, stopTimeUpdates: 3_471, tripRelationships: ["SCHEDULED": 167]),
    Capture(
      file: "nyct-subway-20230529T181306Z.pb", version: "1.0", timestamp: 1_685_383_986,
      tripUpdates: 165, vehicles: 108, alerts: 1, stopTimeUpdates: 3_410, tripRelationships: ["SCHEDULED": 165]),
    Capture(
      file: "nyct-subway-20230529T181421Z.pb", version: "1.0", timestamp: 1_685_384_061,
      tripUpdates: 174, vehicles: 109, alerts: 1, stopTimeUpdates: 3_652, tripRelationships: ["SCHEDULED": 174]),
  ]

  static func load(_ file: String) throws -> FeedMessage {
    let path = try #require(SharedData.path("rt/" + file), "missing capture \(file)")
    let bytes = try #require(FileManager.default.contents(atPath: path))
    return try FeedMessage(decoding: [UInt8](bytes))
  }

  @Test(.enabled(if: SharedData.root != nil), arguments: captures)
  func matchesProvenance(_ capture: Capture) throws {
    let feed = try Self.load(capture.file)
    #expect(feed.header?.gtfsRealtimeVersion == capture.version)
    #expect(feed.header?.timestamp == capture.timestamp)
    #expect(feed.header?.incrementalityOrDefault == .fullDataset)
    #expect(feed.entities.count == capture.entities)
    #expect(feed.entities.count { $0.tripUpdate != nil } == capture.tripUpdates)
    #expect(feed.entities.count { $0.vehicle != nil } == capture.vehicles)
    #expect(feed.entities.count { $0.alert != nil } == capture.alerts)
    let updates = feed.entities.compactMap(\.tripUpdate)
    #expect(updates.reduce(0) { $0 + $1.stopTimeUpdates.count } == capture.stopTimeUpdates)
    var relationships: [String: Int] = [:]
    for update in updates {
      let relationship = update.trip?.scheduleRelationshipOrDefault ?? .scheduled
      relationships[relationship.description, default: 0] += 1
    }
    #expect(relationships == capture.tripRelationships)
    #expect(feed.missingRequiredFields == [])
    // Decoding what the test encoder writes back gives the same feed.
    #expect(try FeedMessage(decoding: feed.encoded()) == feed)
  }

  @Test(
    .enabled(if: SharedData.root != nil), arguments: SharedData.files(in: "rt", withExtension: "pb")
  )
  func everyCaptureIsListed(path: String) {
    let file = String(path.split(separator: "/").last ?? "")
    #expect(Self.captures.contains { $0.file == file }, "\(file) has no entry from PROVENANCE.md")
  }

  @Test(.enabled(if: SharedData.root != nil))
  func keepsUnsetTripRelationshipUnset() throws {
    // PROVENANCE.md: "TripDescriptors carry only trip_id (schedule_relationship unset)".
    let feed = try Self.load("bart-tripupdates-20190528T020258Z.pb")
    let trips = feed.entities.compactMap { $0.tripUpdate?.trip }
    #expect(trips.count == 26)
    #expect(trips.allSatisfy { $0.scheduleRelationship == nil && $0.tripID != nil })
  }

  @Test(.enabled(if: SharedData.root != nil))
  func skipsExtensionFields() throws {
    // bullrunner: FeedHeader extension 1000; ride2go: field 9000 on TripDescriptor and
    // StopTimeProperties. Both decode; the extensions are dropped, so re-encoding is shorter.
    let bullrunner = try Self.load("bullrunner-vehiclepositions-20170913T145255Z.pb")
    #expect(bullrunner.entities.allSatisfy { $0.vehicle?.trip?.routeID != nil })
    let ride2go = try Self.load("ride2go-otp-extensions-20221123T161507Z.pb")
    let properties = ride2go.entities.flatMap { $0.tripUpdate?.stopTimeUpdates ?? [] }
    #expect(properties.count == 444)
  }

  /// NYCT's extension (field 1001, nyct-subway.proto) is decoded where the feed carries it: on
  /// the 18:06 capture every trip descriptor has a train id, the header the routes it replaces
  /// (1-7 and S, PROVENANCE.md's A-division feed) until 30 min after its time, and the first
  /// stop time update of each trip its tracks. Counted from the decoded values here against
  /// figures read off the capture with Google's bindings (`rt dump --json` prints them too).
  @Test(.enabled(if: SharedData.root != nil))
  func decodesTheNYCTExtension() throws {
    let feed = try Self.load("nyct-subway-20230529T180606Z.pb")
    let header = try #require(feed.header?.nyctFeedHeader)
    #expect(header.nyctSubwayVersion == "1.0")
    #expect(header.tripReplacementPeriods.compactMap(\.routeID) == ["1", "2", "3", "4", "5", "6", "7", "S"])
    #expect(header.tripReplacementPeriods.allSatisfy { $0.replacementPeriod?.end == 1_685_383_566 + 1_800 })
    let trips = feed.entities.compactMap { $0.tripUpdate?.trip }
    #expect(trips.count == 171)
    #expect(trips.allSatisfy { $0.nyctTripDescriptor?.trainID?.isEmpty == false })
    #expect(trips.count { $0.nyctTripDescriptor?.isAssigned == true } == 119)
    let first = try #require(feed.entities.first?.tripUpdate)
    #expect(first.trip?.tripID == "078400_5..N16R")
    #expect(first.trip?.nyctTripDescriptor == NyctTripDescriptor(trainID: "02 1304  SFT/DYR", isAssigned: true))
    #expect(first.stopTimeUpdates.first?.nyctStopTimeUpdate == NyctStopTimeUpdate(scheduledTrack: "2"))
  }

  /// Field 1001 with another wire type (another producer's use of the number) is skipped, not
  /// refused; a NYCT extension round-trips through the test encoder.
  @Test func theExtensionNumberWithAnotherWireTypeIsSkipped() throws {
    var writer = WireWriter()
    writer.writeString(1, "T1")
    writer.writeUInt64(1001, 7)  // a varint where NYCT has a message
    let descriptor = try TripDescriptor(decoding: writer.bytes)
    #expect(descriptor.tripID == "T1")
    #expect(descriptor.nyctTripDescriptor == nil)
    var nyct = TripDescriptor(tripID: "077450_5..S16R")
    nyct.nyctTripDescriptor = NyctTripDescriptor(trainID: "05 1254+ FLA/DYR", isAssigned: false, direction: .south)
    #expect(try TripDescriptor(decoding: nyct.encoded()) == nyct)
  }

  @Test(.enabled(if: SharedData.root != nil))
  func readsAlertText() throws {
    let feed = try Self.load("bart-alerts-20190807T174542Z.pb")
    let alert = try #require(feed.entities.first?.alert)
    #expect(alert.cause == .medicalEmergency)
    #expect(alert.effect == .significantDelays)
    #expect(alert.informedEntities.first?.agencyID == "BART")
    #expect(alert.headerText?.translations.isEmpty == false)
    #expect(alert.url != nil)
  }

  @Test(.enabled(if: SharedData.root != nil))
  func notProtobufIsRejected() throws {
    let path = try #require(SharedData.path("bad/not-protobuf.pb"))
    let bytes = try #require(FileManager.default.contents(atPath: path))
    #expect(throws: WireError.self) { try FeedMessage(decoding: [UInt8](bytes)) }
  }
}
