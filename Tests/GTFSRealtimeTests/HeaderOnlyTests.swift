import Foundation
import GTFSRealtime
import TestSupport
import Testing

/// `FeedMessage.header(decoding:)`: the header alone, the entities stepped over, as the whole
/// decode gives it.
@Suite struct HeaderOnlyTests {
  static let header = FeedHeader(gtfsRealtimeVersion: "2.0", incrementality: .fullDataset, timestamp: 1_796_110_560)
  static let entity = FeedEntity(
    id: "27-WK-0-0720",
    tripUpdate: TripUpdate(
      trip: TripDescriptor(tripID: "27-WK-0-0720", routeID: "R27"),
      stopTimeUpdates: [.init(stopSequence: 10, arrival: .init(time: 1_796_110_600))]))

  @Test func theHeaderOfEveryRealCaptureIsTheWholeDecodesHeader() throws {
    let files = SharedData.files(in: "rt", withExtension: "pb")
    for path in files {
      let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
      #expect(try FeedMessage.header(decoding: bytes) == FeedMessage(decoding: bytes).header, "\(path)")
    }
  }

  @Test func aHeaderAfterTheEntitiesOrGivenTwiceIsFoundAndMerged() throws {
    // Two serialized messages back to back are one message, merged (proto2): the second's
    // header after the first's entities; its timestamp wins, the first's version stays.
    let first = FeedMessage(header: Self.header, entities: [Self.entity]).encoded()
    let later = FeedHeader(timestamp: 1_796_110_620)
    let second = FeedMessage(header: later, entities: [Self.entity]).encoded()
    let header = try #require(try FeedMessage.header(decoding: first + second))
    #expect(header.timestamp == 1_796_110_620)
    #expect(header.gtfsRealtimeVersion == "2.0")
    #expect(header == (try FeedMessage(decoding: first + second)).header)
    // Entities alone (no header): none.
    let entitiesOnly = FeedMessage(entities: [Self.entity]).encoded()
    #expect(try FeedMessage.header(decoding: entitiesOnly) == nil)
  }

  @Test func aDamagedHeaderThrowsAndADamagedEntityIsNotLookedAt() throws {
    let header = FeedMessage(header: Self.header).encoded()
    // The header cut short: its length runs past the end.
    #expect(throws: WireError.self) { try FeedMessage.header(decoding: Array(header.dropLast(2))) }
    // An entity whose trip update holds a field 1 that is a varint (a wrong wire type): the
    // whole decode refuses it; the header is read past it all the same.
    let entityBody: [UInt8] = [0x0A, 0x01, 0x78, 0x1A, 0x02, 0x08, 0x01]
    let damaged = header + [0x12, UInt8(entityBody.count)] + entityBody
    #expect(throws: WireError.self) { try FeedMessage(decoding: damaged) }
    #expect(try FeedMessage.header(decoding: damaged)?.timestamp == 1_796_110_560)
  }
}
