import Foundation
import TestSupport
import Testing

@testable import TransitCLI

/// The fetch work end to end through `transit`, against a server on 127.0.0.1.
@Suite struct FeedsCommandTests {
  static let secret = "s3cr3t-KEY-4242"
  static let now = "2026-12-01T07:40:00Z"

  /// Serves the demo GTFS ZIP (with an ETag) and the demo trip updates; `/tu` fails once
  /// `failing` is set.
  static func demoServer(failing: Flag = Flag()) throws -> TestHTTPServer {
    let zip = try demoZip()
    let tripUpdates = demoTripUpdates()
    return try TestHTTPServer { request, _ in
      switch request.path {
      case "/gtfs.zip":
        if request.headers["if-none-match"] == "\"z1\"" { return .init(status: 304) }
        return .init(headers: [("ETag", "\"z1\""), ("Content-Type", "application/zip")], body: zip)
      case "/tu", "/tu?key=" + secret:
        return failing.value == 0 ? .init(body: tripUpdates) : .init(status: 500)
      default: return .init(status: 404)
      }
    }
  }

  @Test func feedsAddListCheckRemoveNeverShowTheKey() throws {
    let server = try Self.demoServer()
    defer { server.stop() }
    let home = TemporaryFolder()
    let env = ["MTA_KEY": Self.secret]
    var outputs: [String] = []
    func run(_ arguments: [String]) -> CLIResult {
      let result = transit(arguments + ["--data-dir", home.path], environment: env)
      outputs.append(result.all)
      return result
    }
    let add = run([
      "feeds", "add", "mta", "--gtfs", server.baseURL + "/gtfs.zip", "--trip-updates", server.baseURL + "/tu",
      "--header", "x-api-key: $MTA_KEY", "--header", "Authorization: Bearer literal-token-99", "--poll", "15",
    ])
    #expect(add.code == 0)
    #expect(add.stdout == "added feed mta: gtfs, trip-updates\n")
    let config = home.path + "/feeds.json"
    #expect(try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int == 0o600)
    let stored = String(decoding: FileManager.default.contents(atPath: config)!, as: UTF8.self)
    #expect(stored.contains("$MTA_KEY") && !stored.contains(Self.secret))

    let list = run(["feeds", "list"])
    #expect(list.code == 0)
    #expect(
      list.stdout == """
        mta  (realtime period 15 s)
          gtfs               \(server.baseURL)/gtfs.zip
          trip-updates       \(server.baseURL)/tu
          header             x-api-key: $MTA_KEY
          header             Authorization: <redacted>

        """)
    #expect(!run(["feeds", "list", "--json"]).stdout.contains("literal-token-99"))

    let check = run(["feeds", "check", "--verbose"])
    print(check.stdout + check.stderr)
    #expect(check.stderr.contains("> x-api-key: <redacted>\n"))
    #expect(check.stderr.contains("> Authorization: <redacted>\n"))
    #expect(check.code == 0)
    #expect(check.stdout.contains("mta   gtfs          ok"))
    #expect(check.stdout.contains("mta   trip-updates  ok"))
    // The key went to the server, and only there.
    #expect(server.requests.allSatisfy { $0.headers["x-api-key"] == Self.secret })
    #expect(server.requests.allSatisfy { $0.headers["authorization"] == "Bearer literal-token-99" })

    let ingest = run(["ingest"])
    #expect(ingest.code == 0)
    #expect(ingest.stdout.hasPrefix("ingested mta in "))
    let departures = run(["departures", "TINT", "--now", Self.now])
    #expect(departures.code == 0)
    #expect(departures.stdout.contains("realtime: fresh"))
    #expect(departures.stdout.contains("live"))

    // A missing variable is named, never a value.
    let unset = transit(["rt", "dump", server.baseURL + "/tu", "--refresh", "--data-dir", home.path])
    outputs.append(unset.all)
    #expect(unset.code == 1)
    #expect(unset.stderr == "transit: header 'x-api-key' of feed 'mta' uses $MTA_KEY, which is not set in the environment\n")

