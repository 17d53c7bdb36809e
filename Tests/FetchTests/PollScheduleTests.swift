import Fetch
import Foundation
import TestSupport
import Testing
import TransitModel

@Suite struct PollScheduleTests {
  static let learning: [([Int64], Int64?)] = [
    ([], nil),
    ([1000], nil),
    ([1000, 1000, 1000], nil),  // the same snapshot fetched three times
    ([1000, 1030], 30),
    ([1000, 1030, 1030, 1060, 1090, 1090, 1120], 30),  // repeats are ignored
    ([1000, 1015, 1030, 1060, 1075, 1090], 15),  // one missed publish does not skew the median
    ([1000, 1020, 1041, 1059, 1080], 21),  // jittery publisher: the median gap
    ([1090, 1060, 1120], 60),  // a timestamp going backwards is no gap
  ]

  @Test(arguments: learning)
  func learnsThePeriodFromHeaderTimestamps(timestamps: [Int64], period: Int64?) {
    #expect(PollSchedule.learnedPeriod(from: timestamps) == period)
  }

  @Test func fetchesJustAfterTheNextExpectedPublish() {
    // Published at 1000 every 30 s; at 1010 the next is due at 1030, asked for at 1032.
    #expect(PollSchedule.nextFetch(now: 1010, lastHeaderTimestamp: 1000, period: 30) == 1032)
    // At 1029 the next publish is 1 s away, but the floor holds us to 5 s.
    #expect(PollSchedule.nextFetch(now: 1029, lastHeaderTimestamp: 1000, period: 30) == 1034)
    // Well past several periods (we were asleep): the next one ahead of now.
    #expect(PollSchedule.nextFetch(now: 1100, lastHeaderTimestamp: 1000, period: 30) == 1122)
    // Unknown timestamp: one period.
    #expect(PollSchedule.nextFetch(now: 1000, lastHeaderTimestamp: nil, period: nil) == 1030)
  }

  @Test func neverFasterThanTheFloor() {
    // the period counts as 5 s: 1004, then the margin
    #expect(PollSchedule.nextFetch(now: 1000, lastHeaderTimestamp: 999, period: 1) == 1006)
    #expect(PollSchedule.nextFetch(now: 1000, lastHeaderTimestamp: nil, period: 2) == 1005)
  }

  @Test func followsASequenceOfSnapshots() {
    // Simulate a feed publishing every 20 s at 7 s past (…07, …27, …47) and a poller following the schedule.
    var learned: [Int64] = []
    var now: Int64 = 10_000
    var fetchTimes: [Int64] = []
    for _ in 0..<8 {
      let published = 7 + ((now - 7) / 20) * 20
      if learned.last != published { learned.append(published) }
      let period = PollSchedule.learnedPeriod(from: learned)
      now = PollSchedule.nextFetch(now: now, lastHeaderTimestamp: learned.last, period: period)
      fetchTimes.append(now)
    }
    // Once the period is known, each fetch lands 2 s after a publish.
    #expect(fetchTimes.suffix(5).allSatisfy { ($0 - 7) % 20 == 2 })
  }

  @Test func backsOffOnFailures() {
    let waits = (1...6).map { PollSchedule.nextFetch(now: 0, lastHeaderTimestamp: nil, period: 30, failures: $0) }
    #expect(waits == [30, 60, 120, 240, 300, 300])
  }

  @Test func backsOffOnUnchangedData() {
    let waits = (1...7).map { PollSchedule.nextFetch(now: 0, lastHeaderTimestamp: -40, period: 30, unchanged: $0) }
    #expect(waits == [7, 14, 28, 56, 112, 224, 300])
    // A short period still waits at least the floor.
    #expect(PollSchedule.nextFetch(now: 0, lastHeaderTimestamp: -10, period: 8, unchanged: 1) == 5)
  }
}

