import Foundation
import TestSupport
import Testing

/// https through `transit` against a real TLS server on 127.0.0.1 (`openssl s_server -WWW`)
/// with a certificate made for the test: trusted through TRANSIT_CA_BUNDLE it is fetched;
/// otherwise refused as TLS, in one line (the fetch itself is FetchTests' TLSTests).
@Suite(.enabled(if: opensslExecutable != nil, "needs openssl"))
struct TLSTests {
  @Test func theCABundleOfTheEnvironmentReachesTheCommandLine() throws {
    let folder = TemporaryFolder()
    let feed = demoTripUpdates()
    try Data(feed).write(to: URL(fileURLWithPath: folder.path + "/tripupdates.pb"))
    let (server, base, certificate) = try TLSTestServer.serve(folder.path)
    defer { TLSTestServer.stop(server) }

    // From the command line, through TRANSIT_CA_BUNDLE (each run with its own empty cache).
    func run(_ environment: [String: String]) -> CLIResult {
      transit(["rt", "dump", base + "/tripupdates.pb", "--data-dir", TemporaryFolder().path], environment: environment)
    }
    let dump = run(["TRANSIT_CA_BUNDLE": certificate])
    #expect(dump.code == 0, "\(dump.stderr)")
    #expect(dump.stdout.contains("trip_update"))
    let refused = run([:])
    #expect(refused.code == 1)
    #expect(refused.stderr.hasPrefix("transit: \(base)/tripupdates.pb: tls failure"), "\(refused.stderr)")
    #expect(refused.stderr.split(separator: "\n").count == 1)
    let missing = run(["TRANSIT_CA_BUNDLE": folder.path + "/none.pem"])
    #expect(missing.code == 1 && missing.stderr.contains("TRANSIT_CA_BUNDLE: \(folder.path)/none.pem cannot be read"))
  }
}