    // A key in a URL is redacted in errors.
    _ = run(["feeds", "add", "keyed", "--alerts", server.baseURL + "/missing?key=$MTA_KEY"])
    let failed = run(["rt", "dump", server.baseURL + "/missing?key=$MTA_KEY"])
    #expect(failed.code == 1)
    #expect(failed.stderr == "transit: \(server.baseURL)/missing?key=<redacted>: http 404 not found\n")
    let checkFailed = run(["feeds", "check", "keyed"])
    #expect(checkFailed.code == 1)
    #expect(checkFailed.stdout.contains("failed: \(server.baseURL)/missing?key=<redacted>: http 404 not found"))

    #expect(run(["feeds", "remove", "keyed"]).stdout == "removed feed keyed\n")
    #expect(run(["feeds", "remove", "keyed"]).code == 3)
    for output in outputs { #expect(!output.contains(Self.secret), "\(output)") }
    #expect(!outputs.joined().contains("literal-token-99"))
  }

  @Test func realtimeComesFromTheCacheWithinThePeriodAndFallsBackWithItsAge() throws {
    let failing = Flag()
    let server = try Self.demoServer(failing: failing)
    defer { server.stop() }
    let home = TemporaryFolder()
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", home.path]) }
    #expect(run(["feeds", "add", "demo", "--gtfs", server.baseURL + "/gtfs.zip", "--trip-updates", server.baseURL + "/tu"]).code == 0)
    #expect(run(["ingest", "--quiet"]).stdout == "")
    #expect(run(["departures", "TINT", "--now", Self.now]).stdout.contains("realtime: fresh"))
    let fetches = server.requests.filter { $0.path == "/tu" }.count
    // Again within 30 s: from the cache, no request.
    #expect(run(["departures", "TINT", "--now", Self.now]).stdout.contains("realtime: fresh"))
    #expect(server.requests.filter { $0.path == "/tu" }.count == fetches)
    // --refresh fetches; when that fails the last good snapshot is used and its age said.
    failing.value = 1
    let fallback = run(["departures", "TINT", "--now", Self.now, "--refresh"])
    #expect(fallback.code == 0)
    #expect(fallback.stdout.contains("realtime: fresh"))
    #expect(fallback.stderr.hasPrefix("transit: \(server.baseURL)/tu: http 500 internal server error; using the snapshot from "))
    #expect(fallback.stderr.hasSuffix(" s ago\n"))
    #expect(server.requests.filter { $0.path == "/tu" }.count == fetches + 1)
    // --realtime FILE still overrides the configured feeds.
    let local = run(["departures", "TINT", "--now", Self.now, "--realtime", packageRoot + "/Data/realtime/demo-tripupdates.pb"])
    #expect(local.stderr == "")
    #expect(server.requests.filter { $0.path == "/tu" }.count == fetches + 1)
  }

  @Test func departuresWithoutAnyGoodRealtimeShowTheTimetableAndSaySo() throws {
    let server = try Self.demoServer(failing: Flag(1))
    defer { server.stop() }
    let home = TemporaryFolder()
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", home.path]) }
    #expect(run(["feeds", "add", "demo", "--gtfs", server.baseURL + "/gtfs.zip", "--trip-updates", server.baseURL + "/tu"]).code == 0)
    #expect(run(["ingest"]).code == 0)
    let result = run(["departures", "TINT", "--now", Self.now])
    #expect(result.code == 0)
    #expect(result.stderr == "transit: \(server.baseURL)/tu: http 500 internal server error; realtime not used\n")
    #expect(!result.stdout.contains("live"))
  }

  @Test func rtDumpFetchesAURL() throws {
    let server = try Self.demoServer()
    defer { server.stop() }
    let home = TemporaryFolder()
    let dump = transit(["rt", "dump", server.baseURL + "/tu", "--summary", "--data-dir", home.path, "--now", Self.now])
    print(dump.stdout)
    #expect(dump.code == 0)
    #expect(dump.stdout.contains("trip"))
    let html = try TestHTTPServer { _, _ in .html() }
    defer { html.stop() }
    let page = transit(["rt", "dump", html.baseURL + "/feed.pb", "--data-dir", home.path])
    #expect(page.code == 1)
    #expect(page.stderr == "transit: \(html.baseURL)/feed.pb: got an html page where a protobuf feed was expected\n")
  }

