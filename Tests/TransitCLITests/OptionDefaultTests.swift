import Testing
import TransitModel

@testable import TransitCLI

/// A default declared once (`Option.defaulting`): help shows what the command reads when the
/// option is not given.
@Suite struct OptionDefaultTests {
  @Test func theDefaultIsWhatHelpShowsAndWhatIsRead() throws {
    let limit = Option.integer("--limit", value: "N", in: 1...50, help: "At most N").defaulting(to: 7)
    let speed = Option.number("--speed", value: "X", help: "Faster", described: "positive", accepts: { $0 > 0 })
      .defaulting(to: 0.5)
    let whole = Option.number("--every", value: "S", help: "Seconds", described: "positive", accepts: { $0 > 0 })
      .defaulting(to: 2)
    let specs = [limit.spec, speed.spec, whole.spec]
    #expect(specs.map(\.defaultValue) == ["7", "0.5", "2"])
    let absent = try ParsedArguments([], options: specs)
    #expect(try absent.read(limit) == 7)
    #expect(try absent.read(speed) == 0.5)
    #expect(try absent.read(whole) == 2)
    let given = try ParsedArguments(["--limit", "12", "--speed", "3"], options: specs)
    #expect(try given.read(limit) == 12)
    #expect(try given.read(speed) == 3)
    // The value is still checked when given.
    let bad = try ParsedArguments(["--limit", "51"], options: specs)
    #expect(throws: UsageError("option '--limit' takes a whole number from 1 to 50, not '51'")) { try bad.read(limit) }
  }

  @Test func daysAreShownAsTheyAreWritten() throws {
    // Bit 0 is Monday (as ValueParser.weekdays): 31 = mon..fri, 96 = sat+sun, 29 = mon+wed+thu+fri,
    // 5 = mon+wed, 127 = every day, 65 = mon+sun (no wrap-around range).
    let cases: [(Int, String)] = [
      (31, "mon-fri"), (96, "sat,sun"), (29, "mon,wed-fri"), (5, "mon,wed"), (127, "daily"), (65, "mon,sun"),
      (7, "mon-wed"), (3, "mon,tue"),
    ]
    for (mask, text) in cases { #expect(SavedCommute.daysText(mask) == text, "\(mask)") }
    let days = Option.weekdays("--days", value: "DAYS", help: "Days", default: 31)
    #expect(days.spec.defaultValue == "mon-fri")
    #expect(try ParsedArguments([], options: [days.spec]).read(days) == 31)
    #expect(try ParsedArguments(["--days", "weekends"], options: [days.spec]).read(days) == 96)
  }
}
