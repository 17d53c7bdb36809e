import Foundation
import GTFSRealtime
import TestSupport
import Testing

@testable import TransitCLI

/// `transit departures STOP --watch` in a real terminal (issue 20): the built executable
/// inside tmux, reading trip updates from a local HTTP server whose answer changes between
/// polls.
@Suite(.enabled(if: transitExecutable != nil && tmuxExecutable != nil, "needs the built executable and tmux"))
struct BoardTerminalTests {
  /// The demo's trip updates with the 27 of 07:50 leaving at `minute` past 7 and the header
  /// stamped `stampOffset` seconds after the demo's 07:39:30.
  static func tripUpdates(leaving minute: Int64, stampOffset: UInt64) -> [UInt8] {
    var feed = DemoRealtimeSnapshot.tripUpdates
    feed.header?.timestamp = DemoRealtimeSnapshot.timestamp + stampOffset
    let index = feed.entities.firstIndex { $0.id == "27-WK-1-0750" }!
    feed.entities[index].tripUpdate!.stopTimeUpdates[0].departure = .init(time: DemoRealtimeSnapshot.at(7, minute))
    return feed.encoded()
  }

  /// A data folder with the demo network and a configured feed `demo` whose trip updates come
  /// from a local server: the first answer has the 27 at 07:53 (3 min late), every later one
  /// at 07:58 (8 min late). It publishes every 5 s, so the board polls again 5 to 7 s later.
  struct Setup {
    /// A copy of the demo timetable (ingested once per process, `DemoHome`).
    let home = DemoHome()
    let server: TestHTTPServer

    init() throws {
      let first = BoardTerminalTests.tripUpdates(leaving: 53, stampOffset: 0)
      let later = BoardTerminalTests.tripUpdates(leaving: 58, stampOffset: 10)
      server = try TestHTTPServer(lifetimeSeconds: 120) { _, count in
        TestHTTPServer.Response(headers: [("Content-Type", "application/x-protobuf")], body: count == 1 ? first : later)
      }
      let add = home.run(["feeds", "add", "demo", "--trip-updates", server.baseURL + "/tu", "--poll", "5"])
      try #require(add.code == 0, "\(add.stderr)")
    }

    /// `transit departures TINT --watch ...` as a command line.
    func board(_ extra: [String] = []) -> [String] {
      [
        "env", "LANG=C.UTF-8", "TERM=xterm", transitExecutable!, "departures", "TINT", "--watch", "--now", "2026-12-01T07:40:00Z",
        "--data-dir", home.path,
      ]
        + extra
    }
  }

  /// The 27's row on the screen.
  static func row27(_ screen: String) -> String? {
    screen.split(separator: "\n").map(String.init).first { $0.contains("27 ") && $0.contains("Crumlin Hospital") && !$0.contains("extra") }
  }

  @Test func theBoardDrawsRefreshesFromTheServerAndQuitsWithQ() throws {
    let setup = try Setup()
    let tmux = try TmuxSession(columns: 80, rows: 24, setup.board())
    defer { tmux.kill() }

    let first = try tmux.waitForPane { Self.row27($0)?.contains("3 min late") ?? false }
    #expect(first.hasPrefix("Tallaght Interchange · 07:40:"), "\(first)")
    #expect(first.contains("live, feed"), "\(first)")
    #expect(Self.row27(first)?.contains("07:53") ?? false, "\(first)")
    #expect(try tmux.isAlternateScreen())
    // The stop's footer: how to quit and when the next update comes.
    #expect(first.contains("q quits · next update in"), "\(first)")
    // Every line fits 80 columns and the board fits 24 rows.
    #expect(first.split(separator: "\n").allSatisfy { $0.count <= 80 })

    // The second poll brings the 27 at 07:58: the row changes on screen, marked as changed.
    let second = try tmux.waitForPane(seconds: 20) { Self.row27($0)?.contains("8 min late") ?? false }
    let row = try #require(Self.row27(second), "\(second)")
    #expect(row.contains("07:58") && row.contains("8 min late"), "\(second)")
    #expect(row.hasPrefix("* "), "the changed row is marked: \(row)")
    #expect(setup.server.requests.count >= 2)

    try tmux.run(["send-keys", "q"])
    let after = try tmux.waitForPane { $0.contains("exit=") }
    #expect(after.contains("exit=0"), "\(after)")
    #expect(!after.contains("Crumlin Hospital"))
    #expect(try !tmux.isAlternateScreen())
  }

