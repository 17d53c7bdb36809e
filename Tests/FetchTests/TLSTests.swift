import Fetch
import Foundation
import TestSupport
import Testing

/// The OpenSSL command line, when installed: it makes the certificate and serves HTTPS.
let opensslExecutable: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// https against a real TLS server on 127.0.0.1 (`openssl s_server -WWW`) with a certificate
/// made for the test: trusted through a CA bundle it is fetched; otherwise refused as TLS.
@Suite(.enabled(if: opensslExecutable != nil, "needs openssl"))
struct TLSTests {
  /// A self-signed certificate for 127.0.0.1 in `folder`, and a server on a free port serving
  /// `folder`'s files; the caller stops the server (`stop`).
  static func serve(_ folder: String) throws -> (process: Process, url: String, certificate: String) {
    let certificate = folder + "/cert.pem", key = folder + "/key.pem"
    let make = Process()
    make.executableURL = URL(fileURLWithPath: opensslExecutable!)
    make.arguments = [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
      "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    ]
    make.standardError = FileHandle.nullDevice
    try make.run()
    make.waitUntilExit()
    try #require(make.terminationStatus == 0, "openssl req failed")
    for attempt in 0..<5 {
      let port = 20_000 + Int.random(in: 0..<40_000) + attempt
      let server = Process()
      server.executableURL = URL(fileURLWithPath: opensslExecutable!)
      server.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-WWW", "-quiet"]
      server.currentDirectoryURL = URL(fileURLWithPath: folder)
      server.standardOutput = FileHandle.nullDevice
      server.standardError = FileHandle.nullDevice
      try server.run()
      // Listening once a plain TCP connection is accepted (up to 5 s); a taken port ends it.
      let deadline = Date().addingTimeInterval(5)
      while Date() < deadline && server.isRunning {
        if canConnect(port) { return (server, "https://127.0.0.1:\(port)", certificate) }
        usleep(50_000)
      }
      stop(server)
    }
    throw TLSSetupError()
  }

  /// Ends the server with SIGKILL and reaps it: it inherits the test runner's blocked signals
  /// (SIGTERM among them), so `terminate()` left it running after the suite.
  static func stop(_ server: Process) {
    guard server.isRunning else { return }
    kill(server.processIdentifier, SIGKILL)
    server.waitUntilExit()
  }

  struct TLSSetupError: Error {}

  static func canConnect(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
  }

  @Test func httpsWithATrustedCertificateAndRefusedWithout() throws {
    let folder = TemporaryFolder()
    let feed = demoTripUpdates()
    try Data(feed).write(to: URL(fileURLWithPath: folder.path + "/tripupdates.pb"))
    let (server, base, certificate) = try Self.serve(folder.path)
    defer { Self.stop(server) }

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

    // From the command line, through TRANSIT_CA_BUNDLE (each run with its own empty cache).
    func run(_ environment: [String: String]) -> CLIRun {
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
