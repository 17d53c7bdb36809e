import Foundation
import TestSupport
import Testing

/// A cron refresh against a real HTTP server on 127.0.0.1 serving, in turn, everything a
/// feed URL can turn into (issue 19): each time the right outcome, exit code and message, and
/// the timetable answering queries before, during (a query loop runs beside the ingest) and
/// after.
@Suite(.serialized) struct CronRefreshTests {
  static let now = "2026-12-01T12:00:00Z"

  /// A small feed as a ZIP: `stops` stops in a line, one route and trip per pair of them,
  /// every day from `start` to `end`, for `agency`; stop `moved` is 0.001° further north.
  static func zip(
    agency: String = "Gate Transit", agencyID: String = "G", stops: Int = 10, start: Int = 20260101, end: Int = 20271231, moved: Int? = nil
  ) -> [UInt8] {
    var stopRows = "stop_id,stop_name,stop_lat,stop_lon\n"
    for index in 0..<stops { stopRows += "S\(index),Stop \(index),\(index == moved ? "53.2910" : "53.2900"),-6.\(3600 + index * 10)\n" }
    var routes = "route_id,agency_id,route_short_name,route_type\n", trips = "route_id,service_id,trip_id\n"
    var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
    for index in 0..<(stops - 1) {
      routes += "R\(index),\(agencyID),\(index + 1),3\n"
      trips += "R\(index),ALL,T\(index)\n"
      times += "T\(index),08:00:00,08:00:00,S\(index),1\nT\(index),08:10:00,08:10:00,S\(index + 1),2\n"
    }
    return storedZip([
      (
        "agency.txt",
        Array("agency_id,agency_name,agency_url,agency_timezone\n\(agencyID),\(agency),https://example.org,Europe/Dublin\n".utf8)
      ),
      (
        "calendar.txt",
        Array(
          "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nALL,1,1,1,1,1,1,1,\(start),\(end)\n"
            .utf8)
      ),
      ("routes.txt", Array(routes.utf8)), ("stop_times.txt", Array(times.utf8)), ("stops.txt", Array(stopRows.utf8)),
      ("trips.txt", Array(trips.utf8)),
    ])
  }

  /// What the server answers for /gtfs.zip, changed by the test between runs.
  final class Serving: @unchecked Sendable {
    private let lock = NSLock()
    private var response = TestHTTPServer.Response()
    var value: TestHTTPServer.Response {
      get { lock.withLock { response } }
      set { lock.withLock { response = newValue } }
    }
  }

  /// Runs `body` while another thread asks for stop 7 again and again; returns what each
  /// answer was (its stdout), in order.
  static func whileQuerying(_ home: String, _ body: () -> Void) -> [String] {
    final class Loop: @unchecked Sendable {
      let lock = NSLock()
      var answers: [String] = []
      var isStopped = false
      let done = DispatchSemaphore(value: 0)
    }
    let state = Loop()
    let thread = Thread {
      repeat {
        let answer = transit(["stops", "search", "stop 7", "--now", now, "--data-dir", home]).stdout
        state.lock.withLock { state.answers.append(answer) }
      } while !state.lock.withLock({ state.isStopped })
      state.done.signal()
    }
    thread.start()
    body()
    state.lock.withLock { state.isStopped = true }
    state.done.wait()
    return state.lock.withLock { state.answers }
  }

