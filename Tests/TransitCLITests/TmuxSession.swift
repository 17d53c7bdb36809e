import Foundation
import TestSupport
import Testing

/// A private tmux server running one command in a pane of a given size: the harness the follow
/// and board terminal tests share (`FollowTerminalTests`, `BoardTerminalTests`). tmux runs
/// through `sh` and `system(3)`; its output is read from a file, since the server
/// `new-session` forks keeps no pipe open.
struct TmuxSession {
  let socket: String

  /// Starts `words` (quoted for sh) in a detached session of `columns` × `rows`; the pane then
  /// prints `exit=CODE` and lingers, so the end can be seen. The server's socket is named
  /// `socketPrefix` and a random tail.
  init(columns: Int, rows: Int, _ words: [String], socketPrefix: String = "transit-test-") throws {
    socket = socketPrefix + UUID().uuidString.prefix(8)
    let command = words.map(Self.quoted).joined(separator: " ")
    try run(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "sh -c \"\(command); echo exit=\\$?; sleep 30\""])
  }

  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    let path = NSTemporaryDirectory() + "transit-tmux-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: path) }
    let words = [tmuxExecutable!, "-L", socket] + arguments
    let line = words.map(Self.quoted).joined(separator: " ") + " </dev/null >" + Self.quoted(path) + " 2>/dev/null"
    _ = system(line)
    return String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
  }

  static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// The pane's text now.
  func pane() throws -> String { try run(["capture-pane", "-p"]) }

  /// Polls the pane until `predicate` holds on its text (up to `seconds`); returns the last text.
  /// It blocks its test thread between polls on purpose: a test that suspended instead waits
  /// behind every queued test to resume (hundreds, on 2 threads), past the moments these
  /// tests check (a row marked as changed for a few seconds) and past its own deadline.
  func waitForPane(seconds: Double = 15, _ predicate: (String) -> Bool) throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var text = ""
    while Date() < deadline {
      text = try pane()
      if predicate(text) { return text }
      Thread.sleep(forTimeInterval: 0.1)
    }
    return text
  }

  /// Whether the pane is on the alternate screen.
  func isAlternateScreen() throws -> Bool { try run(["display-message", "-p", "#{alternate_on}"]).hasPrefix("1") }

  func kill() { _ = try? run(["kill-server"]) }
}
