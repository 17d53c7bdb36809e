import Foundation
import GTFSRealtime
import TestSupport
import Testing
import TransitModel

@testable import TransitCLI

@Suite struct RtDumpTests {
  static let kcm = "rt/kcm-vehiclepositions-20210902T153156Z.pb"

  /// Writes `bytes` to `name` in `folder`; returns the path.
  func write(_ bytes: [UInt8], _ name: String, in folder: TemporaryFolder) throws -> String {
    let path = folder.path + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  func parseJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
  }

  // MARK: - Real captures

  @Test(.enabled(if: SharedData.path(kcm) != nil))
  func jsonOfARealCapture() throws {
    let path = try #require(SharedData.path(Self.kcm))
    let result = transit(["rt", "dump", path, "--json"])
    #expect(result.code == 0)
    #expect(result.stderr.isEmpty)
    let root = try #require(try parseJSON(result.stdout) as? [String: Any])
    let header = try #require(root["header"] as? [String: Any])
    #expect(header["gtfs_realtime_version"] as? String == "2.0")
    #expect((header["timestamp"] as? NSNumber)?.int64Value == 1_630_596_716)
    #expect(header["incrementality"] as? String == "FULL_DATASET")
    let entities = try #require(root["entity"] as? [[String: Any]])
    #expect(entities.count == 627)
    let vehicle = try #require(entities.first?["vehicle"] as? [String: Any])
    let position = try #require(vehicle["position"] as? [String: Any])
    #expect(position["latitude"] is NSNumber)
    #expect(vehicle["trip"] is [String: Any])
  }

  @Test(.enabled(if: SharedData.path(kcm) != nil))
  func textOfARealCapture() throws {
    let path = try #require(SharedData.path(Self.kcm))
    // 1,234 days after the feed's timestamp.
    let result = transit(["rt", "dump", path, "--now", "@\(1_630_596_716 + 1_234 * 86_400)"])
    #expect(result.code == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.first == "GTFS-Realtime 2.0 · FULL_DATASET · 2021-09-02T15:31:56Z (1,234 days old)")
    #expect(lines.dropFirst().first == "627 entities: 627 vehicle")
    #expect(lines.count == 2 + 627)
    #expect(lines[2].hasPrefix("vehicle "))
    let summary = transit(["rt", "dump", path, "--summary", "--now", "@1630596776"])
    #expect(summary.stdout.split(separator: "\n").count == 2)
    #expect(summary.stdout.contains("(60 s old)"))
  }

  @Test(.enabled(if: SharedData.path("rt/bart-alerts-20190807T174542Z.pb") != nil))
  func alertLine() throws {
    let path = try #require(SharedData.path("rt/bart-alerts-20190807T174542Z.pb"))
    let result = transit(["rt", "dump", path])
    #expect(result.stdout.contains("1 entity: 1 alert"))
    #expect(result.stdout.contains("SIGNIFICANT_DELAYS  MEDICAL_EMERGENCY"))
    #expect(result.stdout.contains("1 informed entity"))
  }

  @Test(.enabled(if: SharedData.path("rt/caltrain-tripupdates-20231108T010534Z.pb") != nil))
  func tripUpdateLinesAndGzip() throws {
    let path = try #require(SharedData.path("rt/caltrain-tripupdates-20231108T010534Z.pb"))
    let plain = transit(["rt", "dump", path, "--now", "@1699405600"])
    #expect(plain.code == 0)
    #expect(plain.stdout.contains("19 entities: 19 trip_update"))
    let updateLines = plain.stdout.split(separator: "\n").filter { $0.hasPrefix("trip_update ") }
    #expect(updateLines.count == 19)
    #expect(updateLines.allSatisfy { $0.contains("stop update") && $0.contains("SCHEDULED") })

    // The same feed gzip-compressed, as a .gz file and as a gzip body under another name.
    let folder = TemporaryFolder()
    let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
    for name in ["feed.pb.gz", "feed.pb"] {
      let gzipped = try write(FeedGzip.wrap(bytes), name, in: folder)
      let result = transit(["rt", "dump", gzipped, "--now", "@1699405600"])
      #expect(result.code == 0, "\(name): \(result.stderr)")
      #expect(result.stdout == plain.stdout)
    }
  }

