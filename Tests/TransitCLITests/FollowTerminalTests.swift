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

  /// Starts `transit follow V27-1 --replay` on the demo network in a new tmux server of
  /// `columns` × 30 (UTF-8 locale); returns the session and the data folder, which must live as
  /// long as the test.
  func startFollow(columns: Int) throws -> (TmuxSession, DemoHome) {
    let home = DemoHome()
    let listed = home.run(["ingest", "--list"])
    try #require(listed.code == 0, "\(listed.stderr)")
    let session = try TmuxSession(
      columns: columns, rows: 30,
      ["env", "LANG=C.UTF-8", transitExecutable!, "follow", "V27-1", "--replay", packageRoot + "/Data/replay", "--data-dir", home.path])
    return (session, home)
  }

  @Test func fullScreenFollowQuitsWithQAndLeavesTheAlternateScreen() throws {
    let (tmux, home) = try startFollow(columns: 100)
    defer { tmux.kill(); _ = home }

    let screen = try tmux.waitForPane { $0.contains("next: Tymon Park") }
    #expect(screen.contains("27 to Tallaght Interchange · vehicle 27 · 1"))
    #expect(screen.contains("next: Tymon Park (Páirc Thíomóin) · 07:39 · 3 min"), "\(screen)")
    #expect(screen.contains("Tallaght Interchange"))
    #expect(try tmux.isAlternateScreen())

    try tmux.run(["send-keys", "q"])
    let after = try tmux.waitForPane { $0.contains("exit=") }
    #expect(after.contains("exit=0"), "\(after)")
    #expect(!after.contains("next: Tymon Park"))
    #expect(try !tmux.isAlternateScreen())
  }

  @Test func aWideTerminalGetsAMapPanelBesideTheStops() throws {
    let (tmux, home) = try startFollow(columns: 140)
    defer { tmux.kill(); _ = home }

    let screen = try tmux.waitForPane { $0.contains("north ↑") }
    #expect(screen.contains("next: Tymon Park (Páirc Thíomóin) · 07:39"), "\(screen)")
    // The panel: a rule down the middle, braille dots, the route number at the bus, a scale bar.
    let rows = screen.split(separator: "\n")
    #expect(rows.filter { $0.contains(" │ ") }.count >= 20, "\(screen)")
    #expect(screen.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
    #expect(rows.contains { $0.split(separator: "│").last?.contains("27") ?? false })
    #expect(rows.first?.hasPrefix("27 to Tallaght Interchange · vehicle 27") ?? false)
    // Narrowed below 110 columns, the next frame is the list alone.
    try tmux.run(["resize-window", "-x", "90"])
    let narrow = try tmux.waitForPane(seconds: 5) { !$0.contains(" │ ") && $0.contains("next: Tymon Park") }
    #expect(!narrow.contains(" │ ") && !narrow.contains("north ↑"), "\(narrow)")
    try tmux.run(["send-keys", "q"])
    #expect(try tmux.waitForPane { $0.contains("exit=") }.contains("exit=0"))
  }
}
