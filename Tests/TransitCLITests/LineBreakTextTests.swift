import Foundation
import GTFSRealtime
import TestSupport
import Testing

@testable import TransitCLI

/// Issue 38: text output keeps every feed and user string on its line, in its direction and out
/// of the terminal's control: a newline, a carriage return or a tab inside a stop name, a
/// headsign, a route or agency name, an alert's text, a vehicle label or a favourite's label
/// shows as a space (an alert description's lines each indented under their alert); an escape sequence (colour included, even on a colour terminal) and the
/// bidi controls are removed. Every command's demo run (`ConventionsTests.demoRuns`), and the
/// board's other views, over the demo network with such text after every "Tallaght",
/// "Crumlin" and "Demo"; JSON keeps the text exact.
@Suite struct LineBreakTextTests {
  /// What the feed appends: a line that would start with FORGED, a carriage return and a tab, a
  /// colour no renderer of ours uses, a right-to-left override, the right-to-left and Arabic
  /// letter marks, a line separator.
  static let payload = " \nFORGED\r\tx\u{1B}[38;5;99m\u{202E}\u{200F}\u{061C}\u{2028}y"

  /// The bidi controls and the breaks that are not newlines: none may reach stdout.
  static let forbidden: Set<UInt32> = [
    0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C, 0x2028, 0x2029, 0x85,
  ]

  /// `line` as a CSV line with the payload after each word in every field holding one (then
  /// quoted, as a field with a newline must be).
  static func hostileLine(_ line: Substring) -> String {
    let fields = TestCSV.fields(of: line)
    return fields.map { field in
      var field = field
      for word in ["Tallaght", "Crumlin", "Demo"] { field = field.replacingOccurrences(of: word, with: word + payload) }
      return field.contains(where: { $0 == "," || $0 == "\n" || $0 == "\r" || $0 == "\"" })
        ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }.joined(separator: ",")
  }

