import Foundation
import GTFSRealtime
import TestSupport
import Testing

@testable import TransitCLI

/// Issue 23, case 5: feed text with control characters (a window title, a screen clear, a C1
/// CSI, a backspace, a bell) never reaches the terminal raw, whichever command shows it and
/// with or without colour. Walks every command's demo run (`ConventionsTests.demoRuns`) over a
/// copy of the demo network and its realtime with such text in every name.
@Suite struct HostileTextTests {
  /// What a hostile feed appends to its names: set the window title, clear the screen, turn text
  /// red, a C1 CSI clearing the screen, a backspace, a bell and a DEL.
  static let payload = " \u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31m\u{9B}2J\u{08}\u{07}\u{7F}x"

  /// The demo network with the payload after every "Tallaght", "Crumlin" and "Demo".
  static let hostileFeedMade = Result { () throws -> String in
    let folder = NSTemporaryDirectory() + "transit-hostile-\(getpid())-feed"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let source = packageRoot + "/Data/gtfs"
    for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.hasSuffix(".txt") {
      var text = try String(contentsOfFile: source + "/" + name, encoding: .utf8)
      for word in ["Tallaght", "Crumlin", "Demo"] { text = text.replacingOccurrences(of: word, with: word + payload) }
      try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }
    return folder
  }
  /// (Made once; a failure fails the tests that need it, not the run.)
  static var hostileFeed: String { get throws { try hostileFeedMade.get() } }

  /// A data folder with the hostile network ingested as `demo`, made once and copied per run.
  static let hostileHomeMade = Result { () throws -> String in
    let folder = NSTemporaryDirectory() + "transit-hostile-\(getpid())-home"
    try? FileManager.default.removeItem(atPath: folder)
    let ingest = run(["ingest", try hostileFeed, "--feed", "demo", "--quiet"], home: folder, terminal: false)
    guard ingest.code == 0 else { throw FixtureError(ingest.stderr) }
    return folder
  }
  static var hostileHome: String { get throws { try hostileHomeMade.get() } }

