import Fetch
import Foundation
import TestSupport
import Testing

/// https against a real TLS server on 127.0.0.1 (`openssl s_server -WWW`) with a certificate
/// made for the test: trusted through a CA bundle it is fetched; otherwise refused as TLS.
@Suite(.enabled(if: opensslExecutable != nil, "needs openssl"))
struct TLSTests {
  @Test func httpsWithATrustedCertificateAndRefusedWithout() throws {
    let folder = TemporaryFolder()
    let feed = demoTripUpdates()
    try Data(feed).write(to: URL(fileURLWithPath: folder.path + "/tripupdates.pb"))
    let (server, base, certificate) = try TLSTestServer.serve(folder.path)
    defer { TLSTestServer.stop(server) }

    var trusted = options()
    trusted.caBundlePath = certificate
    let fetched = try HTTPClient(options: trusted).get(base + "/tripupdates.pb", expecting: .protobuf)
    #expect(body(fetched)?.bytes == feed)

    // The system's CAs do not know the test's certificate.
    let error = #expect(throws: FetchError.self) { try HTTPClient(options: options()).get(base + "/tripupdates.pb") }
    guard case .tls = error?.reason else {
      Issue.record("expected a TLS failure, got \(String(describing: error))")
      return
    }
  }
}