  @Test(.enabled(if: SharedData.path("bad/not-protobuf.pb") != nil))
  func notProtobufIsOneLineAndExit1() throws {
    let path = try #require(SharedData.path("bad/not-protobuf.pb"))
    let result = transit(["rt", "dump", path])
    #expect(result.code == 1)
    #expect(result.stdout.isEmpty)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("transit: \(path): ") == true)
    #expect(lines.first?.hasSuffix("at byte 0") == true)
  }

  @Test(.enabled(if: SharedData.path(kcm) != nil))
  func truncatedCaptureNamesFileFieldAndByte() throws {
    let path = try #require(SharedData.path(Self.kcm))
    let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
    let folder = TemporaryFolder()
    let cut = try write(Array(bytes.prefix(1_000)), "cut.pb", in: folder)
    let result = transit(["rt", "dump", "cut.pb"], directory: folder.path)
    #expect(result.code == 1)
    #expect(result.stderr.hasPrefix("transit: cut.pb: entity["))
    #expect(
      result.stderr.contains("runs past the end at byte")
        || result.stderr.contains("truncated value at byte"))
    #expect(cut.hasSuffix("cut.pb"))
  }

  // MARK: - The whole model

  @Test func jsonOfAFullyPopulatedFeed() throws {
    let folder = TemporaryFolder()
    let path = try write(FeedMessage.sample.encoded(), "sample.pb", in: folder)
    let result = transit(["rt", "dump", path, "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let root = try #require(try parseJSON(result.stdout) as? [String: Any])
    let header = try #require(root["header"] as? [String: Any])
    #expect(header["incrementality"] as? String == "DIFFERENTIAL")
    let entity = try #require((root["entity"] as? [[String: Any]])?.first)
    #expect(entity["is_deleted"] as? Bool == true)
    let update = try #require(entity["trip_update"] as? [String: Any])
    let trip = try #require(update["trip"] as? [String: Any])
    #expect((trip["schedule_relationship"] as? NSNumber)?.intValue == 42)  // unknown: by number
    #expect(trip["start_time"] as? String == "25:10:00")
    let stopTimeUpdate = try #require((update["stop_time_update"] as? [[String: Any]])?.first)
    let arrival = try #require(stopTimeUpdate["arrival"] as? [String: Any])
    #expect(
      (arrival["delay"] as? NSNumber)?.intValue
        == TripUpdate.StopTimeEvent.sample.delay.map(Int.init))
    #expect(
      (arrival["scheduled_time"] as? NSNumber)?.int64Value
        == TripUpdate.StopTimeEvent.sample.scheduledTime)
    #expect(stopTimeUpdate["schedule_relationship"] as? String == "UNSCHEDULED")
    let vehicle = try #require(entity["vehicle"] as? [String: Any])
    let position = try #require(vehicle["position"] as? [String: Any])
    #expect(result.stdout.contains("\"latitude\": 47.6062,"))  // the float's shortest form
    #expect((position["longitude"] as? NSNumber)?.doubleValue == -122.3321)
    let alert = try #require(entity["alert"] as? [String: Any])
    let headerText = try #require(alert["header_text"] as? [String: Any])
    let translation = try #require((headerText["translation"] as? [[String: Any]])?.first)
    #expect(translation["text"] as? String == "Délai de 5 min — ligne ⚠︎ 42")
    // Every key is one of the .proto's own field names, or an extension's in brackets (NYCT's).
    #expect(Self.keys(of: root).allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "_" || $0 == "[" || $0 == "]" } })
    #expect(Self.keys(of: root).isSuperset(of: ["[nyct_feed_header]", "[nyct_trip_descriptor]", "[nyct_stop_time_update]"]))
    #expect(
      Self.keys(of: root).isSuperset(of: [
        "trip_modifications", "multi_carriage_details", "modified_trip", "stop_time_properties",
        "localized_image", "replacement_stops",
      ]))
  }

  static func keys(of value: Any) -> Set<String> {
    if let object = value as? [String: Any] {
      return Set(object.keys).union(object.values.flatMap { keys(of: $0) })
    }
    if let array = value as? [Any] { return Set(array.flatMap { keys(of: $0) }) }
    return []
  }

  @Test func unsetFieldsStayUnset() throws {
    // A stop_time_update without schedule_relationship: SCHEDULED by default, but not shown.
    var update = TripUpdate(trip: TripDescriptor(tripID: "t1"))
    update.stopTimeUpdates = [TripUpdate.StopTimeUpdate(stopSequence: 3)]
    let feed = FeedMessage(
      header: FeedHeader(gtfsRealtimeVersion: "2.0"),
      entities: [FeedEntity(id: "e1", tripUpdate: update)])
    let folder = TemporaryFolder()
    let path = try write(feed.encoded(), "unset.pb", in: folder)
    let json = transit(["rt", "dump", path, "--json"])
    #expect(!json.stdout.contains("schedule_relationship"))
    #expect(!json.stdout.contains("incrementality"))
    #expect(!json.stdout.contains("timestamp"))
    let text = transit(["rt", "dump", path])
    #expect(text.stdout.hasPrefix("GTFS-Realtime 2.0 · FULL_DATASET (default) · no timestamp\n"))
    #expect(text.stdout.contains("trip_update e1  trip t1  1 stop update\n"))
  }

  @Test func saysWhichRequiredFieldsAreMissing() throws {
    let feed = FeedMessage(entities: (0..<5).map { _ in FeedEntity(alert: Alert()) })
    let folder = TemporaryFolder()
    let path = try write(feed.encoded(), "lenient.pb", in: folder)
    let result = transit(["rt", "dump", path])
    #expect(result.code == 0)
    #expect(
      result.stdout.contains(
        "\nmissing required fields: header, entity[0].id, entity[1].id and 3 more\n"))
  }

  @Test func severalFilesMakeSectionsOrAnArray() throws {
    let folder = TemporaryFolder()
    let one = try write(
      FeedMessage(header: FeedHeader(gtfsRealtimeVersion: "1.0")).encoded(), "a.pb", in: folder)
    let two = try write(
      FeedMessage(header: FeedHeader(gtfsRealtimeVersion: "2.0")).encoded(), "b.pb", in: folder)
    let json = transit(["rt", "dump", one, two, "--json"])
    let array = try #require(try parseJSON(json.stdout) as? [[String: Any]])
    #expect(array.count == 2)
    #expect((array[1]["header"] as? [String: Any])?["gtfs_realtime_version"] as? String == "2.0")
    let text = transit(["rt", "dump", "a.pb", "b.pb"], directory: folder.path)
    #expect(text.stdout.hasPrefix("== a.pb ==\nGTFS-Realtime 1.0"))
    #expect(text.stdout.contains("\n\n== b.pb ==\nGTFS-Realtime 2.0"))
  }

  // MARK: - Errors and help

  @Test func missingFileAndURLAndNoArgument() {
    let missing = transit(["rt", "dump", "nope.pb"])
    #expect(missing.code == 1)
    #expect(missing.stderr == "transit: nope.pb: no such file\n")
    // Nothing listens on the discard port: a one-line network error, exit 1 (no traffic leaves 127.0.0.1).
    let home = TemporaryFolder()
    let url = transit(["rt", "dump", "http://127.0.0.1:9/feed.pb", "--data-dir", home.path], environment: ["TRANSIT_FETCH_RETRIES": "0"])
    #expect(url.code == 1)
    #expect(url.stderr == "transit: http://127.0.0.1:9/feed.pb: connection refused\n")
    let none = transit(["rt", "dump"])
    #expect(none.code == 2)
    #expect(none.stderr.hasPrefix("transit: missing FILE|URL (usage: "))
  }

  @Test func corruptGzipIsOneLine() throws {
    let folder = TemporaryFolder()
    let path = try write([0x1F, 0x8B, 8, 0, 0, 0], "broken.pb.gz", in: folder)
    let result = transit(["rt", "dump", path])
    #expect(result.code == 1)
    #expect(result.stderr.hasPrefix("transit: \(path): "))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func textHelpers() {
    #expect(FeedMessage.grouped(12_103) == "12,103")
    #expect(FeedMessage.grouped(999) == "999")
    #expect(FeedMessage.grouped(1_000_000) == "1,000,000")
    #expect(FeedMessage.signedDuration(60) == "+60 s")
    #expect(FeedMessage.signedDuration(-180) == "-3 min")
    #expect(FeedMessage.signedDuration(.min).hasPrefix("-"))
    #expect(FeedMessage.seconds(from: UnixTime(.min), to: UnixTime(.max)) == .max)
  }
}