  @Test func everyKindOfAnswerAtTheFeedURL() throws {
    let serving = Serving()
    let server = try TestHTTPServer(lifetimeSeconds: 240, maxRequests: 100) { request, _ in
      var response = serving.value
      // Conditional GET: answer 304 when the client has this body's ETag.
      if response.status == 200, let tag = response.headers.first(where: { $0.0 == "ETag" })?.1,
        request.headers["if-none-match"] == tag
      {
        response = .init(status: 304, headers: [("ETag", tag)])
      }
      return response
    }
    defer { server.stop() }
    let home = TemporaryFolder()
    func run(_ arguments: [String]) -> CLIResult { transit(arguments + ["--now", Self.now, "--data-dir", home.path]) }
    #expect(run(["feeds", "add", "gate", "--gtfs", server.baseURL + "/gtfs.zip"]).code == 0)
    let good = Self.zip()
    serving.value = .init(headers: [("ETag", "\"v1\"")], body: good)
    let first = run(["ingest", "--if-changed", "--quiet"])
    #expect(first.code == 0, "\(first.stderr)")
    #expect(run(["fav", "add", "S7", "--label", "work"]).code == 0)
    let held = run(["stops", "search", "stop 7"]).stdout
    #expect(held.contains("Stop 7"))

    // (outcome's exit code, stdout, stderr prefix, whether the timetable changed)
    struct Case {
      var name: String
      var response: TestHTTPServer.Response
      var code: Int32
      var stdout: String
      var stderr: String
    }
    let url = server.baseURL + "/gtfs.zip"
    let cases: [Case] = [
      Case(name: "the same feed, 304", response: .init(headers: [("ETag", "\"v1\"")], body: good), code: 0, stdout: "", stderr: ""),
      Case(name: "the same content, no validators", response: .init(body: good), code: 0, stdout: "", stderr: ""),
      Case(
        name: "an expired feed", response: .init(body: Self.zip(end: 20261031)), code: 4, stdout: "",
        stderr: "transit: refused to replace the timetable of gate: service-ended: its service ended on 2026-10-31 (today is 2026-12-01)"),
      Case(
        name: "another agency's feed", response: .init(body: Self.zip(agency: "Other Lines", agencyID: "O")), code: 4, stdout: "",
        stderr: "transit: refused to replace the timetable of gate: same-agency: "),
      Case(
        name: "40 % of the stops", response: .init(body: Self.zip(stops: 4)), code: 4, stdout: "",
        stderr: "transit: refused to replace the timetable of gate: stops: stops 10 -> 4 (-60 %, at most -50 %)"),
      Case(
        name: "an HTML page", response: .html(), code: 1, stdout: "", stderr: "transit: \(url): got an html page where a zip was expected"),
      Case(name: "a truncated ZIP", response: .init(body: Array(good.prefix(good.count / 2))), code: 1, stdout: "", stderr: "transit: "),
      Case(name: "a 500", response: .init(status: 500), code: 1, stdout: "", stderr: "transit: \(url): http 500 internal server error"),
      Case(
        name: "a connection closed mid-body", response: .init(body: good, truncateAfter: good.count / 3), code: 1, stdout: "",
        stderr: "transit: \(url): the body ended early"),
    ]
    for item in cases {
      serving.value = item.response
      var result = CLIResult(code: -1, stdout: "", stderr: "")
      let answers = Self.whileQuerying(home.path) { result = run(["ingest", "--if-changed", "--quiet"]) }
      #expect(result.code == item.code, "\(item.name): \(result.stderr)")
      #expect(result.stdout == item.stdout, "\(item.name)")
      #expect(result.stderr.hasPrefix(item.stderr), "\(item.name): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count <= 1, "\(item.name): one line at most")
      #expect(!answers.isEmpty && answers.allSatisfy { $0 == held }, "\(item.name): answered during the ingest")
      #expect(run(["stops", "search", "stop 7"]).stdout == held, "\(item.name): answers after")
    }

    // A changed feed: swapped, and what changed at the rider's stop said (alone, under --quiet).
    serving.value = .init(headers: [("ETag", "\"v2\"")], body: Self.zip(moved: 7))
    var changed = CLIResult(code: -1, stdout: "", stderr: "")
    let answers = Self.whileQuerying(home.path) { changed = run(["ingest", "--if-changed", "--quiet"]) }
    #expect(changed.code == 0, "\(changed.stderr)")
    #expect(changed.stdout == "your stop S7 (work) moved 111 m\n")
    #expect(answers.allSatisfy { $0.contains("Stop 7") }, "old or new, always whole")
    #expect(run(["ingest", "--list"]).stdout.contains("2026-01-01 to 2027-12-31"))
  }
}