  @Test func sixtyColumnsDropColumnsWithoutBreakingLinesAndAResizeRedraws() throws {
    let setup = try Setup()
    let tmux = try TmuxSession(columns: 100, rows: 24, setup.board())
    defer { tmux.kill() }

    let wide = try tmux.waitForPane { Self.row27($0)?.contains("3 min late") ?? false }
    // 100 columns: the platform and the live marker are there.
    let wideRow = try #require(Self.row27(wide))
    #expect(wideRow.contains("platform A") && wideRow.hasSuffix("live"), "\(wide)")

    try tmux.run(["resize-window", "-x", "60"])
    let narrow = try tmux.waitForPane(seconds: 5) { screen in
      (Self.row27(screen).map { !$0.contains("platform") } ?? false)
    }
    let lines = narrow.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { $0.count <= 60 }, "\(narrow)")
    let narrowRow = try #require(Self.row27(narrow), "\(narrow)")
    // The marker and the platform went first; route, destination, time, countdown and delay stay,
    // on one line.
    #expect(!narrowRow.contains("live") && !narrowRow.contains("platform"), "\(narrow)")
    #expect(narrowRow.contains("13 min") || narrowRow.contains("12 min") || narrowRow.contains("18 min"), "\(narrow)")
    #expect(narrow.hasPrefix("Tallaght Interchange · 07:"), "\(narrow)")
    // No wrapped continuation: each departure row starts with the gutter and a route.
    for line in lines where line.contains("min") && !line.contains("next update") && !line.hasPrefix("Tallaght") {
      #expect(line.hasPrefix("  ") || line.hasPrefix("* "), "a broken line: \(line)")
    }

    // Wider again: the columns come back, and the board is still alive.
    try tmux.run(["resize-window", "-x", "100"])
    let again = try tmux.waitForPane(seconds: 5) { Self.row27($0)?.contains("platform A") ?? false }
    #expect(Self.row27(again)?.contains("platform A") ?? false, "\(again)")
    try tmux.run(["send-keys", "q"])
    #expect(try tmux.waitForPane { $0.contains("exit=") }.contains("exit=0"))
  }

  @Test func sigtermRestoresTheTerminal() throws {
    let setup = try Setup()
    let pidFile = setup.home.path + "/board.pid"
    // sh writes its pid, then becomes transit (exec keeps the pid).
    let script = setup.home.path + "/board.sh"
    let words = setup.board().map(TmuxSession.quoted).joined(separator: " ")
    try "echo $$ > \(TmuxSession.quoted(pidFile)); exec \(words)\n".write(toFile: script, atomically: true, encoding: .utf8)
    let tmux = try TmuxSession(columns: 80, rows: 24, ["sh", script])
    defer { tmux.kill() }

    _ = try tmux.waitForPane { Self.row27($0) != nil }
    #expect(try tmux.isAlternateScreen())
    let pid = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(kill(pid, SIGTERM) == 0)
    let after = try tmux.waitForPane { $0.contains("exit=") }
    #expect(after.contains("exit=143"), "\(after)")
    #expect(!after.contains("Crumlin Hospital"))
    #expect(try !tmux.isAlternateScreen())
    // The cursor is shown again.
    #expect(try tmux.run(["display-message", "-p", "#{cursor_flag}"]).hasPrefix("1"))
  }

  @Test func aDumbTerminalGetsPlainFrames() throws {
    let setup = try Setup()
    var words = setup.board(["--count", "1"])
    words[2] = "TERM=dumb"
    let tmux = try TmuxSession(columns: 80, rows: 24, words)
    defer { tmux.kill() }
    let screen = try tmux.waitForPane { $0.contains("exit=") }
    #expect(screen.contains("exit=0"), "\(screen)")
    #expect(screen.hasPrefix("Tallaght Interchange - 07:40:00 - live, feed"), "\(screen)")
    #expect(Self.row27(screen)?.contains("3 min late") ?? false, "\(screen)")
    #expect(!screen.contains("\u{1B}"))
  }
}
