import Foundation

/// The OpenSSL command line, when installed: it makes the certificate and serves HTTPS.
public let opensslExecutable: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// An HTTPS server on 127.0.0.1 (`openssl s_server -WWW`) with a certificate made for the test.
public enum TLSTestServer {
  /// A self-signed certificate for 127.0.0.1 in `folder`, and a server on a free port serving
  /// `folder`'s files; the caller stops the server (`stop`).
  public static func serve(_ folder: String) throws -> (process: Process, url: String, certificate: String) {
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
    guard make.terminationStatus == 0 else { throw FixtureError("openssl req failed") }
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
  public static func stop(_ server: Process) {
    guard server.isRunning else { return }
    kill(server.processIdentifier, SIGKILL)
    server.waitUntilExit()
  }

  public struct TLSSetupError: Error {}

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
}
