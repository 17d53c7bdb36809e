import Foundation
import TestSupport
import Testing

@testable import TransitCLI

/// tmux, when installed.
let tmuxExecutable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// `transit follow --replay` in a real terminal: the built executable inside tmux.
@Suite(.enabled(if: transitExecutable != nil && tmuxExecutable != nil, "needs the built executable and tmux"))
struct FollowTerminalTests {

  /// Runs tmux on a private server through `sh` and `system(3)` (which waits with waitpid);
  /// returns its stdout, read from a file: the server `new-session` forks keeps no pipe open.
  @discardableResult
  func tmux(_ socket: String, _ arguments: [String]) throws -> String {
    let path = NSTemporaryDirectory() + "transit-tmux-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: path) }
    let words = [tmuxExecutable!, "-L", socket] + arguments
    let line = words.map(quoted).joined(separator: " ") + " </dev/null >" + quoted(path) + " 2>/dev/null"
    _ = system(line)
    return String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
  }

  func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// Polls the pane until `predicate` holds on its text (up to `seconds`).
  func waitForPane(_ socket: String, seconds: Double = 15, _ predicate: (String) -> Bool) throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var text = ""
    while Date() < deadline {
      text = try tmux(socket, ["capture-pane", "-p"])
      if predicate(text) { return text }
      Thread.sleep(forTimeInterval: 0.1)
    }
    return text
  }

  /// Starts `transit follow V27-1 --replay` on the demo network in a new tmux server of
  /// `columns` × 30 (UTF-8 locale); returns the server's socket name and the data folder, which
  /// must live as long as the test.
  func startFollow(columns: Int) throws -> (String, TemporaryFolder) {
    let home = TemporaryFolder()
    let ingest = transit(["ingest", packageRoot + "/Data/gtfs", "--feed", "demo", "--quiet", "--data-dir", home.path])
    try #require(ingest.code == 0, "\(ingest.stderr)")
    let socket = "transit-test-" + UUID().uuidString.prefix(8)
    let command = [
      "env", "LANG=C.UTF-8", transitExecutable!, "follow", "V27-1", "--replay", packageRoot + "/Data/replay", "--data-dir", home.path,
    ].map(quoted).joined(separator: " ")
    try tmux(socket, ["new-session", "-d", "-x", "\(columns)", "-y", "30", "sh -c \"\(command); echo exit=\\$?; sleep 5\""])
    return (socket, home)
  }

  @Test func fullScreenFollowQuitsWithQAndLeavesTheAlternateScreen() throws {
    let (socket, home) = try startFollow(columns: 100)
    defer { _ = try? tmux(socket, ["kill-server"]); _ = home }

    let screen = try waitForPane(socket) { $0.contains("next: Tymon Park") }
    #expect(screen.contains("27 to Tallaght Interchange · vehicle 27 · 1"))
    #expect(screen.contains("next: Tymon Park (Páirc Thíomóin) · 07:39 · 3 min"), "\(screen)")
    #expect(screen.contains("Tallaght Interchange"))
    #expect(try tmux(socket, ["display-message", "-p", "#{alternate_on}"]).hasPrefix("1"))

    try tmux(socket, ["send-keys", "q"])
    let after = try waitForPane(socket) { $0.contains("exit=") }
    #expect(after.contains("exit=0"), "\(after)")
    #expect(!after.contains("next: Tymon Park"))
    #expect(try tmux(socket, ["display-message", "-p", "#{alternate_on}"]).hasPrefix("0"))
  }

  @Test func aWideTerminalGetsAMapPanelBesideTheStops() throws {
    let (socket, home) = try startFollow(columns: 140)
    defer { _ = try? tmux(socket, ["kill-server"]); _ = home }

    let screen = try waitForPane(socket) { $0.contains("north ↑") }
    #expect(screen.contains("next: Tymon Park (Páirc Thíomóin) · 07:39"), "\(screen)")
    // The panel: a rule down the middle, braille dots, the route number at the bus, a scale bar.
    let rows = screen.split(separator: "\n")
    #expect(rows.filter { $0.contains(" │ ") }.count >= 20, "\(screen)")
    #expect(screen.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
    #expect(rows.contains { $0.split(separator: "│").last?.contains("27") ?? false })
    #expect(rows.first?.hasPrefix("27 to Tallaght Interchange · vehicle 27") ?? false)
    // Narrowed below 110 columns, the next frame is the list alone.
    try tmux(socket, ["resize-window", "-x", "90"])
    let narrow = try waitForPane(socket, seconds: 5) { !$0.contains(" │ ") && $0.contains("next: Tymon Park") }
    #expect(!narrow.contains(" │ ") && !narrow.contains("north ↑"), "\(narrow)")
    try tmux(socket, ["send-keys", "q"])
    #expect(try waitForPane(socket) { $0.contains("exit=") }.contains("exit=0"))
  }
}
