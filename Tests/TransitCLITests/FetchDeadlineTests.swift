import Foundation
import TestSupport
import Testing

/// Issue 38: one total deadline for a fetch, across its retries, set by the fetch-deadline
/// setting (`transit rt dump URL`; the fetch itself is FetchTests' FetchDeadlineTests).
@Suite struct FetchDeadlineTests {
  @Test func theSettingSetsTheDeadlineOfRtDump() throws {
    let server = try TestHTTPServer { _, _ in .init(body: [1, 2, 3], delaySeconds: 4) }
    defer { server.stop() }
    let home = TemporaryFolder()
    let env = ["TRANSIT_FETCH_RETRIES": "2", "TRANSIT_FETCH_TIMEOUT": "60"]
    #expect(transit(["config", "set", "fetch-deadline", "1", "--data-dir", home.path]).code == 0)
    let started = Date()
    let dump = transit(["rt", "dump", server.baseURL + "/tu", "--data-dir", home.path], environment: env)
    #expect(Date().timeIntervalSince(started) < 2.5)
    #expect(dump.code == 1)
    #expect(dump.stderr.contains("no complete answer in 1 s in total, 1 attempt (the fetch-deadline setting)"), "\(dump.stderr)")
  }
}
