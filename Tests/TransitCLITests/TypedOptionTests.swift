import Foundation
import TestSupport
import Testing
import TransitCLI

/// Options declared once with their type (`Option`): their values are checked before the
/// command runs, with one wording wherever the option appears.
@Suite struct TypedOptionTests {
  @Test func aBadValueIsAUsageErrorBeforeAnythingIsOpened() {
    let empty = TemporaryFolder()
    // No timetable is held: the language tag is refused first, the same way in both commands.
    for command in [["status"], ["alerts"]] {
      let result = transit(command + ["--lang", "b@d", "--data-dir", empty.path])
      #expect(result.code == 2, "\(command)")
      #expect(result.stderr.hasPrefix("transit: --lang 'b@d' is not a language tag (en, fr, es-MX)\n"), "\(command)")
    }
    let record = transit(["record", empty.path + "/snapshots", "--duration", "soon", "--data-dir", empty.path])
    #expect(record.code == 2)
    #expect(record.stderr.hasPrefix("transit: --duration 'soon' is not a duration (90s, 15m, 2h)\n"))
  }

  @Test func durationsAndDatesHaveOneParser() throws {
    #expect(try ValueParser.duration("90", option: "--duration") == 90)
    #expect(try ValueParser.duration("15m", option: "--duration") == 900)
    #expect(try ValueParser.duration("2h", option: "--duration") == 7200)
    #expect(throws: UsageError.self) { try ValueParser.duration("0s", option: "--duration") }
    #expect(try ValueParser.date("2026-12-01", option: "--date").yyyymmdd == 20_261_201)
    #expect(throws: UsageError.self) { try ValueParser.date("2026-1-01", option: "--date") }
    #expect(throws: UsageError.self) { try ValueParser.date("2026-02-30", option: "--date") }
    #expect(try ValueParser.clockMinutes("7:05", option: "--at") == 425)
    #expect(throws: UsageError.self) { try ValueParser.clockMinutes("24:00", option: "--at") }
  }
}
