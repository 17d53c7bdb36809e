import Foundation
import TestSupport
import Testing

/// The README's status-bar and prompt recipes (issue 39), each taken from README.md as it is
/// written and run the way its bar runs it: the tmux lines as a tmux configuration, its
/// status-right read from a real tmux server (`display -p`); waybar's module as JSON, its `exec`
/// run through `sh -c` and the line read as waybar's JSON protocol; the i3blocks and polybar
/// commands through `sh -c`; the bash prompt expanded by bash. The `transit` they find on PATH
/// is the built one, pinned to the demo network at 07:40 with its realtime snapshot (a wrapper
/// adding `--data-dir`, `--now` and `--realtime`), so every output is known: the 27 from
/// Tallaght Interchange leaves 07:53, 3 min late, 13 min from now (`StatusLineTests.live`).
@Suite struct StatusBarRecipeTests {
  static var canRun: Bool { transitExecutable != nil && CompletionsTests.shell("sh") != nil }

  let scratch = TemporaryFolder()

  /// The README, read once.
  static let readme = (try? String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)) ?? ""

  /// The one README line starting with `prefix`.
  static func recipeLine(_ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix(prefix) }
    try #require(lines.count == 1, "README lines starting with \(prefix): \(lines)", sourceLocation: sourceLocation)
    return String(lines[0])
  }

  /// A folder holding `transit`: the built binary with the demo data and moment pinned. Made
  /// once for the suite, and written through a close-on-exec descriptor: a script still open
  /// for writing in a child another test forks at that moment cannot be run ("text file busy").
  final class Pinned: Sendable {
    let home = DemoHome()
    let folder = TemporaryFolder()
    let path: String
    let error: String?

    init() {
      let bin = folder.path + "/bin"
      path = bin + ":/usr/bin:/bin"
      try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
      let words = [
        transitExecutable ?? "transit", "--data-dir", home.path, "--now", "2026-12-01T07:40:00Z", "--realtime",
        packageRoot + "/" + DemoRealtimeSnapshot.tripUpdatesPath,
      ]
      let script = Array("#!/bin/sh\nexec \(words.map(TmuxSession.quoted).joined(separator: " ")) \"$@\"\n".utf8)
      let descriptor = open(bin + "/transit", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
      let written = descriptor >= 0 ? write(descriptor, script, script.count) : -1
      if descriptor >= 0 { close(descriptor) }
      error = written == script.count ? nil : "could not write \(bin)/transit: errno \(errno)"
    }
  }
  static let pinned = Pinned()

  /// The PATH that finds the pinned `transit` first.
  func pinnedPath() throws -> String {
    if let error = Self.pinned.error { Issue.record(Comment(rawValue: error)) }
    return Self.pinned.path
  }

  /// `command` run as the bars run theirs, `sh -c`.
  func shell(_ command: String) throws -> CLIResult {
    try CompletionsTests.launch(
      try #require(CompletionsTests.shell("sh")), ["-c", command],
      environment: ["PATH": try pinnedPath(), "LANG": "C.UTF-8", "HOME": scratch.path], directory: scratch.path)
  }

  // MARK: - tmux

  @Test(.enabled(if: canRun && tmuxExecutable != nil))
  func tmuxStatusRight() throws {
    let conf = [try Self.recipeLine("set -g status-interval "), try Self.recipeLine("set -g status-right ")]
    #expect(conf[1].contains("#(transit departures"), "\(conf[1])")
    try (conf.joined(separator: "\n") + "\n").write(toFile: scratch.path + "/tmux.conf", atomically: true, encoding: .utf8)
    let socket = "transit-recipe-" + UUID().uuidString.prefix(8)
    let path = try pinnedPath()
    // tmux through sh and system(3), its output through a file (as TmuxSession does): the
    // server it forks keeps no pipe open. Its jobs (#(...)) get the server's environment.
    func tmux(_ server: String, _ arguments: [String]) -> String {
      let out = scratch.path + "/tmux-out"
      let words =
        ["env", "PATH=" + path, "LANG=C.UTF-8", "HOME=" + scratch.path, tmuxExecutable!, "-u", "-L", socket + server]
        + arguments
      _ = system(words.map(TmuxSession.quoted).joined(separator: " ") + " </dev/null >" + TmuxSession.quoted(out) + " 2>&1")
      return String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self)
    }
    // A server with the recipe's configuration, and a client attached to it inside the pane of
    // a second server, whose pane then shows the first one's status line as a user sees it.
    _ = tmux("-bar", ["-f", scratch.path + "/tmux.conf", "new-session", "-d", "-x", "100", "-y", "5", "sleep 60"])
    defer { _ = tmux("-bar", ["kill-server"]) }
    #expect(tmux("-bar", ["show-options", "-gv", "status-right"]) == "#(transit departures TINT --line --route 27 --timeout 1) \n")
    let attach = "env -u TMUX \(TmuxSession.quoted(tmuxExecutable!)) -u -L \(socket)-bar attach"
    _ = tmux("-screen", ["-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "6", attach])
    defer { _ = tmux("-screen", ["kill-server"]) }
    // #(...) runs in the background: the status line shows its output once it has answered.
    let deadline = Date().addingTimeInterval(15)
    var statusLine = ""
    while Date() < deadline {
      statusLine = tmux("-screen", ["capture-pane", "-p"]).split(separator: "\n").last.map(String.init) ?? ""
      if statusLine.contains("27 ") { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    // status-right at the line's right end (capture-pane drops the trailing space).
    #expect(statusLine.hasSuffix("  27 07:53 +3 · in 13 min"), "\(statusLine)")
    // The window list on the left (its name is whatever tmux's automatic rename sees running:
    // `sleep`, or the shell that runs it).
    #expect(statusLine.hasPrefix("[0] 0:"), "\(statusLine)")
  }

  // MARK: - waybar

  @Test(.enabled(if: canRun))
  func waybarCustomModule() throws {
    let readme = Self.readme
    let start = try #require(readme.range(of: "\"custom/next-27\": {\n"))
    let end = try #require(readme.range(of: "\n}\n", range: start.upperBound..<readme.endIndex))
    let module = "{" + readme[start.lowerBound..<end.upperBound] + "}"
    let config = try #require(try JSONSerialization.jsonObject(with: Data(module.utf8)) as? [String: [String: Any]])
    let settings = try #require(config["custom/next-27"])
    #expect(settings["return-type"] as? String == "json")
    #expect(settings["escape"] as? Bool == true)
    #expect(settings["interval"] as? Int == 30)
    let exec = try #require(settings["exec"] as? String)

    let result = try shell(exec)
    #expect(result.code == 0, "\(result.stderr)")
    // Waybar reads one JSON object per line: text, and optionally alt, tooltip, class (a
    // string or a list of them) and percentage; nothing else.
    let lines = result.stdout.split(separator: "\n")
    try #require(lines.count == 1 && result.stdout.hasSuffix("\n"), "\(result.stdout)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(Set(object.keys).isSubset(of: ["text", "alt", "tooltip", "class", "percentage"]), "\(object.keys)")
    #expect(object["text"] as? String == "27 07:53 +3 · in 13 min")
    #expect(object["tooltip"] as? String == "27 to Crumlin Hospital · 07:53 · 3 min late · in 13 min")
    #expect(object["class"] as? String == "late")
    #expect(object["alt"] as? String == "late")
    // The style's selectors name the classes the JSON gives.
    #expect(readme.contains("\n#custom-next-27.late { "))
  }

  // MARK: - i3blocks, polybar

  @Test(.enabled(if: canRun))
  func i3blocksCommand() throws {
    let line = try Self.recipeLine("command=transit ")
    let result = try shell(String(line.dropFirst("command=".count)))
    #expect(result.code == 0, "\(result.stderr)")
    // i3blocks: line 1 is full_text, 2 short_text, 3 a colour; one line: the text alone.
    #expect(result.stdout == "27 07:53 +3\n")
  }

  @Test(.enabled(if: canRun))
  func polybarScript() throws {
    let line = try Self.recipeLine("exec = transit ")
    let result = try shell(String(line.dropFirst("exec = ".count)))
    #expect(result.code == 0, "\(result.stderr)")
    // polybar shows the last line printed, and would read %{...} as its formatting tags.
    #expect(result.stdout == "27 in 13 min\n")
    #expect(!result.stdout.contains("%{"))
  }

  // MARK: - A prompt

  @Test(.enabled(if: canRun && CompletionsTests.shell("bash") != nil))
  func bashPrompt() throws {
    let assignment = try Self.recipeLine("PS1='")
    // The prompt as bash draws it: ${PS1@P} expands it as a prompt, $(...) included.
    let script = assignment + "\nprintf '%s' \"${PS1@P}\""
    let result = try CompletionsTests.launch(
      try #require(CompletionsTests.shell("bash")), ["--norc", "--noprofile", "-c", script],
      environment: ["PATH": try pinnedPath(), "LANG": "C.UTF-8", "HOME": "/nonexistent"], directory: scratch.path)
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let mark = getuid() == 0 ? "#" : "$"
    #expect(result.stdout == "27 13m \(scratch.path) \(mark) ")
  }
}
