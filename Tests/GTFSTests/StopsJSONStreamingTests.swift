import Foundation
import SQLite
import Testing

@testable import GTFS

/// Issue 38: stops.json is read as it streams, with a size limit like every other input (a
/// 734 MB file was read whole, at 715 MB of memory).
@Suite struct StopsJSONStreamingTests {
  static let list =
    #"[ {"stop_id": 7602, "stop_code": 2, "stop_name": "Parnell \"Sq\" [N], {x}", "stop_lat": 53.352, "stop_lon": -6.263},"#
    + #"{"stop_id": "8220DB000003", "stop_name": "West", "stop_lat": "53.3523", "stop_lon": "-6.2634", "extra": [1, {"a": "]"}]} ]"#

  @Test func chunksOfAnySizeGiveTheSameStops() throws {
    let bytes = Array(Self.list.utf8)
    let expected: [StopsJSON.Stop] = [
      .init(id: "7602", code: "2", name: #"Parnell "Sq" [N], {x}"#, lat: 53.352, lon: -6.263),
      .init(id: "8220DB000003", code: nil, name: "West", lat: 53.3523, lon: -6.2634),
    ]
    for size in [1, 2, 3, 7, 64, bytes.count] {
      var reader = StopsJSON.Reader(name: "stops.json")
      var stops: [StopsJSON.Stop] = []
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + size)
        stops += try bytes[start..<end].withUnsafeBufferPointer { (part) throws(GTFSError) in try reader.feed(part) }
        start = end
      }
      try reader.finish()
      #expect(stops == expected, "chunks of \(size)")
    }
  }

  @Test(arguments: [
    ("{}", "stops.json: not a stops.json list: the top level is not an array"),
    ("[{\"stop_id\": 1, \"stop_lat\": 1, \"stop_lon\": 1}", "stops.json: not a stops.json list: not JSON (the list is never closed)"),
    ("[1]", "stops.json: item 1: not a stops.json list: not an object"),
    ("[{\"stop_id\": 1, \"stop_lat\": 1, \"stop_lon\": 1}] x", "stops.json: not a stops.json list: not JSON"),
    ("[{\"stop_id\": 1, \"stop_lat\": 1, \"stop_lon\": 1},,]", "stops.json: not a stops.json list: not JSON"),
  ])
  func badListsSayWhatIsWrong(text: String, message: String) {
    #expect(throws: GTFSError.self) { try StopsJSON.parse(Data(text.utf8), name: "stops.json") }
    do {
      _ = try StopsJSON.parse(Data(text.utf8), name: "stops.json")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func anItemPastItsLimitIsRefused() {
    let text = "[{\"stop_id\": \"" + String(repeating: "x", count: StopsJSON.maxItemBytes) + "\", \"stop_lat\": 1, \"stop_lon\": 1}]"
    do {
      _ = try StopsJSON.parse(Data(text.utf8), name: "stops.json")
      Issue.record("a \(text.utf8.count)-byte item was read")
    } catch {
      #expect(error.description == "stops.json: item 1: longer than the 64 KiB an item may be")
    }
  }

  @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
    let directory = TestDirectory()
    let path = directory.path + "/stops.json"
    // Sparse: 300 MiB that take no disk and would take seconds to read.
    let fd = open(path, O_WRONLY | O_CREAT, 0o600)
    #expect(ftruncate(fd, 300 << 20) == 0)
    close(fd)
    let started = Date()
    let error = #expect(throws: GTFSError.self) { try Timetables(directory: directory.path + "/data").ingest(path, now: 1) }
    #expect(error?.description == "stops.json: 300 MiB, larger than the 256 MiB a stops.json may be")
    #expect(Date().timeIntervalSince(started) < 1)
  }
}
