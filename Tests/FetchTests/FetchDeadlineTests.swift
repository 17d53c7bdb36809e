import Fetch
import Foundation
import TestSupport
import Testing

/// Issue 38: one total deadline for a fetch, across its retries (a stalled server held
/// `ingest` and `rt dump URL` for 3 × 60 s while the message said "after 60 s").
@Suite struct FetchDeadlineTests {
  @Test func aStalledServerCostsTheDeadlineNotEveryAttempt() throws {
    // Each attempt times out after 1 s (the body comes after 5 s); 2 retries would make 3 s.
    let server = try TestHTTPServer { _, _ in .init(body: [1, 2, 3], delaySeconds: 5) }
    defer { server.stop() }
    var settings = options(retries: 2, timeout: 1)
    settings.deadlineSeconds = 1.5
    settings.sleep = { usleep(UInt32($0 * 1_000_000)) }
    let client = try HTTPClient(options: settings)
    let started = Date()
    let error = #expect(throws: FetchError.self) { try client.get(server.baseURL + "/feed.zip", expecting: .zip) }
    let took = Date().timeIntervalSince(started)
    #expect(took < 2.4, "took \(took) s")
    guard case .deadline(1.5, let attempts)? = error?.reason else {
      Issue.record("expected the deadline to run out, got \(String(describing: error))")
      return
    }
    #expect(attempts == 2)
    #expect(error?.description.hasSuffix("no complete answer in 1.5 s in total, 2 attempts (the fetch-deadline setting)") == true)
  }

}