@Suite struct RedactionAndConfigTests {
  @Test(arguments: [
    ("https://user:pa55word@example.org/gtfs.zip", "https://user:<redacted>@example.org/gtfs.zip"),
    ("https://example.org/rt?key=abc&format=pb", "https://example.org/rt?key=<redacted>&format=pb"),
    ("https://example.org/rt?API_KEY=abc#x", "https://example.org/rt?API_KEY=<redacted>#x"),
    ("https://example.org/rt?route=27", "https://example.org/rt?route=27"),
    ("http://127.0.0.1:8080/a", "http://127.0.0.1:8080/a"),
  ])
  func redactsURLs(url: String, shown: String) {
    #expect(Redactor.redactURL(url) == shown)
  }

  @Test func sha256KnownAnswers() {
    #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    var hasher = SHA256()
    for _ in 0..<1000 { hasher.update(Array(repeating: UInt8(ascii: "a"), count: 1000)) }
    #expect(SHA256.hexString(hasher.finish()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func expandsHeaderVariablesOnlyFromTheEnvironment() throws {
    let headers = [HeaderTemplate(name: "x-api-key", value: "$MTA_KEY"), HeaderTemplate(name: "Accept", value: "application/x-protobuf")]
    let request = try EnvironmentExpansion.resolve(
      url: "https://example.org/rt?sub=${SUB}", headers: headers, feed: "mta",
      environment: ["MTA_KEY": "k3y-value-123", "SUB": "subscriber9"])
    #expect(request.url == "https://example.org/rt?sub=subscriber9")
    #expect(request.headers.map { "\($0.0): \($0.1)" } == ["x-api-key: k3y-value-123", "Accept: application/x-protobuf"])
    #expect(request.redactor.redact("got k3y-value-123 and subscriber9") == "got <redacted> and <redacted>")
    #expect(request.shownURL == "https://example.org/rt?sub=<redacted>")
    let error = #expect(throws: FeedConfigError.self) {
      try EnvironmentExpansion.resolve(url: "https://example.org", headers: headers, feed: "mta", environment: [:])
    }
    #expect(error?.message == "header 'x-api-key' of feed 'mta' uses $MTA_KEY, which is not set in the environment")
  }

  /// A header stamped near the end of time (a producer's UInt64.max, clamped) waits the
  /// longest wait, 300 s, rather than overflowing `last + period`; one stamped 10 s ahead
  /// (skew) waits for its first publish after it: 10 + 30 + the 2 s margin.
  @Test func aHeaderFromTheFarFutureWaitsTheLongestWait() {
    let now: Int64 = 1_796_110_800
    #expect(PollSchedule.nextFetch(now: now, lastHeaderTimestamp: .max, period: 30) == now + 300)
    #expect(PollSchedule.nextFetch(now: now, lastHeaderTimestamp: .max, period: nil) == now + 300)
    #expect(PollSchedule.nextFetch(now: now, lastHeaderTimestamp: now + 10, period: 30) == now + 10 + 30 + 2)
  }

  @Test func headersAreShownWithoutSecrets() {
    #expect(HeaderTemplate.parse("x-api-key: $MTA_KEY")?.displayed == "x-api-key: $MTA_KEY")
    #expect(HeaderTemplate.parse("Authorization: Bearer abc123")?.displayed == "Authorization: <redacted>")
    #expect(HeaderTemplate.parse("Accept: application/x-protobuf")?.displayed == "Accept: application/x-protobuf")
    #expect(HeaderTemplate.parse("no colon") == nil)
    #expect(HeaderTemplate.parse(": value") == nil)
  }

  @Test func configurationIsSavedAtomicallyWithMode0600() throws {
    let folder = TemporaryFolder()
    let configuration = FeedConfiguration(feeds: [FeedDefinition(name: "demo", gtfs: "https://example.org/gtfs.zip", pollSeconds: 15)])
    try configuration.save(to: folder.path + "/config")
    let path = FeedConfiguration.path(in: folder.path + "/config")
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    #expect(try FeedConfiguration.load(from: folder.path + "/config") == configuration)
    #expect(try FeedConfiguration.load(from: folder.path + "/none") == FeedConfiguration())
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/config") == ["feeds.json"])
  }
}