  @Test func ingestURLIfChangedTwiceIsANoOpTheSecondTime() throws {
    let server = try Self.demoServer()
    defer { server.stop() }
    let home = TemporaryFolder()
    let url = server.baseURL + "/gtfs.zip"
    let first = transit(["ingest", url, "--feed", "demo", "--if-changed", "--data-dir", home.path])
    print(first.stdout + first.stderr)
    #expect(first.code == 0)
    #expect(first.stdout.hasPrefix("changed: ingested demo in "))
    let second = transit(["ingest", url, "--feed", "demo", "--if-changed", "--data-dir", home.path])
    print(second.stdout + second.stderr)
    #expect(second.code == 0)
    #expect(second.stdout == "unchanged: demo (the server says not modified)\n")
    #expect(server.requests.last?.headers["if-none-match"] == "\"z1\"")
    let quiet = transit(["ingest", url, "--feed", "demo", "--if-changed", "--quiet", "--data-dir", home.path])
    #expect(quiet.code == 0 && quiet.stdout == "" && quiet.stderr == "")
    // Without --if-changed it loads again.
    #expect(transit(["ingest", url, "--feed", "demo", "--data-dir", home.path]).stdout.hasPrefix("ingested demo in "))
    let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: home.path + "/cache/downloads")) ?? []
    #expect(leftovers.isEmpty)
  }

  @Test func aDownloadShowsItsProgressOnATerminalOnly() throws {
    let zip = try demoZip()
    let server = try TestHTTPServer { request, _ in
      .init(body: zip, chunkSize: request.path == "/chunked.zip" ? 4096 : nil)
    }
    defer { server.stop() }
    func ingest(_ path: String, terminal: Bool) -> CLIResult {
      let home = TemporaryFolder()
      let context = CommandContext.capturing(environment: ["TRANSIT_FETCH_RETRIES": "0"], currentDirectory: home.path)
      context.stderrIsTerminal = terminal
      return transit(["ingest", server.baseURL + path, "--feed", "demo", "--data-dir", home.path], context: context)
    }
    // With a Content-Length: the share done and the size.
    let declared = ingest("/gtfs.zip", terminal: true)
    #expect(declared.code == 0, "\(declared.stderr)")
    #expect(declared.stderr.hasPrefix("\r\u{1B}[2K"))
    #expect(declared.stderr.contains("% downloading "), "\(declared.stderr)")
    #expect(declared.stderr.contains(" of \(FeedsSupport.sizeText(zip.count))"), "\(declared.stderr)")
    // Chunked: no length to share out, the bytes so far.
    let chunked = ingest("/chunked.zip", terminal: true)
    #expect(chunked.code == 0, "\(chunked.stderr)")
    #expect(chunked.stderr.contains("downloading ") && chunked.stderr.contains(" so far"), "\(chunked.stderr)")
    // Piped (cron): nothing but the final line on stdout.
    let piped = ingest("/gtfs.zip", terminal: false)
    #expect(piped.code == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    #expect(piped.stdout.hasPrefix("ingested demo in "))
  }

  @Test func ifChangedComparesTheContentHashWhenTheServerHasNoValidators() throws {
    let variant = Flag()
    let zips = [try demoZip(), try demoZip(variant: 1)]
    let server = try TestHTTPServer { _, _ in .init(body: zips[variant.value]) }
    defer { server.stop() }
    let home = TemporaryFolder()
    let url = server.baseURL + "/plain.zip"
    func run() -> CLIResult { transit(["ingest", url, "--if-changed", "--data-dir", home.path]) }
    #expect(run().stdout.hasPrefix("changed: ingested "))
    let same = run()
    #expect(same.code == 0)
    #expect(same.stdout.hasPrefix("unchanged: "))
    #expect(same.stdout.contains("(same content, sha256 "))
    variant.value = 1
    #expect(run().stdout.hasPrefix("changed: ingested "))
    let list = transit(["ingest", "--list", "--json", "--data-dir", home.path])
    #expect(list.stdout.contains("\"source\": \"\(url)\""))
  }

  @Test(arguments: [
    ("/500", "http 500 internal server error"), ("/html", "got an html page where a zip was expected"),
    ("/cut", "the body ended early (truncated transfer)"), ("/404", "http 404 not found"),
  ])
  func aFailedDownloadLeavesThePreviousTimetable(path: String, message: String) throws {
    let zip = try demoZip()
    let server = try TestHTTPServer { request, _ in
      switch request.path {
      case "/gtfs.zip": return .init(body: zip)
      case "/500": return .init(status: 500)
      case "/html": return .html()
      case "/cut": return .init(body: zip, truncateAfter: zip.count / 2)
      default: return .init(status: 404)
      }
    }
    defer { server.stop() }
    let home = TemporaryFolder()
    #expect(transit(["ingest", server.baseURL + "/gtfs.zip", "--feed", "demo", "--data-dir", home.path]).code == 0)
    let before = transit(["departures", "TINT", "--now", Self.now, "--data-dir", home.path])
    let failed = transit(["ingest", server.baseURL + path, "--feed", "demo", "--data-dir", home.path])
    #expect(failed.code == 1)
    #expect(failed.stderr == "transit: \(server.baseURL)\(path): \(message)\n")
    let after = transit(["departures", "TINT", "--now", Self.now, "--data-dir", home.path])
    #expect(after.code == 0)
    #expect(after.stdout == before.stdout)
  }

  @Test func ifChangedWorksForLocalFilesAndFileFeeds() throws {
    let home = TemporaryFolder()
    let zipPath = home.path + "/demo.zip"
    #expect(FileManager.default.createFile(atPath: zipPath, contents: Data(try demoZip())))
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--data-dir", home.path]) }
    #expect(run(["ingest", zipPath, "--feed", "local", "--if-changed"]).stdout.hasPrefix("changed: ingested local in "))
    #expect(run(["ingest", zipPath, "--feed", "local", "--if-changed"]).stdout.hasPrefix("unchanged: local (same content, sha256 "))
    // A configured feed whose --gtfs is a path is read from disk the same way.
    #expect(run(["feeds", "add", "disk", "--gtfs", zipPath]).code == 0)
    #expect(run(["feeds", "list"]).stdout.contains("gtfs               file://\(zipPath)"))
    #expect(run(["ingest", "--feed", "disk", "--if-changed"]).stdout.hasPrefix("changed: ingested disk in "))
    #expect(run(["ingest", "--feed", "disk", "--if-changed"]).stdout.hasPrefix("unchanged: disk (same content, sha256 "))
  }

  @Test func usageAndNotFound() throws {
    let home = TemporaryFolder()
    let none = transit(["ingest", "--data-dir", home.path])
    #expect(none.code == 2)
    #expect(none.stderr.hasPrefix("transit: missing PATH|URL (or configure a feed with 'transit feeds add NAME --gtfs URL') (usage: "))
    #expect(transit(["feeds", "add", "x", "--data-dir", home.path]).code == 2)
    #expect(transit(["feeds", "add", "x", "--gtfs", "https://example.org/a.zip", "--header", "bad", "--data-dir", home.path]).code == 2)
    #expect(transit(["feeds", "add", "x", "--gtfs", "https://example.org/a.zip", "--poll", "1", "--data-dir", home.path]).code == 2)
    #expect(transit(["feeds", "add", "bad name", "--gtfs", "https://example.org/a.zip", "--data-dir", home.path]).code == 2)
    #expect(transit(["feeds", "add", "x", "--gtfs", "https://example.org/a.zip", "--data-dir", home.path]).code == 0)
    let unknown = transit(["ingest", "--feed", "nope", "--data-dir", home.path])
    #expect(unknown.code == 3)
    #expect(unknown.stderr == "transit: no feed named 'nope' is configured; configured: x\n")
    #expect(transit(["feeds", "check", "nope", "--data-dir", home.path]).code == 3)
    #expect(transit(["feeds", "list", "--data-dir", home.path]).stdout.contains("gtfs               https://example.org/a.zip"))
  }
}
