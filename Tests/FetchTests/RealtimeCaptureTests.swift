import Fetch
import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// Every feed's bytes are read alike (`RealtimeCapture`): a capture file or a fetched body is
/// un-gzipped when it is gzip, held to the caps, refused when it is an HTML page, and each
/// failure names the source as the user wrote it and the setting that raises the cap it hit.
@Suite struct RealtimeCaptureTests {
  /// A feed of a header (version "2.0", timestamp 1,000) and `entities` empty entities with
  /// ids "e0", "e1", ...: its bytes written out here, by hand.
  static func feed(entities: Int) -> [UInt8] {
    var bytes = RealtimeFetcherTests.feed(1000)
    for index in 0..<entities {
      let id = Array("e\(index)".utf8)
      bytes += [0x12, UInt8(id.count + 2), 0x0A, UInt8(id.count)] + id  // entity { id }
    }
    return bytes
  }

  static let limits = RealtimeLimits(
    maxCompressedBytes: 1 << 20, maxDecompressedBytes: 2 << 20, decoding: DecodingLimits(maxEntities: 3, maxStopTimeUpdates: 10))

  func message(_ body: () throws -> Any) -> String? {
    do {
      _ = try body()
      return nil
    } catch {
      return (error as? RealtimeCaptureError)?.description ?? "not a RealtimeCaptureError: \(error)"
    }
  }

  @Test func aFileIsReadAsItsBytesGzipOrNot() throws {
    let folder = TemporaryFolder()
    let plain = folder.path + "/a.pb"
    let zipped = folder.path + "/b.pb.gz"
    try Data(Self.feed(entities: 2)).write(to: URL(fileURLWithPath: plain))
    try Data(FeedGzip.wrap(Self.feed(entities: 2))).write(to: URL(fileURLWithPath: zipped))
    for path in [plain, zipped] {
      let feed = try RealtimeCapture.read(path: path, source: path, limits: Self.limits)
      #expect(feed.header?.timestamp == 1000)
      #expect(feed.entities.map(\.id) == ["e0", "e1"])
    }
    #expect(RealtimeCapture.fileURLPath("file://" + plain) == plain)
    #expect(RealtimeCapture.fileURLPath("file:///tmp/a%20b.pb") == "/tmp/a b.pb")
    #expect(RealtimeCapture.fileURLPath(plain) == nil)
  }

  @Test func eachFailureNamesItsSourceAndTheSettingThatRaisesTheCap() throws {
    let folder = TemporaryFolder()
    let missing = folder.path + "/none.pb"
    #expect(message { try RealtimeCapture.read(path: missing, source: "none.pb", limits: Self.limits) } == "none.pb: no such file")
    #expect(
      message { try RealtimeCapture.read(path: folder.path, source: "f", limits: Self.limits) } == "f: is a folder, not a feed")
    // Larger than both caps (2 MiB): refused before it is read.
    let big = folder.path + "/big.pb"
    try Data(count: 3 << 20).write(to: URL(fileURLWithPath: big))
    #expect(
      message { try RealtimeCapture.read(path: big, source: "big.pb", limits: Self.limits) }
        == "big.pb: 3 MiB is more than the 2 MiB a realtime feed may hold (the realtime-max-mb setting)")
    // Four entities against a cap of three.
    #expect(
      message { try RealtimeCapture.decode(Self.feed(entities: 4), source: "u", limits: Self.limits) }?.hasSuffix(
        "(the realtime-max-entities setting)") == true)
    #expect(
      message { try RealtimeCapture.decode(Array("<!DOCTYPE html><p>".utf8), source: "u", limits: Self.limits) }
        == "u: looks like an html page, not a gtfs-realtime feed")
    // 1.5 MiB of plain protobuf (one skipped field) against a 1 MiB gzip cap and 2 MiB plain one.
    let large = [0x7A, 0x80, 0x80, 0x60] + [UInt8](repeating: 0, count: 3 << 19)
    #expect(
      message { try RealtimeCapture.decode([0x1F, 0x8B] + large, source: "z", limits: Self.limits) }
        == "z: the gzip data is larger than the 1 MiB allowed (the realtime-max-download-mb setting)")
    let tight = RealtimeLimits(maxCompressedBytes: 1 << 20, maxDecompressedBytes: 1 << 20, decoding: .default)
    #expect(
      message { try RealtimeCapture.decode(large, source: "p", limits: tight) }
        == "p: the feed is larger than the 1 MiB allowed (the realtime-max-mb setting)")
    // 3 MiB of zeros gzipped in a few kB: refused as it inflates, past 1 MiB.
    let bomb = DeflateBomb.gzip(repeating: [0], count: 3 << 20)
    #expect(
      message { try RealtimeCapture.decode(bomb, source: "bomb.gz", limits: tight) }
        == "bomb.gz: the gzip data decompresses to more than the 1 MiB allowed (the realtime-max-mb setting)")
  }

  @Test func theHeaderAloneIsReadThroughGzipToo() throws {
    let header = try RealtimeCapture.header(FeedGzip.wrap(Self.feed(entities: 2)), source: "h", limits: Self.limits)
    #expect(header?.timestamp == 1000)
  }
}
