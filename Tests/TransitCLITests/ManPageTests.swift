import Foundation
import TestSupport
import Testing

@testable import TransitCLI

/// `transit.1`, from `transit __manpage`: every command is in it, and it renders without a
/// warning under groff and mandoc when they are installed (Scripts/install-deps adds groff).
@Suite struct ManPageTests {
  static let page = transit(["__manpage", "--date", "2026-01-01"])

  @Test func hasTheSectionsAndEveryCommand() {
    #expect(Self.page.code == 0)
    #expect(Self.page.stdout.hasPrefix(".TH TRANSIT 1 2026-01-01 \"transit \(Transit.version)\" \"User Commands\"\n"))
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
      #expect(Self.page.stdout.contains("\n.SH \(section)\n"), "\(section)")
    }
    for command in Transit.commands {
      let spec = command.spec
      #expect(Self.page.stdout.contains(".SS \"\(ManPage.escape(spec.usage))\""), "\(spec.name)")
      for option in spec.options { #expect(Self.page.stdout.contains(ManPage.bold(option.name)), "\(spec.name) \(option.name)") }
    }
    for variable in ["TRANSIT_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "NO_COLOR", "TRANSIT_LOCATION", "TERM"] {
      #expect(Self.page.stdout.contains(ManPage.bold(variable)), "\(variable)")
    }
    for code in 0...3 { #expect(Self.page.stdout.contains(".TP\n\\fB\(code)\\fR\n")) }
    for command in Transit.hiddenCommands { #expect(!Self.page.stdout.contains(command.spec.path[0])) }
  }

  @Test func isTheSameEachTime() {
    #expect(transit(["__manpage", "--date", "2026-01-01"]).stdout == Self.page.stdout)
    #expect(transit(["__manpage", "--now", "2026-01-01T10:00:00Z"]).stdout == Self.page.stdout)
    #expect(transit(["__manpage", "--date", "soon"]).code == 2)
  }

  @Test func escapesWhatRoffWouldRead() {
    #expect(ManPage.escape("--json") == "\\-\\-json")
    #expect(ManPage.escape(".sqlite files") == "\\&.sqlite files")
    #expect(ManPage.escape("a\\b") == "a\\eb")
    #expect(ManPage.escape("1.25 × the line") == "1.25 \\[u00D7] the line")
    // No source line starts a request by accident, and none is over 80 bytes but verbatim ones.
    for line in Self.page.stdout.split(separator: "\n") where !line.hasPrefix(".") {
      #expect(!line.hasPrefix("'"), "\(line)")
    }
  }

  static func tool(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  @Test(.enabled(if: tool("groff") != nil))
  func rendersWithoutGroffWarnings() throws {
    let folder = TemporaryFolder()
    try Self.page.stdout.write(toFile: folder.path + "/transit.1", atomically: true, encoding: .utf8)
    let result = try CompletionsTests.launch(try #require(Self.tool("groff")), ["-man", "-ww", "-z", folder.path + "/transit.1"])
    #expect(result.code == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test(.enabled(if: tool("mandoc") != nil))
  func passesMandocLint() throws {
    let folder = TemporaryFolder()
    try Self.page.stdout.write(toFile: folder.path + "/transit.1", atomically: true, encoding: .utf8)
    let result = try CompletionsTests.launch(
      try #require(Self.tool("mandoc")), ["-T", "lint", "-W", "warning", folder.path + "/transit.1"])
    #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
  }
}
