import Foundation
import TestSupport
import Testing

/// Issue 38: text output keeps feed and user strings on their line and in their direction: a
/// newline inside a CSV field no longer breaks a table row, bidi controls (U+202A-U+202E,
/// U+2066-U+2069) never reach the terminal, and place names holding control characters (two
/// of which printed as one name) are refused.
@Suite struct OneLineTextTests {
  static let now = "2026-12-01T07:40:00Z"

  /// The demo network with the station's name spread over two lines and reversed half-way.
  static let feedMade = Result { () throws -> String in
    let folder = NSTemporaryDirectory() + "transit-oneline-\(getpid())-feed"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let source = packageRoot + "/Data/gtfs"
    for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.hasSuffix(".txt") {
      var text = try String(contentsOfFile: source + "/" + name, encoding: .utf8)
      if name == "stops.txt" {
        text = text.replacingOccurrences(of: ",Tallaght Interchange,", with: ",\"Tallaght\nInter\u{202E}change\u{2066}\",")
      }
      try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }
    return folder
  }

  @Test func tableRowsStayWholeAndBidiControlsAreRemoved() throws {
    let home = TemporaryFolder()
    let ingest = transit(["ingest", try Self.feedMade.get(), "--feed", "demo", "--quiet", "--data-dir", home.path])
    try #require(ingest.code == 0, "\(ingest.stderr)")
    let runs: [[String]] = [
      ["stops", "search", "tallaght"], ["stops", "near", "53.2876,-6.3750", "--limit", "3"], ["stops", "show", "TINT"],
      ["departures", "TINT", "--limit", "3"], ["routes", "--stop", "TINT"],
    ]
    for arguments in runs {
      let result = transit(arguments + ["--now", Self.now, "--data-dir", home.path])
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
      for bidi in ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"] {
        #expect(!result.stdout.contains(bidi), "\(arguments) printed a bidi control")
      }
      // No line starts with the second half of the name: each row is one line.
      #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("Interchange") }, "\(arguments):\n\(result.stdout)")
    }
    let search = transit(["stops", "search", "tallaght", "--now", Self.now, "--data-dir", home.path])
    #expect(search.stdout.contains("Tallaght Interchange"))
  }

  @Test(arguments: ["ho\u{07}me", "home\u{1B}[2J", "ho\nme", "home\u{202E}", "\u{2066}home", "ho\u{7F}me"])
  func placeNamesWithControlCharactersAreRefused(name: String) {
    let home = TemporaryFolder()
    let result = transit(["places", "add", name, "1,1", "--data-dir", home.path])
    #expect(result.code == 2)
    #expect(result.stderr.contains("holds a control character"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count <= 2)
    #expect(transit(["places", "list", "--data-dir", home.path]).stdout.hasPrefix("no saved places"))
  }
}