  static func copy(_ folder: String, to destination: String) throws {
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: destination + "/" + name)
    }
  }

  /// A demo realtime capture with the payload in its alert texts and vehicle labels.
  static func hostileCapture(_ name: String) throws -> String {
    try poisonedCapture(name, tag: "hostile", payload: payload) { $0 + payload }
  }

  /// The demo realtime capture `name` with `alertText` applied to each of its alert texts and
  /// `payload` after each vehicle label, written once per process (under `tag`) and reused.
  static func poisonedCapture(
    _ name: String, tag: String, payload: String, alertText: (String) -> String
  ) throws -> String {
    let path = NSTemporaryDirectory() + "transit-\(tag)-\(getpid())-\(name)"
    if FileManager.default.fileExists(atPath: path) { return path }
    let bytes = [UInt8](try #require(FileManager.default.contents(atPath: ConventionsTests.realtime + "/" + name)))
    var feed = try FeedMessage(decoding: bytes)
    for index in feed.entities.indices {
      if var alert = feed.entities[index].alert {
        for field in [\Alert.headerText, \Alert.descriptionText] {
          if var text = alert[keyPath: field] {
            for t in text.translations.indices { text.translations[t].text = alertText(text.translations[t].text ?? "") }
            alert[keyPath: field] = text
          }
        }
        feed.entities[index].alert = alert
      }
      if var vehicle = feed.entities[index].vehicle, var descriptor = vehicle.vehicle {
        descriptor.label = (descriptor.label ?? "") + payload
        vehicle.vehicle = descriptor
        feed.entities[index].vehicle = vehicle
      }
    }
    _ = FileManager.default.createFile(atPath: path, contents: Data(feed.encoded()))
    return path
  }

  /// `arguments` with the demo captures swapped for hostile ones.
  static func hostile(_ arguments: [String]) throws -> [String] {
    try swappingCaptures(arguments, with: hostileCapture)
  }

  /// `arguments` with each demo capture's path swapped for the one `capture` makes of it.
  static func swappingCaptures(_ arguments: [String], with capture: (String) throws -> String) throws -> [String] {
    try arguments.map { word in
      var word = word
      for name in ["demo-tripupdates.pb", "demo-vehiclepositions.pb", "demo-alerts.pb"] {
        word = word.replacingOccurrences(of: ConventionsTests.realtime + "/" + name, with: try capture(name))
      }
      return word
    }
  }

  /// The control characters left in `text` (tab and newline are fine), with our own colour
  /// sequences taken out first when `colour` allows them.
  static func controls(in text: String, colour: Bool) -> [String] {
    var text = text
    if colour { text = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }
    return text.unicodeScalars.filter { scalar in
      let value = scalar.value
      return (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
    }.map { String(format: "U+%04X", $0.value) }
  }

  /// Runs `arguments` in `home` on a clock that starts at `ConventionsTests.now` and moves as
  /// the command sleeps (`record --duration 1s` waits for nothing real).
  static func run(_ arguments: [String], home: String, terminal: Bool, environment: [String: String] = [:]) -> CLIResult {
    let context = CommandContext.stepped(
      from: ISOTime.parse(ConventionsTests.now)!, environment: environment, currentDirectory: home)
    context.stdoutIsTerminal = terminal
    context.stderrIsTerminal = terminal
    return transit(arguments + ["--now", ConventionsTests.now, "--data-dir", home], context: context)
  }

  static let ways: [(name: String, terminal: Bool, environment: [String: String], colour: Bool)] = [
    ("piped", false, [:], false),
    ("NO_COLOR on a terminal", true, ["NO_COLOR": "1"], false),
    ("colour terminal", true, [:], true),
  ]

  @Test(arguments: ConventionsTests.names)
  func noControlCharacterReachesTheTerminal(name: String) throws {
    let run = try #require(ConventionsTests.demoRuns[name])
    for way in Self.ways {
      let home = TemporaryFolder()
      try Self.copy(try Self.hostileHome, to: home.path)
      for setup in run.setup { _ = Self.run(try Self.hostile(setup), home: home.path, terminal: false) }
      let result = Self.run(try Self.hostile(run.arguments), home: home.path, terminal: way.terminal, environment: way.environment)
      #expect(result.code == 0, "\(name), \(way.name): \(result.stderr)")
      #expect(Self.controls(in: result.stdout, colour: way.colour) == [], "\(name), \(way.name): stdout")
      // A progress bar on a terminal's stderr may erase its line; nothing else.
      let stderr = result.stderr.replacingOccurrences(of: "\r\u{1B}[2K", with: "")
      #expect(Self.controls(in: stderr, colour: false) == [], "\(name), \(way.name): stderr")
    }
  }

  /// The walk means something: the hostile names are shown (their printable part), and JSON
  /// keeps the text whole, escaped.
  @Test func theNamesAreShownCleanAndJSONKeepsThemEscaped() throws {
    let home = TemporaryFolder()
    #expect(Self.run(["ingest", try Self.hostileFeed, "--feed", "demo", "--quiet"], home: home.path, terminal: false).code == 0)
    let text = Self.run(["stops", "show", "TINT"], home: home.path, terminal: false)
    #expect(text.stdout.contains("Tallaght x Interchange"), "\(text.stdout.prefix(80))")
    let json = Self.run(["stops", "show", "TINT", "--json"], home: home.path, terminal: false)
    #expect(json.stdout.lowercased().contains("tallaght \\u001b]0;owned\\u0007\\u001b[2j"), "\(json.stdout.prefix(200))")
    let alerts = Self.run(["alerts", "--peek", "--realtime", try Self.hostileCapture("demo-alerts.pb")], home: home.path, terminal: false)
    #expect(!alerts.stdout.isEmpty && Self.controls(in: alerts.stdout, colour: false) == [])
  }

  @Test(arguments: [
    ("\u{1B}]0;title\u{07}name", "name"),
    ("\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
    ("a\u{1B}[2Jb\u{1B}[Hc", "abc"),
    ("\u{1B}Pdcs\u{1B}\\ok", "ok"),
    ("bell\u{07} back\u{08}space", "bell backspace"),
    ("c1\u{9B}31mred\u{9D}0;t\u{9C}!", "c1red!"),
    ("tab\tand\nnewline", "tab\tand\nnewline"),
    ("crlf\r\n", "crlf\r\n"),
    ("over\rwrite", "overwrite"),
    ("lone \u{1B}", "lone "),
    ("Dún Laoghaire · 5 min", "Dún Laoghaire · 5 min"),
  ])
  func sanitizes(_ input: String, expected: String) {
    #expect(TerminalText.sanitize(input) == expected)
  }

  @Test func keepsColourOnlyWhenAllowed() {
    let styled = "\u{1B}[1;31mlate\u{1B}[0m"
    #expect(TerminalText.sanitize(styled, allowing: .init(colour: true)) == styled)
    #expect(TerminalText.sanitize(styled) == "late")
    #expect(TerminalText.sanitize("\u{1B}[2Jx", allowing: .init(colour: true)) == "x")
    #expect(TerminalText.sanitize("\r\u{1B}[2Kbar", allowing: .init(lineErase: true)) == "\r\u{1B}[2Kbar")
    #expect(TerminalText.sanitize("over\rwrite", allowing: .init(lineErase: true)) == "overwrite")
  }
}