  static let feedMade = Result { () throws -> String in
    let folder = NSTemporaryDirectory() + "transit-linebreak-\(getpid())-feed"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let source = packageRoot + "/Data/gtfs"
    for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.hasSuffix(".txt") {
      let text = try String(contentsOfFile: source + "/" + name, encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(hostileLine)
      try lines.joined(separator: "\n").write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }
    return folder
  }

  static let homeMade = Result { () throws -> String in
    let folder = NSTemporaryDirectory() + "transit-linebreak-\(getpid())-home"
    try? FileManager.default.removeItem(atPath: folder)
    let ingest = HostileTextTests.run(["ingest", try feedMade.get(), "--feed", "demo", "--quiet"], home: folder, terminal: false)
    guard ingest.code == 0 else { throw FixtureError(ingest.stderr) }
    return folder
  }

  /// A demo realtime capture with the payload in its alert texts and vehicle labels.
  static func capture(_ name: String) throws -> String {
    try HostileTextTests.poisonedCapture(name, tag: "linebreak", payload: payload) { "Demo" + payload + $0 }
  }

  static func hostile(_ arguments: [String]) throws -> [String] {
    try HostileTextTests.swappingCaptures(arguments, with: capture)
  }

  /// What is wrong with `text` as terminal output: a control character but a newline, an escape
  /// sequence that is not ours (none without colour), a bidi control or odd break, a line that
  /// starts with the payload's second line.
  /// With `paragraphs` (`alerts`), a description's own lines, indented by four under their
  /// alert, may start anywhere in its text.
  static func problems(in text: String, colour: Bool, paragraphs: Bool = false) -> [String] {
    var problems: [String] = []
    var plain = text
    if colour { plain = plain.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }
    if text.contains("\u{1B}[38;5;99m") { problems.append("the feed's colour") }
    for scalar in plain.unicodeScalars {
      let value = scalar.value
      if (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value) || forbidden.contains(value) {
        problems.append(String(format: "U+%04X", value))
      }
    }
    for line in text.split(separator: "\n") where line.drop(while: { $0 == " " }).hasPrefix("FORGED") {
      if paragraphs && line.hasPrefix("    ") { continue }
      problems.append("a forged line: \(line)")
    }
    return problems
  }

  /// Every command's demo run, and the board's other views, the favourites' and the plan's.
  static var runs: [(name: String, setup: [[String]], arguments: [String])] {
    let demo = ConventionsTests.demoRuns.map { (name: $0.key, setup: $0.value.setup, arguments: $0.value.arguments) }
    let tripUpdates = ConventionsTests.realtime + "/demo-tripupdates.pb"
    let vehicles = ConventionsTests.realtime + "/demo-vehiclepositions.pb"
    let alerts = ConventionsTests.realtime + "/demo-alerts.pb"
    let favourites = [
      ["fav", "add", "TINT", "--label", "to\nFORGED\u{202E}work"],
      ["fav", "add", "corner", "4529", "4530", "--name", "Main\rFORGED\n\u{1B}[38;5;99mcorner"],
    ]
    return demo + [
      ("departures --line", [], ["departures", "TINT", "--line", "--realtime", tripUpdates]),
      ("departures --group", [], ["departures", "TINT", "--group", "--realtime", tripUpdates, "--realtime", alerts]),
      ("departures several", [], ["departures", "4529", "4530", "--realtime", tripUpdates]),
      ("departures --to", [], ["departures", "TINT", "--to", "crumlin", "--realtime", tripUpdates, "--realtime", alerts]),
      ("stops near --map", [], ["stops", "near", "53.2875,-6.3664", "--map", "--ascii"]),
      ("routes", [], ["routes"]),
      ("routes text", [], ["routes", "tallaght"]),
      ("route show map", [], ["route", "show", "27", "--map", "--ascii"]),
      ("alerts all", [], ["alerts", "--realtime", alerts]),
      ("status all", [], ["status", "--realtime", alerts]),
      ("fav list labels", favourites, ["fav", "list"]),
      ("home labels", favourites, ["--realtime", tripUpdates]),
      ("plan from a place", [["places", "add", "home", "53.2875,-6.3664"]], ["plan", "home", "TD4521", "--depart", "08:00"]),
      ("vehicles --route", [], ["vehicles", "--route", "27", "--realtime", vehicles, "--realtime", tripUpdates]),
      ("trip show by trip", [], ["trip", "show", "27-WK-0-0600", "--realtime", tripUpdates]),
    ]
  }

  @Test(arguments: runs.map(\.name))
  func noFeedOrUserStringBreaksOrTakesOverTheTerminal(name: String) throws {
    let run = try #require(Self.runs.first { $0.name == name })
    for way in HostileTextTests.ways {
      let home = TemporaryFolder()
      try HostileTextTests.copy(try Self.homeMade.get(), to: home.path)
      for setup in run.setup { _ = HostileTextTests.run(try Self.hostile(setup), home: home.path, terminal: false) }
      let result = HostileTextTests.run(
        try Self.hostile(run.arguments), home: home.path, terminal: way.terminal, environment: way.environment)
      #expect(result.code == 0, "\(name), \(way.name): \(result.stderr)")
      #expect(
        Self.problems(in: result.stdout, colour: way.colour, paragraphs: name.hasPrefix("alerts")) == [],
        "\(name), \(way.name):\n\(result.stdout)")
    }
  }

  @Test func theNamesShowOnOneLineAndJSONKeepsThemExact() throws {
    let home = TemporaryFolder()
    try HostileTextTests.copy(try Self.homeMade.get(), to: home.path)
    let search = HostileTextTests.run(["stops", "search", "crumlin"], home: home.path, terminal: false)
    #expect(search.stdout.contains("Crumlin FORGED x y Hospital"), "\(search.stdout)")
    let json = HostileTextTests.run(["stops", "show", "TD4521", "--json"], home: home.path, terminal: false)
    #expect(json.stdout.contains(#"Crumlin \nFORGED\r\tx\u001b[38;5;99m\#u{202E}\#u{200F}\#u{061C}\#u{2028}y Hospital"#), "\(json.stdout)")
  }

  @Test(arguments: [
    ("a\nb", "a b"), ("a\r\nb", "a b"), ("a\tb", "a b"), ("a\u{2028}\u{2029}\u{85}b", "a b"), ("red\u{1B}[31m!", "red!"),
    ("\u{202E}evil\u{202C}", "evil"), ("\u{200E}l\u{200F}r\u{061C}", "lr"), ("bell\u{07}", "bell"), ("Dún Laoghaire", "Dún Laoghaire"),
  ])
  func singleLine(_ input: String, expected: String) {
    #expect(TerminalText.singleLine(input) == expected)
  }
}
