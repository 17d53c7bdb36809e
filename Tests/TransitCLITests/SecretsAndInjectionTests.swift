import Fetch
import Foundation
import TestSupport
import Testing
import TransitModel

/// Issue 38 through `transit`: a literal key in a URL's query is never printed (feeds list,
/// its JSON, feeds check --json), nor any query value written as `$VAR`; a CR or LF can never
/// reach a request line (the redaction itself is FetchTests' SecretsAndInjectionTests).
@Suite struct SecretsAndInjectionTests {
  static let literal = "LITERAL-SECRET-77"

  @Test func feedsListAndCheckNeverShowALiteralKey() throws {
    let server = try TestHTTPServer { _, _ in .init(body: headerOnlyFeed(1_796_110_000)) }
    defer { server.stop() }
    let home = TemporaryFolder()
    func run(_ arguments: [String]) -> CLIResult {
      transit(arguments + ["--data-dir", home.path], environment: ["TOKEN": "from-env-1234"])
    }
    let add = run([
      "feeds", "add", "lit", "--alerts", server.baseURL + "/a.pb?k=\(Self.literal)",
      "--trip-updates", server.baseURL + "/tu?apikey=\(Self.literal)&agency=$TOKEN",
    ])
    #expect(add.code == 0, "\(add.stderr)")
    var outputs: [CLIResult] = []
    outputs.append(run(["feeds", "list"]))
    outputs.append(run(["feeds", "list", "--json"]))
    outputs.append(run(["feeds", "check", "--json", "--now", "2026-12-01T07:40:00Z"]))
    outputs.append(run(["feeds", "check", "--now", "2026-12-01T07:40:00Z"]))
    for output in outputs {
      #expect(!output.all.contains(Self.literal), "\(output.all)")
      #expect(!output.all.contains("from-env-1234"), "\(output.all)")
    }
    #expect(outputs[0].stdout.contains("/a.pb?k=<redacted>"))
    #expect(outputs[1].stdout.contains("apikey=<redacted>&agency=<redacted>"))
  }

  @Test(arguments: ["a\r\nX-Injected: 1", "a\nb", "a\rb"])
  func lineBreaksAreRefusedInHeadersAndURLs(bad: String) throws {
    let home = TemporaryFolder()
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", home.path]) }
    let header = run(["feeds", "add", "x", "--trip-updates", "http://h.example/tu", "--header", "x-api-key: \(bad)"])
    #expect(header.code == 2)
    #expect(header.stderr.split(separator: "\n").first?.contains("line break") == true, "\(header.stderr)")
    let url = run(["feeds", "add", "x", "--trip-updates", "http://127.0.0.1:9/tu?q=\(bad)"])
    #expect(url.code == 2)
    #expect(url.stderr.contains("control character"), "\(url.stderr)")
    #expect(!FileManager.default.fileExists(atPath: home.path + "/feeds.json"))
  }

  /// A value from the environment is checked after expansion: the server never sees a header
  /// the variable smuggled in, and the error is one line.
  @Test func aVariableHoldingALineBreakIsRefusedBeforeAnyRequest() throws {
    let server = try TestHTTPServer { _, _ in .init(body: headerOnlyFeed(1_796_110_000)) }
    defer { server.stop() }
    let home = TemporaryFolder()
    let env = ["KEY": "abcd\r\nX-Injected: yes"]
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", home.path], environment: env) }
    #expect(run(["feeds", "add", "x", "--trip-updates", server.baseURL + "/tu", "--header", "x-api-key: $KEY"]).code == 0)
    let check = run(["feeds", "check", "--now", "2026-12-01T07:40:00Z"])
    #expect(check.all.contains("holds a line break (CR or LF)"), "\(check.all)")
    #expect(!check.all.contains("X-Injected"))
    #expect(server.requests.allSatisfy { $0.headers["x-injected"] == nil })
    #expect(server.requests.isEmpty)
    let resolved = #expect(throws: FeedConfigError.self) {
      try EnvironmentExpansion.resolve(
        url: "http://h.example/tu", headers: [HeaderTemplate(name: "x-api-key", value: "$KEY")], feed: "x", environment: env)
    }
    #expect(resolved?.description.contains("\n") == false)
    #expect(throws: FeedConfigError.self) {
      try EnvironmentExpansion.resolve(url: "http://h.example/tu?$KEY", headers: [], feed: "x", environment: env)
    }
  }
}
